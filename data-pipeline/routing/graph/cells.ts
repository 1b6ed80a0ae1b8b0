/**
 * Where the edge-based graph's nodes lie, as one number per node that keeps nodes near each other in
 * space near each other in order: the position of the node's segment start along a Hilbert curve
 * over the network's box. Runs of consecutive keys are compact patches of the map with short
 * boundaries, the cells of the contraction's first round (cell-interiors.ts).
 */
import type { RoadNetwork } from '../../../core/routing/network.js';
import type { EdgeBasedGraph } from './edge-based.js';

/** Cells along each axis of the curve's grid (2¹⁶: keys fit 32 bits). */
const GRID_BITS = 16;

export function spatialKeys(network: RoadNetwork, graph: Pick<EdgeBasedGraph, 'nodeCount' | 'duplicateOf'>): Uint32Array {
  const { pointFirst, coordinates, count } = network.segments;
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (let p = 0; p < coordinates.length; p += 2) {
    minLon = Math.min(minLon, coordinates[p]!);
    maxLon = Math.max(maxLon, coordinates[p]!);
    minLat = Math.min(minLat, coordinates[p + 1]!);
    maxLat = Math.max(maxLat, coordinates[p + 1]!);
  }
  const side = 2 ** GRID_BITS;
  const scale = (side - 1) / Math.max(1, maxLon - minLon, maxLat - minLat);
  // Both directions of a segment start near each other: take the segment's first point for both.
  const segmentKey = new Uint32Array(count);
  for (let s = 0; s < count; s++) {
    const p = 2 * pointFirst[s]!;
    segmentKey[s] = hilbertIndex(side, Math.floor((coordinates[p]! - minLon) * scale), Math.floor((coordinates[p + 1]! - minLat) * scale));
  }
  const keys = new Uint32Array(graph.nodeCount);
  const segments = 2 * count;
  for (let node = 0; node < graph.nodeCount; node++) {
    const original = node < segments ? node : graph.duplicateOf[node - segments]!;
    keys[node] = segmentKey[original >> 1]!;
  }
  return keys;
}

/** The classic conversion of a cell (x, y) of a side × side grid (a power of two) to its distance along the Hilbert curve. */
function hilbertIndex(side: number, x: number, y: number): number {
  let index = 0;
  for (let s = side >>> 1; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    index += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = side - 1 - x;
        y = side - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return index;
}
