/**
 * The snapping index: a flatbush over every 2-point piece of every segment the mode may travel in
 * at least one direction other than on board a ferry or a train (as OSRM, a route neither starts
 * nor ends on one), in (longitude, Mercator y) so box distances are proportional to metres
 * nearby. Item i is the piece starting at point `piecePoint[i]` of the network's (and the file's) coordinates.
 */
import Flatbush from 'flatbush';
import { mercatorY } from '../../../core/routing/geo.js';
import { TRAVEL_KINDS, type RoadNetwork } from '../../../core/routing/network.js';

export interface SpatialIndex {
  piecePoint: Uint32Array;
  /** The flatbush buffer, or null when no segment is passable. */
  index: ArrayBuffer | null;
}

/** Travel kinds a route may start or end on: not on board a ferry or a train (OSRM `is_startpoint`, `allowed_start_modes`). */
const STARTS: ReadonlySet<number> = new Set([TRAVEL_KINDS.indexOf('default'), TRAVEL_KINDS.indexOf('pushing')]);

/** Segment `s` is travelled in some direction the traveller may start or end in (not a ferry, not a train). */
const passable = (network: RoadNetwork, s: number) => {
  const { forwardSeconds, backwardSeconds, travel, backwardTravel } = network.segments;
  return (
    (!Number.isNaN(forwardSeconds[s]!) && STARTS.has(travel[s]!)) || (!Number.isNaN(backwardSeconds[s]!) && STARTS.has(backwardTravel[s]!))
  );
};

/** Pieces of the segments a route may start or end on: the index's items. */
export function countPieces(network: RoadNetwork): number {
  const { count, pointFirst } = network.segments;
  let pieces = 0;
  for (let s = 0; s < count; s++) if (passable(network, s)) pieces += pointFirst[s + 1]! - pointFirst[s]! - 1;
  return pieces;
}

export function buildSpatialIndex(network: RoadNetwork): SpatialIndex {
  const { count, pointFirst, coordinates } = network.segments;
  const pieces = countPieces(network);
  const piecePoint = new Uint32Array(pieces);
  if (pieces === 0) return { piecePoint, index: null };

  const index = new Flatbush(pieces);
  let piece = 0;
  for (let s = 0; s < count; s++) {
    if (!passable(network, s)) continue;
    for (let p = pointFirst[s]!; p + 1 < pointFirst[s + 1]!; p++) {
      const x0 = coordinates[2 * p]! / 1e7;
      const x1 = coordinates[2 * p + 2]! / 1e7;
      const y0 = mercatorY(coordinates[2 * p + 1]! / 1e7);
      const y1 = mercatorY(coordinates[2 * p + 3]! / 1e7);
      index.add(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
      piecePoint[piece++] = p;
    }
  }
  index.finish();
  return { piecePoint, index: index.data as ArrayBuffer };
}
