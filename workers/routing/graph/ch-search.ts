/**
 * Bidirectional Dijkstra on the contraction hierarchy, and the unpacking of the path it finds.
 *
 * Distances are "to the end of a node": the forward search starts each source node with the cost of
 * the rest of it, the backward search starts each target node with minus the part after the target
 * position, so forward + backward at a meeting node is the cost between the two positions. When
 * both labels of the meeting node are start labels and the target lies behind the source on it, the
 * route must leave the segment and come back: the node's self-loop shortcut (if any) closes it.
 */
import { NO_MIDDLE } from '../../../core/routing/graph-format.js';
import type { Endpoint } from './endpoint.js';
import { positionOf } from './endpoint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Workspace } from './workspace.js';

export interface Meeting {
  /** Deciseconds between the two positions. */
  weight: number;
  node: number;
  /** Index (into the up edges) of the self-loop used at the meeting node, or -1. */
  loopEdge: number;
}

/** Nodes of a path in order, and the turn penalty (deciseconds of weight, a restricted-access penalty included) paid to enter each. */
export interface NodePath {
  nodes: number[];
  penalties: number[];
}

/**
 * Search from `source` to `target`. With `slack` > 1 each direction goes on until its keys pass
 * slack × the best weight, leaving a wider search space behind for alternatives.
 */
export function searchHierarchy(graph: RoutingGraph, workspace: Workspace, source: Endpoint, target: Endpoint, slack = 1): Meeting | null {
  const { forward, backward } = workspace;
  const { nodeWeight, upFirst, upTarget, upWeight, downFirst, downSource, downWeight } = graph;
  forward.reset();
  backward.reset();
  let targetOffset = 0;
  source.nodes.forEach((node, i) => forward.relax(node, (1 - source.positions[i]!) * nodeWeight[node]!, -1, -1));
  target.nodes.forEach((node, i) => {
    const key = -(1 - target.positions[i]!) * nodeWeight[node]!;
    targetOffset = Math.min(targetOffset, key);
    backward.relax(node, key, -1, -1);
  });

  let best = Infinity;
  let meet = -1;
  let loop = -1;
  const consider = (node: number) => {
    let weight = forward.distance[node]! + backward.distance[node]!;
    let loopEdge = -1;
    if (forward.parent[node] === -1 && backward.parent[node] === -1 && positionOf(target, node) < positionOf(source, node)) {
      loopEdge = selfLoop(graph, node);
      if (loopEdge < 0) return;
      weight += upWeight[loopEdge]!;
    }
    if (weight < best) (best = weight), (meet = node), (loop = loopEdge);
  };

  for (let forwardTurn = true; ; forwardTurn = !forwardTurn) {
    const forwardActive = forward.heap.size > 0 && forward.heap.minKey() + targetOffset < best * slack;
    const backwardActive = backward.heap.size > 0 && backward.heap.minKey() < best * slack;
    if (!forwardActive && !backwardActive) break;
    if (forwardTurn ? forwardActive : !backwardActive) {
      const node = forward.heap.pop();
      forward.settled[node] = 1;
      if (backward.distance[node]! < Infinity) consider(node);
      const distance = forward.distance[node]!;
      if (stalled(forward.distance, distance, downFirst, downSource, downWeight, node)) continue;
      for (let e = upFirst[node]!, end = upFirst[node + 1]!; e < end; e++) forward.relax(upTarget[e]!, distance + upWeight[e]!, node, e);
    } else {
      const node = backward.heap.pop();
      backward.settled[node] = 1;
      if (forward.distance[node]! < Infinity) consider(node);
      const distance = backward.distance[node]!;
      if (stalled(backward.distance, distance, upFirst, upTarget, upWeight, node)) continue;
      for (let e = downFirst[node]!, end = downFirst[node + 1]!; e < end; e++)
        backward.relax(downSource[e]!, distance + downWeight[e]!, node, e);
    }
  }
  return meet < 0 ? null : { weight: best, node: meet, loopEdge: loop };
}

/**
 * Stall-on-demand: a node some higher node already reaches more cheaply (through an edge the other
 * search direction walks) is not on a shortest up-path, so its edges need not be relaxed.
 */
export function stalled(
  distance: Float64Array,
  known: number,
  first: Uint32Array,
  other: Uint32Array,
  weight: Uint32Array,
  node: number,
): boolean {
  for (let e = first[node]!, end = first[node + 1]!; e < end; e++) {
    if (distance[other[e]!]! + weight[e]! < known) return true;
  }
  return false;
}

/** The cheapest self-loop shortcut of `node`, or -1. */
export function selfLoop(graph: RoutingGraph, node: number): number {
  let found = -1;
  for (let e = graph.upFirst[node]!, end = graph.upFirst[node + 1]!; e < end; e++) {
    if (graph.upTarget[e] === node && (found < 0 || graph.upWeight[e]! < graph.upWeight[found]!)) found = e;
  }
  return found;
}

/** The full node path through `via` left by the last search: source → via (→ loop) → target. */
export function pathThrough(graph: RoutingGraph, workspace: Workspace, via: number, loopEdge = -1): NodePath {
  const { forward, backward } = workspace;
  const upChain: number[] = [];
  let start = via;
  for (; forward.parent[start] !== -1; start = forward.parent[start]!) upChain.push(start);
  const path: NodePath = { nodes: [start], penalties: [0] };
  for (let i = upChain.length - 1; i >= 0; i--) {
    const node = upChain[i]!;
    const e = forward.parentEdge[node]!;
    unpackEdge(graph, forward.parent[node]!, node, graph.upWeight[e]!, graph.upMiddle[e]!, path);
  }
  if (loopEdge >= 0) unpackEdge(graph, via, via, graph.upWeight[loopEdge]!, graph.upMiddle[loopEdge]!, path);
  for (let node = via; backward.parent[node] !== -1; node = backward.parent[node]!) {
    const e = backward.parentEdge[node]!;
    unpackEdge(graph, node, backward.parent[node]!, graph.downWeight[e]!, graph.downMiddle[e]!, path);
  }
  return path;
}

/** Append the original nodes after `from` of the edge from → to (a turn, or a shortcut to expand). */
function unpackEdge(graph: RoutingGraph, from: number, to: number, weight: number, middle: number, path: NodePath): void {
  if (middle === NO_MIDDLE) {
    path.nodes.push(to);
    path.penalties.push(weight - graph.nodeWeight[to]!);
    return;
  }
  const [first, second] = shortcutHalves(graph, from, to, middle);
  unpackEdge(graph, from, middle, graph.downWeight[first]!, graph.downMiddle[first]!, path);
  unpackEdge(graph, middle, to, graph.upWeight[second]!, graph.upMiddle[second]!, path);
}

/** The two edges a shortcut from → to via `middle` stands for: [down edge from → middle, up edge middle → to]. */
export function shortcutHalves(graph: RoutingGraph, from: number, to: number, middle: number): [number, number] {
  // Both halves hang off the middle node, which ranks below both ends.
  const { upFirst, upTarget, downFirst, downSource } = graph;
  let first = -1;
  for (let e = downFirst[middle]!, end = downFirst[middle + 1]!; e < end; e++) if (downSource[e] === from) first = e;
  let second = -1;
  for (let e = upFirst[middle]!, end = upFirst[middle + 1]!; e < end; e++) if (upTarget[e] === to) second = e;
  if (first < 0 || second < 0) throw new Error(`Routing graph is corrupt: shortcut ${from} → ${to} via ${middle} cannot be unpacked.`);
  return [first, second];
}
