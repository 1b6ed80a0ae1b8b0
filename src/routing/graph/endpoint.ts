/**
 * Where a search starts or ends: the one or two nodes (directions of travel) of a segment (and of
 * the other segments at the same place), each with the position along it in its own direction of
 * travel (0 at its start, 1 at its end).
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from './load.js';
import type { Snap } from './snap.js';

export interface Endpoint {
  nodes: number[];
  positions: number[];
}

/** The passable directions of the snapped segment, and of the other segments at the same place (`alsoOn`), at the snapped positions. */
export function endpointOfSnap(graph: RoutingGraph, snap: Snap): Endpoint {
  const endpoint: Endpoint = { nodes: [], positions: [] };
  for (const on of [snap, ...(snap.alsoOn ?? [])]) {
    const forward = 2 * on.segment;
    if (graph.nodeWeight[forward] !== IMPASSABLE) endpoint.nodes.push(forward), endpoint.positions.push(on.fraction);
    if (graph.nodeWeight[forward + 1] !== IMPASSABLE) endpoint.nodes.push(forward + 1), endpoint.positions.push(1 - on.fraction);
  }
  return endpoint;
}

/** The end of one node. */
export function endOfNode(node: number): Endpoint {
  return { nodes: [node], positions: [1] };
}

/** Position of `node` in the endpoint, or NaN when it is not one of its nodes. */
export function positionOf(endpoint: Endpoint, node: number): number {
  const i = endpoint.nodes.indexOf(node);
  return i < 0 ? NaN : endpoint.positions[i]!;
}
