/**
 * Everything reachable within a time budget from a snapped position: a bounded Dijkstra on the
 * original turns (not the hierarchy, whose shortcuts skip the roads in between). Each node reached
 * gives its segment's polyline in travel order with the seconds at every point; a node the budget
 * runs out on is cut at an interpolated point.
 */
import type { ReachedPiece } from '../path.js';
import { endpointOfSnap } from './endpoint.js';
import { metresBetween } from './geo.js';
import type { RoutingGraph } from './load.js';
import type { Snap } from './snap.js';
import { workspaceOf } from './workspace.js';

export function reach(graph: RoutingGraph, from: Snap, maxSeconds: number): ReachedPiece[] {
  const { nodeWeight, turnFirst, turnTarget, turnWeight } = graph;
  const space = workspaceOf(graph).forward;
  const budget = maxSeconds * 10;
  space.reset();
  // Labels are deciseconds at the end of each node; the start nodes begin at the snapped position.
  const start = endpointOfSnap(graph, from);
  start.nodes.forEach((node, i) => space.relax(node, (1 - start.positions[i]!) * nodeWeight[node]!, -1, -1));

  const pieces: ReachedPiece[] = [];
  while (space.heap.size > 0) {
    const node = space.heap.pop();
    const end = space.distance[node]!;
    const isStart = space.parent[node] === -1;
    const position = isStart ? start.positions[start.nodes.indexOf(node)]! : 0;
    pieces.push(pieceOf(graph, node, position, end - (1 - position) * nodeWeight[node]!, budget, isStart ? from.location : null));
    if (end >= budget) continue;
    for (let e = turnFirst[node]!, last = turnFirst[node + 1]!; e < last; e++) {
      const next = turnTarget[e]!;
      const arrival = end + turnWeight[e]!;
      // Only nodes entered before the budget runs out are worth queueing.
      if (arrival - nodeWeight[next]! < budget) space.relax(next, arrival, node, e);
    }
  }
  return pieces;
}

/**
 * The part of `node`'s segment from `position` (0..1 in travel order) onwards, entered at
 * `entered` deciseconds and cut at `budget`; `startPoint` replaces the first point of a start node.
 */
function pieceOf(graph: RoutingGraph, node: number, position: number, entered: number, budget: number, startPoint: [number, number] | null): ReachedPiece {
  const segment = node >> 1;
  const backwards = (node & 1) === 1;
  const first = graph.segmentPointFirst[segment]!;
  const count = graph.segmentPointFirst[segment + 1]! - first;
  const c = graph.coordinates;
  const lon = (k: number) => c[2 * (first + (backwards ? count - 1 - k : k))]! * 1e-7;
  const lat = (k: number) => c[2 * (first + (backwards ? count - 1 - k : k)) + 1]! * 1e-7;

  // Cumulative length along the polyline in travel order, to spread the node's time over its points.
  const along = new Float64Array(count);
  for (let k = 1; k < count; k++) along[k] = along[k - 1]! + metresBetween(lon(k - 1), lat(k - 1), lon(k), lat(k));
  const length = along[count - 1]!;
  const full = graph.nodeWeight[node]!;
  const timeAt = (share: number) => (entered + (share - position) * full) / 10;

  const coordinates: [number, number][] = [startPoint ?? [lon(0), lat(0)]];
  const seconds: number[] = [timeAt(position)];
  for (let k = 0; k < count; k++) {
    const share = length > 0 ? along[k]! / length : 1;
    if (share <= position) continue;
    const time = entered + (share - position) * full;
    if (time > budget) {
      // Cut between the previous point and this one, where the budget runs out.
      const before = coordinates[coordinates.length - 1]!;
      const previous = seconds[seconds.length - 1]! * 10;
      const t = time > previous ? (budget - previous) / (time - previous) : 0;
      coordinates.push([before[0] + t * (lon(k) - before[0]), before[1] + t * (lat(k) - before[1])]);
      seconds.push(budget / 10);
      break;
    }
    coordinates.push([lon(k), lat(k)]);
    seconds.push(time / 10);
  }
  if (coordinates.length === 1) coordinates.push(coordinates[0]!), seconds.push(seconds[0]!);
  return { coordinates, seconds };
}
