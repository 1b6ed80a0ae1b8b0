/**
 * Placing a position on the network: the nearest point of any segment the mode may travel, by
 * projection onto the segments' 2-point pieces (not the nearest node), within a radius in metres.
 */
import type { SnappedPoint } from '../path.js';
import { metresPerIndexUnit, mercatorY, METRES_PER_DEGREE } from '../../../core/routing/geo.js';
import { FLAG_SMALL_COMPONENT, IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { SnapFilter } from '../task.js';
import { BOTH, EXCLUDED, FORWARD, headingsOf, isRightOf, NO_START, pieceBitsOf, SMALL, segmentOfPoint, startsNowhere } from './pieces.js';

export interface Snap extends SnappedPoint {
  segment: number;
  /** Which piece of the segment's polyline (from point `piece` to `piece + 1`) holds the location. */
  piece: number;
  /** How far along the segment, in its own direction, by length: 0 at `from`, 1 at `to`. */
  fraction: number;
  /** How far along the piece, 0 at point `piece`, 1 at the next (what a hint keeps to place the snap again). */
  along: number;
  /** The one direction of travel a bearing filter left (both when absent). */
  only?: 'forward' | 'backward';
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

/**
 * A segment of a small component (an isolated stub) nearer than the nearest big-component one by
 * more than this still wins: a point in a small town that is its own component (a walking network
 * cut off by a road walkers may not take) stays there instead of jumping kilometres away.
 */
export const BIG_COMPONENT_DETOUR_METRES = 1000;

/**
 * Nearest passable segment within `radiusMetres` of (lon, lat) that is a start point (not a ferry,
 * unless `filter.anySegment`) and, with `filter.bearing`, travelled in a direction within it (the
 * snap then keeps that direction only, when the other is not), or null. As in OSRM, a segment of a
 * big strongly connected component is preferred: a segment flagged small (an isolated stub from
 * which most of the network cannot be reached) is taken only when no big one is within the radius,
 * or when it is more than BIG_COMPONENT_DETOUR_METRES nearer than the nearest big one.
 */
export function snap(graph: RoutingGraph, lon: number, lat: number, radiusMetres: number, filter: SnapFilter = {}): Snap | null {
  if (!graph.spatial) return null;
  const bits = pieceBitsOf(graph);
  const accepted = acceptedPiece(graph, filter);
  const isBig = (item: number) => (bits[item]! & SMALL) === 0 && accepted(item);
  const isSmall = (item: number) => (bits[item]! & SMALL) !== 0 && accepted(item);
  const big = nearest(graph, lon, lat, radiusMetres, isBig);
  const chosen = big
    ? ((big.distance > BIG_COMPONENT_DETOUR_METRES
        ? nearest(graph, lon, lat, big.distance - BIG_COMPONENT_DETOUR_METRES, isSmall)
        : null) ?? big)
    : nearest(graph, lon, lat, radiusMetres, isSmall);
  if (chosen) narrowDirections(graph, chosen, filter);
  return chosen;
}

/** Whether a snap lies on small components only: its segment and every other segment at its place flagged small. */
export function onSmallComponent(graph: RoutingGraph, snapped: Snap): boolean {
  return [snapped, ...(snapped.alsoOn ?? [])].every((on) => (graph.segmentFlags[on.segment]! & FLAG_SMALL_COMPONENT) !== 0);
}

/**
 * OSRM v6's NearestCandidatesWithAlternativeFromBigComponent: the nearest snap within
 * `radiusMetres` that `filter` allows, whatever its component (the roads of any component at that
 * place in its `alsoOn`), and, when it lies on small components only, the nearest snap on a big one
 * within `bigRadiusMetres` as `big` (null when there is none, or the nearest is on a big one); null
 * when no road qualifies. The caller chooses between them as OSRM's SnapPhantomNodes does.
 */
export function snapWithBigAlternative(
  graph: RoutingGraph,
  lon: number,
  lat: number,
  radiusMetres: number,
  bigRadiusMetres: number,
  filter: SnapFilter = {},
): { nearest: Snap; big: Snap | null } | null {
  if (!graph.spatial) return null;
  const bits = pieceBitsOf(graph);
  const accepted = acceptedPiece(graph, filter);
  const found = nearest(graph, lon, lat, radiusMetres, accepted);
  if (!found) return null;
  narrowDirections(graph, found, filter);
  if (!onSmallComponent(graph, found)) return { nearest: found, big: null };
  const big = nearest(graph, lon, lat, bigRadiusMetres, (item) => (bits[item]! & SMALL) === 0 && accepted(item));
  if (big) narrowDirections(graph, big, filter);
  return { nearest: found, big };
}

/** Whether a flatbush item (piece) may be snapped to under `filter`: a start point (or any segment asked), heading within the bearing. */
function acceptedPiece(graph: RoutingGraph, { bearing, anySegment = false }: SnapFilter): (item: number) => boolean {
  const bits = pieceBitsOf(graph);
  return (item) =>
    (bits[item]! & EXCLUDED) === 0 &&
    (anySegment || (bits[item]! & NO_START) === 0) &&
    (!bearing || headingsOf(graph, graph.piecePoint[item]!, bearing) !== 0);
}

/**
 * Whether a snap placed again (from a hint) still meets `filter`: its segment is passable, a start
 * point (or any segment is asked), and a direction of its piece heads within the bearing.
 */
export function meetsFilter(graph: RoutingGraph, placed: Snap, { bearing, anySegment = false }: SnapFilter): boolean {
  const { nodeWeight } = graph;
  if (nodeWeight[2 * placed.segment] === IMPASSABLE && nodeWeight[2 * placed.segment + 1] === IMPASSABLE) return false;
  if (!anySegment && startsNowhere(graph, placed.segment)) return false;
  return !bearing || headingsOf(graph, graph.segmentPointFirst[placed.segment]! + placed.piece, bearing) !== 0;
}

/**
 * Keeps, on the snapped segment and the others at the same place, only the directions of travel the
 * bearing filter leaves (when it leaves one), else the one the approach asks on a two-way segment.
 */
export function narrowDirections(graph: RoutingGraph, snapped: Snap, { bearing, approach }: SnapFilter): void {
  for (const on of [snapped, ...(snapped.alsoOn ?? [])]) {
    const p = graph.segmentPointFirst[on.segment]! + on.piece;
    const headings = bearing ? headingsOf(graph, p, bearing) : BOTH;
    if (headings !== BOTH) on.only = headings === FORWARD ? 'forward' : 'backward';
    else if (approach && graph.nodeWeight[2 * on.segment] !== IMPASSABLE && graph.nodeWeight[2 * on.segment + 1] !== IMPASSABLE) {
      const right = isRightOf(graph.coordinates, p, on.input);
      on.only = right === (approach === 'curb') ? 'forward' : 'backward';
    }
  }
}

function nearest(graph: RoutingGraph, lon: number, lat: number, radiusMetres: number, accept: (item: number) => boolean): Snap | null {
  const { spatial, coordinates, piecePoint } = graph;
  if (!spatial) return null;
  const x = lon;
  const y = mercatorY(lat);
  const unit = metresPerIndexUnit(lat);
  // A flat frame around the input, in metres: enough for the short pieces between points.
  const [kx, ky] = metresPerDegree(lat);

  let best = Infinity;
  let bestPiece = -1;
  let bestT = 0;
  let examined = 0;
  /** Every piece examined: its first point, the position on it and the snapped point (metres from the input, east and north). */
  const pieces: { point: number; t: number; distance: number; x: number; y: number }[] = [];
  for (let wanted = FIRST_CANDIDATES; ; wanted *= 4) {
    const found = spatial.neighbors(x, y, wanted, radiusMetres / unit, accept);
    for (; examined < found.length; examined++) {
      const piece = projectOnPiece(coordinates, piecePoint[found[examined]!]!, lon, lat, kx, ky);
      pieces.push(piece);
      if (piece.distance < best) (best = piece.distance), (bestPiece = piece.point), (bestT = piece.t);
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

/** The point of the piece starting at point `p` nearest (lon, lat): its position `t` on the piece, and metres from the input (and east, north). */
function projectOnPiece(coordinates: Int32Array, p: number, lon: number, lat: number, kx: number, ky: number) {
  const ax = (coordinates[2 * p]! * 1e-7 - lon) * kx;
  const ay = (coordinates[2 * p + 1]! * 1e-7 - lat) * ky;
  const bx = (coordinates[2 * p + 2]! * 1e-7 - lon) * kx;
  const by = (coordinates[2 * p + 3]! * 1e-7 - lat) * ky;
  const dx = bx - ax;
  const dy = by - ay;
  const squared = dx * dx + dy * dy;
  const t = squared > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / squared)) : 0;
  return { point: p, t, distance: Math.hypot(ax + t * dx, ay + t * dy), x: ax + t * dx, y: ay + t * dy };
}

/**
 * Every passable segment that is a start point (not a ferry) within `radiusMetres` of (lon, lat),
 * each once at its nearest point, nearest first, at most `limit` of them: the candidates of a map
 * matching (OSRM's NearestPhantomNodesInRange). Segments of small components are candidates too.
 */
export function snapsWithin(
  graph: RoutingGraph,
  lon: number,
  lat: number,
  radiusMetres: number,
  limit: number,
  filter: SnapFilter = {},
): Snap[] {
  const { spatial, coordinates, piecePoint } = graph;
  if (!spatial) return [];
  const kx = METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;
  const found = spatial.neighbors(lon, mercatorY(lat), Infinity, radiusMetres / metresPerIndexUnit(lat), acceptedPiece(graph, filter));
  const nearestOfSegment = new Map<number, ReturnType<typeof projectOnPiece>>();
  for (const item of found) {
    const piece = projectOnPiece(coordinates, piecePoint[item]!, lon, lat, kx, ky);
    if (piece.distance > radiusMetres) continue;
    const segment = segmentOfPoint(graph, piece.point);
    const known = nearestOfSegment.get(segment);
    if (known === undefined || piece.distance < known.distance) nearestOfSegment.set(segment, piece);
  }
  return [...nearestOfSegment]
    .sort(([, a], [, b]) => a.distance - b.distance)
    .slice(0, limit)
    .map(([segment, piece]) => {
      const snapped = snapOnPiece(graph, lon, lat, segment, piece.point, piece.t, piece.distance, kx, ky);
      narrowDirections(graph, snapped, filter);
      return snapped;
    });
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
    along: t,
  };
}

/** The flat frame around (lon, lat) that snapping measures in: metres per degree east and north. */
function metresPerDegree(lat: number): [number, number] {
  return [METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180), METRES_PER_DEGREE];
}

/**
 * The snap of (lon, lat) at `along` (0–1) on piece `piece` of `segment`, measured as `snap` measures
 * it, so that a place kept in a hint gives back the same snap; null when the segment or piece is
 * not one of this graph's.
 */
export function placeOnPiece(graph: RoutingGraph, lon: number, lat: number, segment: number, piece: number, along: number): Snap | null {
  if (!(segment < graph.segmentCount) || !(along >= 0 && along <= 1)) return null;
  const point = graph.segmentPointFirst[segment]! + piece;
  if (!(point + 1 < graph.segmentPointFirst[segment + 1]!)) return null;
  const { coordinates } = graph;
  const [kx, ky] = metresPerDegree(lat);
  const ax = (coordinates[2 * point]! * 1e-7 - lon) * kx;
  const ay = (coordinates[2 * point + 1]! * 1e-7 - lat) * ky;
  const bx = (coordinates[2 * point + 2]! * 1e-7 - lon) * kx;
  const by = (coordinates[2 * point + 3]! * 1e-7 - lat) * ky;
  const distance = Math.hypot(ax + along * (bx - ax), ay + along * (by - ay));
  return snapOnPiece(graph, lon, lat, segment, point, along, distance, kx, ky);
}

/**
 * The `count` nearest pieces (the 2-point pieces of the segments' polylines) within `radiusMetres`
 * that `filter` allows, whatever their component, nearest first, each narrowed to the directions the
 * filter leaves: OSRM v6's NearestPhantomNodes, which answers the k nearest entries of its R-tree,
 * one per piece with both directions of travel in it. So several pieces of one road may be listed,
 * two at the same place where the nearest point is the point they share.
 */
export function nearestPieces(
  graph: RoutingGraph,
  lon: number,
  lat: number,
  radiusMetres: number,
  filter: SnapFilter,
  count: number,
): Snap[] {
  const { spatial, piecePoint, coordinates } = graph;
  if (!spatial) return [];
  const accepted = acceptedPiece(graph, filter);
  const x = lon;
  const y = mercatorY(lat);
  const unit = metresPerIndexUnit(lat);
  const [kx, ky] = metresPerDegree(lat);
  let ranked: ReturnType<typeof projectOnPiece>[] = [];
  for (let wanted = Math.max(FIRST_CANDIDATES, 4 * count); ; wanted *= 4) {
    const found = spatial.neighbors(x, y, wanted, radiusMetres / unit, accepted);
    // Sorted stably: pieces at the same distance keep flatbush's order.
    ranked = found
      .map((item) => projectOnPiece(coordinates, piecePoint[item]!, lon, lat, kx, ky))
      .filter((piece) => piece.distance <= radiusMetres)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, count);
    if (found.length < wanted) break;
    // Enough pieces, none of which a piece not yet returned (at least as far as the last one's box) could beat.
    const last = piecePoint[found[found.length - 1]!]!;
    if (ranked.length === count && ranked[count - 1]!.distance <= boxDistance(coordinates, last, x, y) * unit) break;
  }
  return ranked.map((piece) => {
    const snapped = snapOnPiece(graph, lon, lat, segmentOfPoint(graph, piece.point), piece.point, piece.t, piece.distance, kx, ky);
    narrowDirections(graph, snapped, filter);
    return snapped;
  });
}
