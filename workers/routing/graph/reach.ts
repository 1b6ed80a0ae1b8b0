/**
 * Everything reachable within a time budget from a snapped position: a bounded Dijkstra on the
 * original turns (not the hierarchy, whose shortcuts skip the roads in between). Each node reached
 * gives its segment's polyline in travel order with the seconds at every point; a node the budget
 * runs out on is cut at an interpolated point.
 *
 * The search is ordered by weight, as routes are chosen, and each node keeps the travel time of that
 * route: entering a restricted road (private, destination…) adds the penalty to the weight, not to
 * the time. So a private road is reached as a destination at its travel time, and a road behind one
 * only as a route gets there. One limit: a road the network reaches within the budget only through
 * a private road, but without one only after the budget (where the search stops), is counted reached.
 */
import { RESTRICTED_ENTRY_DECISECONDS, originalNode, restrictedEntryPenalty } from '../../../core/routing/graph-format.js';
import type { ReachedPiece } from '../path.js';
import { endpointOfSnap } from './endpoint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Snap } from './snap.js';
import { workspaceOf } from './workspace.js';

export function reach(graph: RoutingGraph, from: Snap, maxSeconds: number): ReachedPiece[] {
  const { nodeWeight, turnFirst, turnTarget, turnWeight, segmentFlags } = graph;
  // Labels are weights in deciseconds at the end of each node; `entered` counts the restricted roads
  // entered on the way, so the time is the weight less that many penalties.
  const { forward: space, mark: entered } = workspaceOf(graph);
  const budget = maxSeconds * 10;
  space.reset();
  const start = endpointOfSnap(graph, from);
  start.nodes.forEach((node, i) => space.relax(node, (1 - start.positions[i]!) * nodeWeight[node]!, -1, -1));
  const timeAt = (node: number) => space.distance[node]! - entered[node]! * RESTRICTED_ENTRY_DECISECONDS;
  const pieceAt = (node: number): ReachedPiece => {
    const isStart = space.parent[node] === -1;
    const position = isStart ? start.positions[start.nodes.indexOf(node)]! : 0;
    return pieceOf(graph, node, position, timeAt(node) - (1 - position) * nodeWeight[node]!, budget, isStart ? from.location : null);
  };

  const pieces: ReachedPiece[] = [];
  const behindRestricted: number[] = [];
  while (space.heap.size > 0) {
    const node = space.heap.pop();
    if (entered[node] === 0) pieces.push(pieceAt(node));
    else behindRestricted.push(node);
    if (timeAt(node) >= budget) continue;
    for (let e = turnFirst[node]!, last = turnFirst[node + 1]!; e < last; e++) {
      const next = turnTarget[e]!;
      const weight = space.distance[node]! + turnWeight[e]!;
      const count =
        entered[node]! + (restrictedEntryPenalty(segmentFlags, originalNode(graph, node), originalNode(graph, next)) > 0 ? 1 : 0);
      // Only nodes entered before the budget runs out are worth queueing.
      if (weight - count * RESTRICTED_ENTRY_DECISECONDS - nodeWeight[next]! >= budget || weight >= space.distance[next]!) continue;
      space.relax(next, weight, node, e);
      entered[next] = count;
    }
  }
  // A route to a point of a segment takes the direction that enters fewer restricted roads.
  for (const node of behindRestricted) {
    const other = originalNode(graph, node) ^ 1;
    if (space.distance[other] === Infinity || entered[other]! >= entered[node]!) pieces.push(pieceAt(node));
  }
  for (let i = 0; i < space.touchedCount; i++) entered[space.touched[i]!] = 0;
  return pieces;
}

/** Cumulative lengths along one segment's polyline, reused (grown when a segment has more points). */
let along = new Float64Array(64);

/**
 * The part of `node`'s segment from `position` (0..1 in travel order) onwards, entered at
 * `entered` deciseconds and cut at `budget`; `startPoint` replaces the first point of a start node.
 */
function pieceOf(
  graph: RoutingGraph,
  node: number,
  position: number,
  entered: number,
  budget: number,
  startPoint: [number, number] | null,
): ReachedPiece {
  const original = originalNode(graph, node);
  const segment = original >> 1;
  const backwards = (original & 1) === 1;
  const first = graph.segmentPointFirst[segment]!;
  const count = graph.segmentPointFirst[segment + 1]! - first;
  const c = graph.coordinates;
  // Coordinate index of the k-th point in travel order is at + step * k.
  const at = 2 * (backwards ? first + count - 1 : first);
  const step = backwards ? -2 : 2;

  // The node's time is spread over its points by length (a flat approximation is enough for shares).
  if (along.length < count) along = new Float64Array(2 * count);
  const kx = Math.cos(c[at + 1]! * 1e-7 * (Math.PI / 180));
  along[0] = 0;
  for (let k = 1, i = at + step; k < count; k++, i += step) {
    along[k] = along[k - 1]! + Math.hypot((c[i]! - c[i - step]!) * kx, c[i + 1]! - c[i + 1 - step]!);
  }
  const length = along[count - 1]!;
  const full = graph.nodeWeight[node]!;

  const coordinates: [number, number][] = [startPoint ?? [c[at]! * 1e-7, c[at + 1]! * 1e-7]];
  const seconds: number[] = [entered / 10];
  for (let k = 0, i = at; k < count; k++, i += step) {
    const share = length > 0 ? along[k]! / length : 1;
    if (share <= position) continue;
    const time = entered + (share - position) * full;
    const point: [number, number] = [c[i]! * 1e-7, c[i + 1]! * 1e-7];
    if (time > budget) {
      // Cut between the previous point and this one, where the budget runs out.
      const before = coordinates[coordinates.length - 1]!;
      const previous = seconds[seconds.length - 1]! * 10;
      const t = (budget - previous) / (time - previous);
      coordinates.push([before[0] + t * (point[0] - before[0]), before[1] + t * (point[1] - before[1])]);
      seconds.push(budget / 10);
      break;
    }
    coordinates.push(point);
    seconds.push(time / 10);
  }
  if (coordinates.length === 1) coordinates.push(coordinates[0]!), seconds.push(seconds[0]!);
  return { coordinates, seconds };
}
