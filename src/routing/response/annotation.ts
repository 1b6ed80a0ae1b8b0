/**
 * OSRM's route `annotations`: per leg, one entry per piece of the leg's polyline (from point k to
 * k + 1) for each annotation asked. `nodes` (OSM node ids) is not among them: the routing graph
 * keeps no OSM node ids (docs/ROUTING.md, "OSRM request options").
 */
import type { RouteLeg } from '../path.js';
import type { OsrmAnnotation } from './osrm.js';

export const ROUTE_ANNOTATIONS = ['duration', 'distance', 'speed', 'weight', 'datasources'] as const;
export type RouteAnnotation = (typeof ROUTE_ANNOTATIONS)[number];

/** The one data source of every duration: the profile (OSRM's name for it without traffic updates). */
const DATASOURCE_NAMES = ['lua profile'];

/** Metres and seconds to the millimetre and millisecond, so that the entries still sum to the leg within rounding. */
const thousandths = (value: number) => Math.round(value * 1000) / 1000;

/** The annotation of one leg with the entries asked, in OSRM's order of fields. */
export function legAnnotation(leg: RouteLeg, asked: readonly RouteAnnotation[]): OsrmAnnotation {
  const annotation: OsrmAnnotation = {};
  const has = (name: RouteAnnotation) => asked.includes(name);
  if (has('distance')) annotation.distance = leg.pieceMetres.map(thousandths);
  if (has('duration')) annotation.duration = leg.pieceSeconds.map(thousandths);
  if (has('datasources')) annotation.datasources = leg.pieceSeconds.map(() => 0);
  // Waymark's weight is the duration (weight_name `duration`).
  if (has('weight')) annotation.weight = leg.pieceSeconds.map(thousandths);
  if (has('speed')) {
    // As OSRM: metres per second to a tenth; a piece of no time repeats the speed before it.
    let previous = 0;
    annotation.speed = leg.pieceMetres.map((metres, k) => {
      const seconds = leg.pieceSeconds[k]!;
      if (seconds > 0) previous = Math.round((metres / seconds) * 10) / 10;
      return previous;
    });
  }
  if (has('datasources')) annotation.metadata = { datasource_names: DATASOURCE_NAMES };
  return annotation;
}
