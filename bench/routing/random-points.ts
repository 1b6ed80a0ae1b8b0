/**
 * The random request points of the routing benchmark: positions drawn uniformly (seeded, so every
 * run asks the same) inside the bounding box of the extract's road network, and the pairs and
 * centres of them that snap to a mode's network.
 */
import type { RoutingGraph } from '../../core/routing/graph-file.js';
import { snap, type Snap } from '../../workers/routing/graph/snap.js';
import { seededRandom } from '../lib/request-list.js';
import { quantile } from '../lib/timings.js';
import { SNAP_RADIUS_METRES } from '../../workers/routing/task.js';

/** [lon, lat] */
export type Position = [number, number];

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * The box holding the central 98 % of the graph's points in each axis. An extract keeps whole ways,
 * so a few roads reach far outside it; their points would make the box mostly empty country.
 */
export function graphBounds(graph: RoutingGraph): Bounds {
  const c = graph.coordinates;
  const lons = new Float64Array(c.length / 2);
  const lats = new Float64Array(c.length / 2);
  for (let i = 0; i < lons.length; i++) (lons[i] = c[2 * i]! * 1e-7), (lats[i] = c[2 * i + 1]! * 1e-7);
  lons.sort();
  lats.sort();
  return { west: quantile(lons, 0.01), south: quantile(lats, 0.01), east: quantile(lons, 0.99), north: quantile(lats, 0.99) };
}

/** `count` positions uniform in `bounds`, the same for the same seed. */
export function randomPositions(bounds: Bounds, count: number, seed: number): Position[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => [
    bounds.west + random() * (bounds.east - bounds.west),
    bounds.south + random() * (bounds.north - bounds.south),
  ]);
}

export interface SnappedPair {
  origin: Position;
  destination: Position;
  from: Snap;
  to: Snap;
}

/** Consecutive positions taken as (origin, destination) pairs; those where both snap, as the API would snap them. */
export function snappedPairs(graph: RoutingGraph, positions: Position[]): SnappedPair[] {
  const pairs: SnappedPair[] = [];
  for (let i = 0; i + 1 < positions.length; i += 2) {
    const [origin, destination] = [positions[i]!, positions[i + 1]!];
    const from = snap(graph, origin[0], origin[1], SNAP_RADIUS_METRES);
    const to = snap(graph, destination[0], destination[1], SNAP_RADIUS_METRES);
    if (from && to) pairs.push({ origin, destination, from, to });
  }
  return pairs;
}

/** `lat,lng` as the routing endpoints take positions. */
export const latLng = ([lon, lat]: Position): string => `${lat.toFixed(6)},${lon.toFixed(6)}`;
