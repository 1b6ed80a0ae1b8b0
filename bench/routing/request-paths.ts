/**
 * The HTTP request lists of the routing benchmark: `/api/v1/directions` for random snapped pairs
 * and `/api/v1/isochrone` for random centres, each checked once before load: a 200 is kept, a 422
 * (no route between the points) is left out, anything else fails the run.
 */
import type { TravelMode } from '../../core/routing/network.js';
import { directionsQuery, isochroneQuery } from './bare-queries.js';
import type { Position } from './random-points.js';

export const DIRECTIONS_PATH = '/api/v1/directions';
export const ISOCHRONE_PATH = '/api/v1/isochrone';

export interface CheckedPaths {
  /** Paths answered 200, in the order given. */
  ok: string[];
  /** Paths answered 422 (left out). */
  unroutable: number;
}

export const directionsPath = (mode: TravelMode, pair: { origin: Position; destination: Position }, key: string) =>
  `${DIRECTIONS_PATH}?${directionsQuery(mode, pair)}&key=${key}`;

export const isochronePath = (mode: TravelMode, center: Position, minutes: number, key: string) =>
  `${ISOCHRONE_PATH}?${isochroneQuery(mode, center, minutes)}&key=${key}`;

/** Requests every path once; throws on any status but 200 and 422. */
export async function checkPaths(base: string, paths: string[]): Promise<CheckedPaths> {
  const checked: CheckedPaths = { ok: [], unroutable: 0 };
  for (const path of paths) {
    const res = await fetch(base + path);
    const body = await res.text();
    if (res.status === 200) checked.ok.push(path);
    else if (res.status === 422) checked.unroutable++;
    else throw new Error(`${path.replace(/key=\w+/, 'key=…')} answered ${res.status}: ${body.slice(0, 300)}`);
  }
  if (checked.ok.length === 0) throw new Error(`none of the ${paths.length} requests of ${paths[0]?.split('?')[0]} answered 200`);
  return checked;
}
