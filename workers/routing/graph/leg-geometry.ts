/**
 * The first pass of building a leg (as OSRM's engine/guidance/assemble_geometry.hpp): the polyline
 * from the snapped start through the segments' points to the snapped end, with the OSM node id and
 * the road's elevation of each point, and each segment of the path as travelled — its share of
 * metres and seconds, the partial first and last segments included, and its stretch of the polyline.
 * Durations count the turn penalties the traveller waits (a U-turn), not the restricted-access
 * penalty, which only steers the route choice.
 */
import type { NodePath } from './ch-search.js';
import { originalNode, restrictedEntryPenalty } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { metresBetween } from '../../../core/geo/distance.js';
import { SAME_PLACE_METRES, snapOnSegment, type Snap } from './snap.js';

/** A segment of the path as travelled, one that counts towards the leg's runs. */
export interface TravelledSegment {
  /** The original node travelled (a duplicated node, a via-way restriction's, travels its original's segment). */
  node: number;
  /** The original node of the path's node before (the way the segment is entered from); undefined for the first. */
  arrivedFrom: number | undefined;
  segment: number;
  backwards: boolean;
  metres: number;
  /** Its own seconds and those of the travelled segments before it that do not count. */
  seconds: number;
  /** Indexes into the leg's polyline of its first and last point. */
  first: number;
  last: number;
}

export interface LegGeometry {
  /** [lon, lat] pairs, at least 2. */
  coordinates: [number, number][];
  /**
   * The OSM node id of each coordinate (OSRM's annotation `nodes`): a point of the graph gives its
   * own, also to a snapped start or end lying exactly on it; a snapped start or end inside a piece
   * gives the id of the piece's end behind or ahead of it, as OSRM.
   */
  nodes: number[];
  /**
   * The way's elevation at each coordinate where it is a bridge or a tunnel, NaN on the ground; at a
   * junction onto or off a bridge, the bridge's (the ground's there too): the piece beyond it on the
   * bridge then has both ends' and follows the bridge's line (response/route-elevation.ts).
   */
  roadElevations: number[];
  /** In travel order; never empty (the leg's last segment counts when none before it does). */
  travelled: TravelledSegment[];
  /** Seconds of segments after the last that counts and do not count themselves. */
  trailingSeconds: number;
}

/**
 * The polyline of `path` from `start` to `end`, and its travelled segments. A segment does not
 * count (its seconds go to the next that does) when it is a sliver before the first or after the
 * last junction — a waypoint at a junction snapped a few millimetres into a road it does not take,
 * e.g. the road beyond a ferry, which is no end point: the junction itself, whose points are not
 * drawn — or when it has no metres and adds no point (the rest of a segment the start snapped to
 * the end of).
 */
