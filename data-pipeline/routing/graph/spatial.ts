/**
 * The snapping index: a flatbush over every 2-point piece of every segment the mode may travel in
 * at least one direction, in (longitude, Mercator y) so box distances are proportional to metres
 * nearby. Item i is the piece starting at point `piecePoint[i]` of the coordinate array.
 */
import Flatbush from 'flatbush';
import { mercatorY } from '../../../core/routing/geo.js';
import type { RoadNetwork } from '../../../core/routing/network.js';

export interface SpatialIndex {
  piecePoint: Uint32Array;
  /** The flatbush buffer, or null when no segment is passable. */
  index: ArrayBuffer | null;
}

/** `pointFirst[s]` is the index of segment s's first point in the graph's coordinate array. */
export function buildSpatialIndex(network: RoadNetwork, pointFirst: Uint32Array): SpatialIndex {
  const passable = network.segments.map((s) => s.forwardSeconds !== null || s.backwardSeconds !== null);
  let pieces = 0;
  network.segments.forEach((segment, s) => {
    if (passable[s]) pieces += segment.coordinates.length / 2 - 1;
  });
  const piecePoint = new Uint32Array(pieces);
  if (pieces === 0) return { piecePoint, index: null };

  const index = new Flatbush(pieces);
  let piece = 0;
  network.segments.forEach((segment, s) => {
    if (!passable[s]) return;
    const c = segment.coordinates;
    for (let i = 0; i + 3 < c.length; i += 2) {
      const y0 = mercatorY(c[i + 1]!);
      const y1 = mercatorY(c[i + 3]!);
      index.add(Math.min(c[i]!, c[i + 2]!), Math.min(y0, y1), Math.max(c[i]!, c[i + 2]!), Math.max(y0, y1));
      piecePoint[piece++] = pointFirst[s]! + i / 2;
    }
  });
  index.finish();
  return { piecePoint, index: index.data as ArrayBuffer };
}
