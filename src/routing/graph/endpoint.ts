/**
 * Where a search starts or ends: the one or two nodes (directions of travel) of a segment, each with
 * the position along it in its own direction of travel (0 at its start, 1 at its end).
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from './load.js';
import type { Snap } from './snap.js';

export interface Endpoint {
  nodes: number[];
  positions: number[];
}

/** The passable directions of the snapped segment (those its bearing filter left), at the snapped position. */
export function endpointOfSnap(graph: RoutingGraph, snap: Snap): Endpoint {
  const endpoint: Endpoint = { nodes: [], positions: [] };
  const forward = 2 * snap.segment;
  const passable = (node: number) => graph.nodeWeight[node] !== IMPASSABLE;
  if (passable(forward) && snap.only !== 'backward') endpoint.nodes.push(forward), endpoint.positions.push(snap.fraction);
  if (passable(forward + 1) && snap.only !== 'forward') endpoint.nodes.push(forward + 1), endpoint.positions.push(1 - snap.fraction);
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
