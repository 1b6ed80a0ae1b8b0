/**
 * GPS traces for the map matching tests and benchmark: a known line sampled every so many metres
 * with seeded noise of a few metres in a random direction, and how much of a line another one covers
 * (by distance).
 */
import { haversine, metresToLine } from './routing.js';
import type { LonLat } from '../../core/geo/types.js';

const METRES_PER_DEGREE = 111_195;

export interface TraceShape {
  /** Metres between samples along the line, drawn uniformly in [min, max]. */
  spacing: [number, number];
  /** Metres of noise per sample, drawn uniformly in [min, max], in a uniformly drawn direction. */
  noise: [number, number];
}

export const NOISY_TRACE: TraceShape = { spacing: [30, 60], noise: [5, 15] };

/** The line's true positions every `spacing` metres, its first and last point included. */
export function sampleLine(line: readonly LonLat[], random: () => number, spacing: [number, number]): LonLat[] {
  const draw = () => spacing[0] + random() * (spacing[1] - spacing[0]);
  const samples: LonLat[] = [line[0]!];
  let wanted = draw();
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1]!, line[i]!];
    const length = haversine(a, b);
    let at = 0;
    // `wanted` metres are still to go from `a` + `at`.
    while (length - at >= wanted) {
      at += wanted;
      samples.push([a[0] + ((b[0] - a[0]) * at) / length, a[1] + ((b[1] - a[1]) * at) / length]);
      wanted = draw();
    }
    wanted -= length - at;
  }
  const last = line[line.length - 1]!;
  if (haversine(samples[samples.length - 1]!, last) > spacing[0] / 2) samples.push(last);
  return samples;
}

/** `position` moved `metres` in direction `angle` (radians from east). */
export function moved([lon, lat]: LonLat, metres: number, angle: number): LonLat {
  return [
    lon + (metres * Math.cos(angle)) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180)),
    lat + (metres * Math.sin(angle)) / METRES_PER_DEGREE,
  ];
}

/** The samples of `line` with noise: what a GPS receiver travelling along it might record. */
export function noisyTrace(
  line: readonly LonLat[],
  random: () => number,
  shape: TraceShape = NOISY_TRACE,
): { truth: LonLat[]; trace: LonLat[] } {
  const truth = sampleLine(line, random, shape.spacing);
  const trace = truth.map((point) => moved(point, shape.noise[0] + random() * (shape.noise[1] - shape.noise[0]), random() * 2 * Math.PI));
  return { truth, trace };
}

/** `line` up to its point nearest `end` (which it then ends at). */
export function lineUpTo(line: readonly LonLat[], end: LonLat): LonLat[] {
  let best = Infinity;
  let cut = line.length - 1;
  for (let i = 1; i < line.length; i++) {
    const metres = metresToLine(end, [line[i - 1]!, line[i]!]);
    if (metres < best) (best = metres), (cut = i);
  }
  return [...line.slice(0, cut), end];
}

/** The share of `line`'s length (0–1) within `tolerance` metres of one of the `covering` lines, measured every metre or so. */
export function coverage(line: readonly LonLat[], covering: readonly (readonly LonLat[])[], tolerance: number): number {
  let total = 0;
  let covered = 0;
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1]!, line[i]!];
    const length = haversine(a, b);
    const pieces = Math.max(1, Math.ceil(length));
    for (let k = 0; k < pieces; k++) {
      const f = (k + 0.5) / pieces;
      const p: LonLat = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
      total += length / pieces;
      if (covering.some((other) => metresToLine(p, other as LonLat[]) <= tolerance)) covered += length / pieces;
    }
  }
  return total > 0 ? covered / total : 0;
}
