/**
 * Placing a position on the network: the nearest point of any segment the mode may travel, by
 * projection onto the segments' 2-point pieces (not the nearest node), within a radius in metres.
 */
import type { SnappedPoint } from '../path.js';
import { metresPerIndexUnit, mercatorY, METRES_PER_DEGREE } from '../../../core/routing/geo.js';
import { FLAG_SMALL_COMPONENT } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from './load.js';

export interface Snap extends SnappedPoint {
  segment: number;
  /** Which piece of the segment's polyline (from point `piece` to `piece + 1`) holds the location. */
  piece: number;
  /** How far along the segment, in its own direction, by length: 0 at `from`, 1 at `to`. */
  fraction: number;
  /**
   * The same place on other segments (a junction where several meet, a way crossing another at a
   * shared point): a route may start or end on any of them, as OSRM v6 snaps to every way at the
   * snapped location (osrm-backend#5953) and takes the best.
   */
  alsoOn?: Snap[];
}

/** Snapped positions on several segments this close to the nearest one are the same place (OSRM's coordinates are 1e-6°, 0.11 m). */
export const SAME_PLACE_METRES = 0.1;

/** The snap on `segment`, among `snap` and the same place on other segments; `snap` itself when none is on it. */
export function snapOnSegment(snap: Snap, segment: number): Snap {
  if (snap.segment === segment) return snap;
  return snap.alsoOn?.find((other) => other.segment === segment) ?? snap;
}

/** Flatbush returns pieces by box distance; ask for this many first, then more when needed. */
const FIRST_CANDIDATES = 8;

/** Segment whose points include the global point index `point`. */
function segmentOfPoint(graph: RoutingGraph, point: number): number {
  const first = graph.segmentPointFirst;
  let low = 0;
  let high = graph.segmentCount - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (first[mid]! <= point) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Per graph (and thread): 1 for each flatbush item (piece) whose segment is flagged small. */
const smallPieces = new WeakMap<RoutingGraph, Uint8Array>();

function smallPiecesOf(graph: RoutingGraph): Uint8Array {
  let small = smallPieces.get(graph);
  if (!small) {
    const { piecePoint, segmentPointFirst, segmentFlags } = graph;
    small = new Uint8Array(piecePoint.length);
    // Pieces are indexed in segment order, so one sweep finds each piece's segment.
    for (let i = 0, s = 0; i < piecePoint.length; i++) {
      while (segmentPointFirst[s + 1]! <= piecePoint[i]!) s++;
      small[i] = (segmentFlags[s]! & FLAG_SMALL_COMPONENT) !== 0 ? 1 : 0;
    }
    smallPieces.set(graph, small);
  }
  return small;
}

/**
 * A segment of a small component (an isolated stub) nearer than the nearest big-component one by
 * more than this still wins: a point in a small town that is its own component (a walking network
 * cut off by a road walkers may not take) stays there instead of jumping kilometres away.
 */
export const BIG_COMPONENT_DETOUR_METRES = 1000;

/**
 * Nearest passable segment within `radiusMetres` of (lon, lat), or null. As in OSRM, a segment of
 * a big strongly connected component is preferred: a segment flagged small (an isolated stub from
 * which most of the network cannot be reached) is taken only when no big one is within the radius,
 * or when it is more than BIG_COMPONENT_DETOUR_METRES nearer than the nearest big one.
 */
export function snap(graph: RoutingGraph, lon: number, lat: number, radiusMetres: number): Snap | null {
  if (!graph.spatial) return null;
  const small = smallPiecesOf(graph);
  const isSmall = (item: number) => small[item] === 1;
  const big = nearest(graph, lon, lat, radiusMetres, (item) => small[item] === 0);
  if (!big) return nearest(graph, lon, lat, radiusMetres, isSmall);
  const within = big.distance - BIG_COMPONENT_DETOUR_METRES;
  return (within > 0 ? nearest(graph, lon, lat, within, isSmall) : null) ?? big;
}

function nearest(graph: RoutingGraph, lon: number, lat: number, radiusMetres: number, accept: (item: number) => boolean): Snap | null {
  const { spatial, coordinates, piecePoint } = graph;
  if (!spatial) return null;
  const x = lon;
  const y = mercatorY(lat);
  const unit = metresPerIndexUnit(lat);
  // A flat frame around the input, in metres: enough for the short pieces between points.
  const kx = METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;

  let best = Infinity;
  let bestPiece = -1;
  let bestT = 0;
  let examined = 0;
  /** Every piece examined: its first point, the position on it and the snapped point (metres from the input, east and north). */
  const pieces: { point: number; t: number; distance: number; x: number; y: number }[] = [];
  for (let wanted = FIRST_CANDIDATES; ; wanted *= 4) {
    const found = spatial.neighbors(x, y, wanted, radiusMetres / unit, accept);
    for (; examined < found.length; examined++) {
      const p = piecePoint[found[examined]!]!;
      const ax = (coordinates[2 * p]! * 1e-7 - lon) * kx;
      const ay = (coordinates[2 * p + 1]! * 1e-7 - lat) * ky;
      const bx = (coordinates[2 * p + 2]! * 1e-7 - lon) * kx;
      const by = (coordinates[2 * p + 3]! * 1e-7 - lat) * ky;
      const dx = bx - ax;
      const dy = by - ay;
      const squared = dx * dx + dy * dy;
      const t = squared > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / squared)) : 0;
      const distance = Math.hypot(ax + t * dx, ay + t * dy);
      pieces.push({ point: p, t, distance, x: ax + t * dx, y: ay + t * dy });
      if (distance < best) (best = distance), (bestPiece = p), (bestT = t);
    }
    if (found.length < wanted) break;
    // Pieces not yet returned are at least as far as the last one's box.
    const last = piecePoint[found[found.length - 1]!]!;
    if (best + SAME_PLACE_METRES <= boxDistance(coordinates, last, x, y) * unit) break;
  }
  if (bestPiece < 0 || best > radiusMetres) return null;
  const snapped = snapOnPiece(graph, lon, lat, segmentOfPoint(graph, bestPiece), bestPiece, bestT, best, kx, ky);
  const at = pieces.find((piece) => piece.point === bestPiece)!;
  const others = new Map<number, (typeof pieces)[number]>();
  for (const piece of pieces) {
    if (piece.distance > best + SAME_PLACE_METRES || Math.hypot(piece.x - at.x, piece.y - at.y) > SAME_PLACE_METRES) continue;
    const segment = segmentOfPoint(graph, piece.point);
    const known = others.get(segment);
    if (segment !== snapped.segment && (known === undefined || piece.distance < known.distance)) others.set(segment, piece);
  }
  if (others.size > 0) {
    snapped.alsoOn = [...others].map(([segment, piece]) =>
      snapOnPiece(graph, lon, lat, segment, piece.point, piece.t, piece.distance, kx, ky),
    );
  }
  return snapped;
}

