/**
 * The pieces of road snapping looks at: which segment a point of the polylines belongs to, the bits
 * of each piece (small component, no start point, excluded) kept per graph and thread, and which
 * directions of travel along a piece head within a bearing filter or arrive on a side of it.
 */
import { FLAG_SMALL_COMPONENT, IMPASSABLE, TRAVEL_KINDS, travelOfNode } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { GUIDANCE_NO_START } from '../../../core/routing/network.js';
import type { BearingFilter } from '../task.js';

/** Segment whose points include the global point index `point`. */
export function segmentOfPoint(graph: RoutingGraph, point: number): number {
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

/** Bits of a piece (a flatbush item) for snapping: its segment's component is small; it is no start point. */
export const SMALL = 1;
export const NO_START = 2;
/** No direction passable: a road a request excludes (exclude.ts makes its directions impassable in its view). */
export const EXCLUDED = 4;

/** Travel kinds a route may start or end in: not on board a ferry or a train (OSRM's `allowed_start_modes`). */
const START_KINDS: ReadonlySet<number> = new Set([TRAVEL_KINDS.indexOf('default'), TRAVEL_KINDS.indexOf('pushing')]);

/**
 * Whether no passable direction of segment `s` is travelled the mode's own way (a ferry, a train),
 * or its way is no start point (GUIDANCE_NO_START, a car's private service road): as OSRM's
 * profiles set `is_startpoint` (WayHandlers.startpoint), such a segment is no place to start or
 * end, and a point beside a ferry pier snaps onto the road to it, unless the request allows any
 * segment (OSRM's `snapping=any`).
 */
export function startsNowhere(graph: RoutingGraph, s: number): boolean {
  if ((graph.segmentGuidance[s]! & GUIDANCE_NO_START) !== 0) return true;
  return ![2 * s, 2 * s + 1].some(
    (node) => graph.nodeWeight[node] !== IMPASSABLE && START_KINDS.has(travelOfNode(graph.segmentFlags, node)),
  );
}

/** Per graph (and thread): the SMALL, NO_START and EXCLUDED bits of each flatbush item (piece), from its segment's flags. */
const pieceBits = new WeakMap<RoutingGraph, Uint8Array>();

export function pieceBitsOf(graph: RoutingGraph): Uint8Array {
  let bits = pieceBits.get(graph);
  if (!bits) {
    const { piecePoint, segmentPointFirst, segmentFlags } = graph;
    bits = new Uint8Array(piecePoint.length);
    // Pieces are indexed in segment order, so one sweep finds each piece's segment.
    for (let i = 0, s = 0; i < piecePoint.length; i++) {
      while (segmentPointFirst[s + 1]! <= piecePoint[i]!) s++;
      const flags = segmentFlags[s]!;
      const passable = graph.nodeWeight[2 * s] !== IMPASSABLE || graph.nodeWeight[2 * s + 1] !== IMPASSABLE;
      bits[i] = (passable ? 0 : EXCLUDED) | (startsNowhere(graph, s) ? NO_START : 0) | ((flags & FLAG_SMALL_COMPONENT) !== 0 ? SMALL : 0);
    }
    pieceBits.set(graph, bits);
  }
  return bits;
}

/** Whether `bearing` is within `range` degrees of `value`, all in degrees (OSRM's bearing::CheckInBounds). */
function withinBearing(bearing: number, { value, range }: BearingFilter): boolean {
  const difference = Math.abs(bearing - value) % 360;
  return Math.min(difference, 360 - difference) <= range;
}

/**
 * Whether `input` lies right of the piece from point `p` to `p + 1` (on the line counts as right,
 * as OSRM's `!isCCW`). The sign of the cross product does not depend on scaling longitude.
 */
export function isRightOf(coordinates: Int32Array, p: number, [lon, lat]: readonly [number, number]): boolean {
  const ux = coordinates[2 * p]! * 1e-7;
  const uy = coordinates[2 * p + 1]! * 1e-7;
  const cross = (coordinates[2 * p + 2]! * 1e-7 - ux) * (lat - uy) - (coordinates[2 * p + 3]! * 1e-7 - uy) * (lon - ux);
  return cross <= 0;
}

export const FORWARD = 1;
export const BACKWARD = 2;
export const BOTH = FORWARD | BACKWARD;

/**
 * The passable directions of travel (FORWARD, BACKWARD bits) along the piece starting at point
 * `p` whose heading there is within the bearing filter. The heading is the piece's, from its
 * first point to its second (backwards: the opposite), as OSRM takes an edge's.
 */
export function headingsOf(graph: RoutingGraph, p: number, bearing: BearingFilter): number {
  const { coordinates, nodeWeight } = graph;
  const segment = segmentOfPoint(graph, p);
  const lat = coordinates[2 * p + 1]! * 1e-7;
  const dx = (coordinates[2 * p + 2]! - coordinates[2 * p]!) * Math.cos((lat * Math.PI) / 180);
  const dy = coordinates[2 * p + 3]! - coordinates[2 * p + 1]!;
  const forward = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
  let headings = 0;
  if (nodeWeight[2 * segment] !== IMPASSABLE && withinBearing(forward, bearing)) headings |= FORWARD;
  if (nodeWeight[2 * segment + 1] !== IMPASSABLE && withinBearing((forward + 180) % 360, bearing)) headings |= BACKWARD;
  return headings;
}
