/**
 * Turning a node path between two snapped positions into a RouteLeg: the polyline from the snapped
 * start through the segments' points to the snapped end, and runs of consecutive segments of one
 * way (or one name) with their metres and seconds, the partial first and last segments included.
 * Roundabout segments each make a run of their own (each one between two junctions is one exit), and
 * so does the segment after a U-turn.
 * Durations count the turn penalties the traveller waits (a U-turn), not the restricted-access
 * penalty, which only steers the route choice.
 */
import type { LegSpan, PathSegment, RouteLeg } from '../path.js';
import type { NodePath } from './ch-search.js';
import { FLAG_ROUNDABOUT, TRAVEL_KINDS, originalNode, restrictedEntryPenalty, travelOfNode } from '../../../core/routing/graph-format.js';
import { GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP } from '../../../core/routing/network.js';
import { junctionRoadsOf, roadsLeaving } from './junction-roads.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { metresBetween } from '../../../core/geo/distance.js';
import { SAME_PLACE_METRES, snapOnSegment, type Snap } from './snap.js';

export function buildLeg(graph: RoutingGraph, path: NodePath, start: Snap, end: Snap): RouteLeg {
  // Of the segments at the snapped places, the ones the path starts and ends on.
  const from = snapOnSegment(start, originalNode(graph, path.nodes[0]!) >> 1);
  const to = snapOnSegment(end, originalNode(graph, path.nodes[path.nodes.length - 1]!) >> 1);
  const coordinates: [number, number][] = [];
  const runs: PathSegment[] = [];
  const junctionRoads = junctionRoadsOf(graph);
  let runWay = NaN;
  /** Seconds of pieces too short to show (e.g. the rest of a segment the start snapped to the end of). */
  let carried = 0;
  // The OSM node id of each coordinate (OSRM's annotation `nodes`): a point of the graph gives its
  // own, also to a snapped start or end lying exactly on it; a snapped start or end inside a piece
  // gives the id of the piece's end behind or ahead of it, as OSRM.
  const nodes: number[] = [];
  // The way's elevation at each coordinate where it is a bridge or a tunnel, NaN on the ground; at a
  // junction onto or off a bridge, the bridge's (the ground's there too): the piece beyond it on the
  // bridge then has both ends' and follows the bridge's line (response/route-elevation.ts).
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
  // Kept as spans, shared out over the pieces only when annotations are asked for.
  const spans: LegSpan[] = [];
  let spanMetres = 0;
  let spanSeconds = 0;

  const lastIndex = path.nodes.length - 1;
  // A duplicated node (a via-way restriction's) travels its original's segment.
  const originals = path.nodes.map((node) => originalNode(graph, node));
  path.nodes.forEach((node, i) => {
    const original = originals[i]!;
    const segment = original >> 1;
    const backwards = (original & 1) === 1;
    const startPosition = i === 0 ? (backwards ? 1 - from.fraction : from.fraction) : 0;
    const endPosition = i === lastIndex ? (backwards ? 1 - to.fraction : to.fraction) : 1;
    const share = Math.max(0, endPosition - startPosition);
    const distance = share * graph.segmentDistance[segment]!;
    const waited = i === 0 ? 0 : path.penalties[i]! - restrictedEntryPenalty(graph.segmentFlags, originals[i - 1]!, original);
    const duration = (share * graph.nodeWeight[node]! + waited) / 10;
    // A sliver before the first or after the last junction (a waypoint at a junction snapped a few
    // millimetres into a road it does not take, e.g. the road beyond a ferry, which is no end point)
    // is the junction itself: its time goes to the next run and its points are not drawn.
    if (lastIndex > 0 && distance < SAME_PLACE_METRES && (i === 0 || (i === lastIndex && runs.length > 0))) {
      carried += duration;
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
    if (last > first) {
      spans.push({ first, last, metres: distance, seconds: duration + carried });
      spanMetres += distance;
      spanSeconds += duration + carried;
    }

    if (distance === 0 && last === first && (i < lastIndex || runs.length > 0)) {
      carried += duration;
      return;
    }
    const run = runs[runs.length - 1];
    const way = graph.segmentWay[segment]!;
    const flags = graph.segmentFlags[segment]!;
    const name = graph.strings[graph.segmentName[segment]!]!;
    const ref = graph.strings[graph.segmentRef[segment]!]!;
    const pronunciation = graph.strings[graph.segmentPronunciation[segment]!]!;
    const roundabout = (flags & FLAG_ROUNDABOUT) !== 0;
    // In the direction travelled: a cyclist pushes against a oneway and rides along it.
    const travel = TRAVEL_KINDS[travelOfNode(graph.segmentFlags, original)]!;
    const guidance = graph.segmentGuidance[segment]! & (GUIDANCE_RAMP | GUIDANCE_MOTORWAY | GUIDANCE_LOW_PRIORITY);
    // Roundabout segments are never merged: the response counts one exit per roundabout run.
    if (
      run &&
      !roundabout &&
      !run.roundabout &&
      run.name === name &&
      run.ref === ref &&
      run.pronunciation === pronunciation &&
      run.travel === travel &&
      run.guidance === guidance &&
      (way === runWay || name !== '') &&
      // A U-turn (onto the other direction of the segment just travelled) is a maneuver of its own.
      (i === 0 || original !== (originals[i - 1]! ^ 1))
    ) {
      run.distance += distance;
      run.duration += duration + carried;
      run.last = last;
      const junction = backwards ? graph.segmentTo[segment]! : graph.segmentFrom[segment]!;
      if (junctionRoads.first[junction + 1]! - junctionRoads.first[junction]! >= 3) run.junctionsPassed = (run.junctionsPassed ?? 0) + 1;
    } else {
      // Every field from the start, so that all runs share one shape (runs.ts copies them field by field).
      const started: PathSegment = {
        name,
        ref,
        pronunciation,
        roundabout,
        travel,
        guidance,
        distance,
        duration: duration + carried,
        first,
        last,
        junctionRoads: undefined,
        junctionExits: undefined,
        junctionsPassed: undefined,
      };
      // The junction the segment is entered at: its `to` end when travelled backwards.
      if (i > 0) {
        const junction = backwards ? graph.segmentTo[segment]! : graph.segmentFrom[segment]!;
        const previous = originals[i - 1]!;
        // The end of the previous segment at this junction: its `to` end when travelled forwards.
        const arrivedEnd = 2 * (previous >> 1) + ((previous & 1) === 1 ? 0 : 1);
        started.junctionRoads = junctionRoads.first[junction + 1]! - junctionRoads.first[junction]!;
        started.junctionExits = roadsLeaving(graph, junctionRoads, junction, arrivedEnd);
      }
      runs.push(started);
    }
    carried = 0;
    runWay = way;
  });

  if (coordinates.length === 1) coordinates.push(coordinates[0]!), nodes.push(nodes[0]!), roadElevations.push(roadElevations[0]!);
  const lastRun = runs[runs.length - 1]!;
  lastRun.duration += carried;
  lastRun.last = coordinates.length - 1;
  let distance = 0;
  let duration = 0;
  for (const run of runs) (distance += run.distance), (duration += run.duration);
  // What no span took (time carried past the last one, a part without a point of its own) goes to the last piece.
  const lastPoint = coordinates.length - 1;
  spans.push({ first: lastPoint - 1, last: lastPoint, metres: distance - spanMetres, seconds: duration - spanSeconds });
  return { distance, duration, coordinates, nodes, segments: runs, spans, roadElevations };
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
