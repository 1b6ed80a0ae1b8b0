/**
 * Routes that avoid road classes (OSRM's `exclude`: motorways, tolls, ferries): the graph as such a
 * route sees it, a RoutingGraph of its own that every query (route, alternatives, many-to-many,
 * snapping) takes unchanged.
 *
 * The contraction kept the excludable nodes (directions of a road of any class) for last and the
 * overlay, their out-edges when it reached them (data-pipeline/routing/graph/contract.ts). Below
 * them the hierarchy holds for any exclusion: a shortcut between nodes of which one is ordinary
 * only stands for ordinary nodes. So the view keeps the ordinary nodes' hierarchy edges, gives each
 * excludable node its overlay edges out and in (searched as a core, by plain Dijkstra), and drops
 * every excluded node with its edges; excluded directions become impassable, so snapping passes
 * them by. One view per class mask, made on first use in each thread, searching in the plain graph's
 * workspace; the plain graph is untouched.
 */
import { IMPASSABLE, classesOfNode, originalNode } from '../../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { shareWorkspace } from './workspace.js';

const views = new WeakMap<RoutingGraph, Map<number, RoutingGraph>>();

/** The graph for routes avoiding the road classes of `mask` (ROAD_CLASSES bits); `graph` itself for 0. */
export function excluding(graph: RoutingGraph, mask: number): RoutingGraph {
  if (mask === 0) return graph;
  let byMask = views.get(graph);
  if (!byMask) views.set(graph, (byMask = new Map()));
  let view = byMask.get(mask);
  if (!view) {
    byMask.set(mask, (view = exclusionView(graph, mask)));
    shareWorkspace(view, graph);
  }
  return view;
}

/** Edges in CSR form: node n's are first[n] ≤ e < first[n + 1]. */
interface EdgeLists {
  first: Uint32Array;
  other: Uint32Array;
  weight: Uint32Array;
  middle: Int32Array;
}

function exclusionView(graph: RoutingGraph, mask: number): RoutingGraph {
  const { nodeCount, segmentClasses, nodeWeight } = graph;
  // 0: an ordinary node, 1: excludable and kept, 2: excluded.
  const kind = new Uint8Array(nodeCount);
  const weights = nodeWeight.slice();
  for (let node = 0; node < nodeCount; node++) {
    const classes = classesOfNode(segmentClasses, originalNode(graph, node));
    if (classes === 0 || nodeWeight[node] === IMPASSABLE) continue;
    kind[node] = (classes & mask) !== 0 ? 2 : 1;
    if (kind[node] === 2) weights[node] = IMPASSABLE;
  }
  const overlayOut: EdgeLists = {
    first: graph.overlayFirst,
    other: graph.overlayTarget,
    weight: graph.overlayWeight,
    middle: graph.overlayMiddle,
  };
  const up = keptEdges(kind, { first: graph.upFirst, other: graph.upTarget, weight: graph.upWeight, middle: graph.upMiddle }, overlayOut);
  const down = keptEdges(
    kind,
    { first: graph.downFirst, other: graph.downSource, weight: graph.downWeight, middle: graph.downMiddle },
    reversed(overlayOut, kind),
  );
  return {
    ...graph,
    nodeWeight: weights,
    upFirst: up.first,
    upTarget: up.other,
    upWeight: up.weight,
    upMiddle: up.middle,
    downFirst: down.first,
    downSource: down.other,
    downWeight: down.weight,
    downMiddle: down.middle,
  };
}

/** Per node: its `hierarchy` edges when ordinary, its `overlay` ones when excludable, none when excluded; never an edge to an excluded node. */
function keptEdges(kind: Uint8Array, hierarchy: EdgeLists, overlay: EdgeLists): EdgeLists {
  const nodeCount = kind.length;
  const listOf = (node: number) => (kind[node] === 0 ? hierarchy : overlay);
  const first = new Uint32Array(nodeCount + 1);
  for (let node = 0; node < nodeCount; node++) {
    let count = 0;
    if (kind[node] !== 2) {
      const { first: from, other } = listOf(node);
      for (let e = from[node]!, end = from[node + 1]!; e < end; e++) if (kind[other[e]!] !== 2) count++;
    }
    first[node + 1] = first[node]! + count;
  }
  const kept: EdgeLists = {
    first,
    other: new Uint32Array(first[nodeCount]!),
    weight: new Uint32Array(first[nodeCount]!),
    middle: new Int32Array(first[nodeCount]!),
  };
  for (let node = 0, at = 0; node < nodeCount; node++) {
    if (kind[node] === 2) continue;
    const list = listOf(node);
    for (let e = list.first[node]!, end = list.first[node + 1]!; e < end; e++) {
      if (kind[list.other[e]!] === 2) continue;
      kept.other[at] = list.other[e]!;
      kept.weight[at] = list.weight[e]!;
      kept.middle[at++] = list.middle[e]!;
    }
  }
  return kept;
}

/** The overlay's edges into each excludable node (`other` their tails; self-loops left out, as in the down lists), for the backward search. */
function reversed(out: EdgeLists, kind: Uint8Array): EdgeLists {
  const nodeCount = kind.length;
  const first = new Uint32Array(nodeCount + 1);
  for (let node = 0; node < nodeCount; node++) {
    for (let e = out.first[node]!, end = out.first[node + 1]!; e < end; e++) {
      const head = out.other[e]!;
      if (kind[head] !== 0 && head !== node) first[head + 1]!++;
    }
  }
  for (let node = 0; node < nodeCount; node++) first[node + 1]! += first[node]!;
  const at = first.slice(0, nodeCount);
  const into: EdgeLists = {
    first,
    other: new Uint32Array(first[nodeCount]!),
    weight: new Uint32Array(first[nodeCount]!),
    middle: new Int32Array(first[nodeCount]!),
  };
  for (let node = 0; node < nodeCount; node++) {
    for (let e = out.first[node]!, end = out.first[node + 1]!; e < end; e++) {
      const head = out.other[e]!;
      if (kind[head] === 0 || head === node) continue;
      const slot = at[head]!++;
      into.other[slot] = node;
      into.weight[slot] = out.weight[e]!;
      into.middle[slot] = out.middle[e]!;
    }
  }
  return into;
}