/** Distance in index units from (x, y) to the box of the piece starting at point `p`. */
function boxDistance(coordinates: Int32Array, p: number, x: number, y: number): number {
  const x0 = coordinates[2 * p]! * 1e-7;
  const x1 = coordinates[2 * p + 2]! * 1e-7;
  const y0 = mercatorY(coordinates[2 * p + 1]! * 1e-7);
  const y1 = mercatorY(coordinates[2 * p + 3]! * 1e-7);
  const dx = Math.max(Math.min(x0, x1) - x, x - Math.max(x0, x1), 0);
  const dy = Math.max(Math.min(y0, y1) - y, y - Math.max(y0, y1), 0);
  return Math.hypot(dx, dy);
}

function snapOnPiece(
  graph: RoutingGraph,
  lon: number,
  lat: number,
  segment: number,
  point: number,
  t: number,
  distance: number,
  kx: number,
  ky: number,
): Snap {
  const { coordinates } = graph;
  const first = graph.segmentPointFirst[segment]!;
  const last = graph.segmentPointFirst[segment + 1]! - 1;
  let before = 0;
  let total = 0;
  for (let p = first; p < last; p++) {
    const length = Math.hypot(
      (coordinates[2 * p + 2]! - coordinates[2 * p]!) * 1e-7 * kx,
      (coordinates[2 * p + 3]! - coordinates[2 * p + 1]!) * 1e-7 * ky,
    );
    if (p < point) before += length;
    else if (p === point) before += t * length;
    total += length;
  }
  const x0 = coordinates[2 * point]! * 1e-7;
  const y0 = coordinates[2 * point + 1]! * 1e-7;
  const location: [number, number] = [
    x0 + t * (coordinates[2 * point + 2]! * 1e-7 - x0),
    y0 + t * (coordinates[2 * point + 3]! * 1e-7 - y0),
  ];
  return {
    input: [lon, lat],
    location,
    distance,
    name: graph.strings[graph.segmentName[segment]!]!,
    segment,
    piece: point - first,
    fraction: total > 0 ? before / total : 0,
  };
}