export function legGeometry(graph: RoutingGraph, path: NodePath, start: Snap, end: Snap): LegGeometry {
  // Of the segments at the snapped places, the ones the path starts and ends on.
  const from = snapOnSegment(start, originalNode(graph, path.nodes[0]!) >> 1);
  const to = snapOnSegment(end, originalNode(graph, path.nodes[path.nodes.length - 1]!) >> 1);
  const coordinates: [number, number][] = [];
  const nodes: number[] = [];
  const roadElevations: number[] = [];
  const push = (point: [number, number], nodeId: number, isGraphPoint: boolean, roadElevation: number) => {
    const last = coordinates[coordinates.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1])
      coordinates.push(point), nodes.push(nodeId), roadElevations.push(roadElevation);
    else {
      if (isGraphPoint) nodes[nodes.length - 1] = nodeId;
      if (!Number.isNaN(roadElevation)) roadElevations[roadElevations.length - 1] = roadElevation;
    }
  };
  const travelled: TravelledSegment[] = [];
  /** Seconds of the segments since the last that counts which do not count themselves. */
  let carried = 0;

  const lastIndex = path.nodes.length - 1;
  const originals = path.nodes.map((node) => originalNode(graph, node));
  path.nodes.forEach((node, i) => {
    const original = originals[i]!;
    const segment = original >> 1;
    const backwards = (original & 1) === 1;
    const startPosition = i === 0 ? (backwards ? 1 - from.fraction : from.fraction) : 0;
    const endPosition = i === lastIndex ? (backwards ? 1 - to.fraction : to.fraction) : 1;
    const share = Math.max(0, endPosition - startPosition);
    const metres = share * graph.segmentDistance[segment]!;
    const waited = i === 0 ? 0 : path.penalties[i]! - restrictedEntryPenalty(graph.segmentFlags, originals[i - 1]!, original);
    const seconds = (share * graph.nodeWeight[node]! + waited) / 10;
    if (lastIndex > 0 && metres < SAME_PLACE_METRES && (i === 0 || (i === lastIndex && travelled.length > 0))) {
      carried += seconds;
      return;
    }

    const first = Math.max(0, coordinates.length - 1);
    const pointFirst = graph.segmentPointFirst[segment]!;
    const pointCount = graph.segmentPointFirst[segment + 1]! - pointFirst;
    const { pointNodeId, pointRoadElevation } = graph;
    const road = (point: number) => pointRoadElevation[point]!;
    if (i === 0)
      push(
        from.location,
        pointNodeId[pointFirst + from.piece + (backwards ? 1 : 0)]!,
        false,
        snappedRoadElevation(graph, pointFirst + from.piece, from.location),
      );
    // Points strictly inside the travelled part, in travel order (piece k lies between points k and k+1).
    const enter = i === 0 ? (backwards ? from.piece : from.piece + 1) : backwards ? pointCount - 1 : 0;
    const leave = i === lastIndex ? (backwards ? to.piece + 1 : to.piece) : backwards ? 0 : pointCount - 1;
    if (backwards)
      for (let k = enter; k >= leave; k--) push(pointOf(graph, pointFirst + k), pointNodeId[pointFirst + k]!, true, road(pointFirst + k));
    else
      for (let k = enter; k <= leave; k++) push(pointOf(graph, pointFirst + k), pointNodeId[pointFirst + k]!, true, road(pointFirst + k));
    if (i === lastIndex)
      push(
        to.location,
        pointNodeId[pointFirst + to.piece + (backwards ? 0 : 1)]!,
        false,
        snappedRoadElevation(graph, pointFirst + to.piece, to.location),
      );
    const last = coordinates.length - 1;
    if (metres === 0 && last === first && (i < lastIndex || travelled.length > 0)) {
      carried += seconds;
      return;
    }
    const arrivedFrom = i === 0 ? undefined : originals[i - 1]!;
    travelled.push({ node: original, arrivedFrom, segment, backwards, metres, seconds: seconds + carried, first, last });
    carried = 0;
  });

  if (coordinates.length === 1) coordinates.push(coordinates[0]!), nodes.push(nodes[0]!), roadElevations.push(roadElevations[0]!);
  return { coordinates, nodes, roadElevations, travelled, trailingSeconds: carried };
}

/** The way's elevation at a snapped position on the piece from graph point `point` to the next: between theirs on a bridge or in a tunnel, else NaN. */
function snappedRoadElevation(graph: RoutingGraph, point: number, location: [number, number]): number {
  const [start, end] = [graph.pointRoadElevation[point]!, graph.pointRoadElevation[point + 1]!];
  if (Number.isNaN(start) || Number.isNaN(end)) return NaN;
  const [a, b] = [pointOf(graph, point), pointOf(graph, point + 1)];
  const piece = metresBetween(...a, ...b);
  return piece === 0 ? start : start + ((end - start) * metresBetween(...a, ...location)) / piece;
}

function pointOf(graph: RoutingGraph, point: number): [number, number] {
  return [graph.coordinates[2 * point]! * 1e-7, graph.coordinates[2 * point + 1]! * 1e-7];
}
