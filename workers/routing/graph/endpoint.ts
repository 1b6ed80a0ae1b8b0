/**
 * Where a search starts or ends: the one or two nodes (directions of travel) of a segment (and of
 * the other segments at the same place), each with the position along it in its own direction of
 * travel (0 at its start, 1 at its end).
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Snap } from './snap.js';

export interface Endpoint {
  nodes: number[];
  positions: number[];
}

/**
 * The passable directions of the snapped segment and of the other segments at the same place
 * (`alsoOn`), those a bearing filter left (`only`), at the snapped positions.
 */
export function endpointOfSnap(graph: RoutingGraph, snap: Snap): Endpoint {
  const endpoint: Endpoint = { nodes: [], positions: [] };
  const passable = (node: number) => graph.nodeWeight[node] !== IMPASSABLE;
  for (const on of [snap, ...(snap.alsoOn ?? [])]) {
    const forward = 2 * on.segment;
    if (passable(forward) && on.only !== 'backward') endpoint.nodes.push(forward), endpoint.positions.push(on.fraction);
    if (passable(forward + 1) && on.only !== 'forward') endpoint.nodes.push(forward + 1), endpoint.positions.push(1 - on.fraction);
  }
  return endpoint;
}

/** Each original node's duplicates (the nodes along the via paths of via-way restrictions that copy it), per graph. */
const duplicatesByGraph = new WeakMap<RoutingGraph, Map<number, number[]>>();

function duplicatesOf(graph: RoutingGraph): Map<number, number[]> {
  let duplicates = duplicatesByGraph.get(graph);
  if (!duplicates) {
    duplicates = new Map();
    const first = 2 * graph.segmentCount;
    graph.duplicateOf.forEach((original, k) => {
      const list = duplicates!.get(original);
      if (list) list.push(first + k);
      else duplicates!.set(original, [first + k]);
    });
    duplicatesByGraph.set(graph, duplicates);
  }
  return duplicates;
}

/**
 * Where a route ends: the snapped segment's directions as endpointOfSnap, and their duplicates at
 * the same position, so that a route coming along the via path of a via-way restriction (on a
 * duplicate) may end on it too, as in OSRM. A route starts on the original nodes only: who starts
 * on a via way did not come from the restriction's from way.
 */
export function targetOfSnap(graph: RoutingGraph, snap: Snap): Endpoint {
  const endpoint = endpointOfSnap(graph, snap);
  if (graph.duplicateOf.length === 0) return endpoint;
  const duplicates = duplicatesOf(graph);
  for (let i = 0, count = endpoint.nodes.length; i < count; i++) {
    for (const duplicate of duplicates.get(endpoint.nodes[i]!) ?? [])
      endpoint.nodes.push(duplicate), endpoint.positions.push(endpoint.positions[i]!);
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
