/**
 * OSRM's route `annotations`: per leg, one entry per piece of the leg's polyline (from point k to
 * k + 1) for each annotation asked, and for `nodes` one OSM node id per point (docs/ROUTING.md,
 * "OSRM request options").
 */
import type { RouteLeg } from '../path.js';
import type { OsrmAnnotation } from './osrm.js';
import type { RouteAnnotation } from '../task.js';

/** The one data source of every duration: the profile (OSRM's name for it without traffic updates). */
const DATASOURCE_NAMES = ['lua profile'];

/** Metres and seconds to the millimetre and millisecond, so that the entries still sum to the leg within rounding. */
const thousandths = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Metres and seconds of each piece of the leg's polyline (point k to k + 1): each span's shared out
 * over its pieces by their length (evenly when they have none); a piece no span covers (where a via
 * point joins two legs) has none.
 */
function pieces(leg: RouteLeg): { pieceMetres: number[]; pieceSeconds: number[] } {
  const { coordinates } = leg;
  const pieceMetres = new Array<number>(coordinates.length - 1).fill(0);
  const pieceSeconds = new Array<number>(coordinates.length - 1).fill(0);
  for (const { first, last, metres, seconds } of leg.spans) {
    const lengths: number[] = [];
    let total = 0;
    for (let k = first; k < last; k++) {
      const [a, b] = [coordinates[k]!, coordinates[k + 1]!];
      const length = Math.hypot((b[0] - a[0]) * Math.cos((a[1] * Math.PI) / 180), b[1] - a[1]);
      lengths.push(length);
      total += length;
    }
    lengths.forEach((length, i) => {
      const share = total > 0 ? length / total : 1 / lengths.length;
      pieceMetres[first + i]! += share * metres;
      pieceSeconds[first + i]! += share * seconds;
    });
  }
  return { pieceMetres, pieceSeconds };
}

/** The annotation of one leg with the entries asked, in OSRM's order of fields. */
export function legAnnotation(leg: RouteLeg, asked: readonly RouteAnnotation[]): OsrmAnnotation {
  const annotation: OsrmAnnotation = {};
  const has = (name: RouteAnnotation) => asked.includes(name);
  const { pieceMetres, pieceSeconds } = pieces(leg);
  if (has('distance')) annotation.distance = pieceMetres.map(thousandths);
  if (has('duration')) annotation.duration = pieceSeconds.map(thousandths);
  if (has('datasources')) annotation.datasources = pieceSeconds.map(() => 0);
  // Waymark's weight is the duration (weight_name `duration`).
  if (has('weight')) annotation.weight = pieceSeconds.map(thousandths);
  if (has('speed')) {
    // As OSRM: metres per second to a tenth; a piece of no time repeats the speed before it.
    let previous = 0;
    annotation.speed = pieceMetres.map((metres, k) => {
      const seconds = pieceSeconds[k]!;
      if (seconds > 0) previous = Math.round((metres / seconds) * 10) / 10;
      return previous;
    });
  }
  if (has('nodes')) annotation.nodes = leg.nodes;
  if (has('datasources')) annotation.metadata = { datasource_names: DATASOURCE_NAMES };
  return annotation;
}
