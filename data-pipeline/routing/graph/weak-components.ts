/**
 * The weakly connected components of the edge-based graph (turns taken as undirected), the units
 * contract.ts contracts one at a time: contracting a node only adds shortcuts between its
 * neighbours, so no component's hierarchy depends on another's. Contracting each on its own keeps
 * the work in a small piece of memory (the cache) and each component's cost independent of the
 * rest of the network, where one contraction of everything interleaves the components' nodes.
 */
import type { TurnGraph } from './edge-based.js';

/** Components with at least one turn, CSR: the nodes of component c, ascending, are `nodes[first[c]..first[c + 1])`. */
export interface WeakComponents {
  count: number;
  first: Uint32Array;
  nodes: Uint32Array;
}

/**
 * Union-find over the turns, each root the smallest node of its set, so the components come in
 * order of their smallest node. Nodes without any turn (impassable ones, among others) are in none.
 */
export function weakComponents(graph: TurnGraph): WeakComponents {
  const { nodeCount, turnFirst, turnTarget } = graph;
  const root = new Int32Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) root[node] = node;
  const find = (node: number): number => {
    while (root[node] !== node) node = root[node] = root[root[node]!]!;
    return node;
  };
  for (let node = 0; node < nodeCount; node++) {
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
      const a = find(node);
      const b = find(turnTarget[e]!);
      if (a < b) root[b] = a;
      else if (b < a) root[a] = b;
    }
  }
  // Every link points to a smaller node, so in ascending order a node's link is already its root.
  const size = new Uint32Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    root[node] = root[root[node]!]!;
    size[root[node]!]!++;
  }

  // The component of a root (-1: a node without turns), then the nodes by component.
  const component = new Int32Array(nodeCount).fill(-1);
  let count = 0;
  let members = 0;
  for (let node = 0; node < nodeCount; node++) {
    if (root[node] === node && size[node]! > 1) (component[node] = count++), (members += size[node]!);
  }
  const first = new Uint32Array(count + 1);
  for (let node = 0; node < nodeCount; node++) if (root[node] === node && size[node]! > 1) first[component[node]! + 1] = size[node]!;
  for (let c = 0; c < count; c++) first[c + 1]! += first[c]!;
  const fill = first.slice(0, count);
  const nodes = new Uint32Array(members);
  for (let node = 0; node < nodeCount; node++) {
    const c = component[root[node]!]!;
    if (c >= 0) nodes[fill[c]!++] = node;
  }
  return { count, first, nodes };
}

/**
 * The turns among `members` (one component's nodes, ascending), numbered by their position there.
 * `local` is scratch of the graph's size: this sets the members' entries only.
 */
export function componentTurns(graph: TurnGraph, members: Uint32Array, local: Uint32Array): TurnGraph {
  const { turnFirst, turnTarget, turnWeight } = graph;
  members.forEach((node, i) => (local[node] = i));
  const nodeCount = members.length;
  const first = new Uint32Array(nodeCount + 1);
  for (let i = 0; i < nodeCount; i++) first[i + 1] = first[i]! + turnFirst[members[i]! + 1]! - turnFirst[members[i]!]!;
  const target = new Uint32Array(first[nodeCount]!);
  const weight = new Uint32Array(first[nodeCount]!);
  for (let i = 0; i < nodeCount; i++) {
    for (let e = turnFirst[members[i]!]!, at = first[i]!; e < turnFirst[members[i]! + 1]!; e++, at++) {
      target[at] = local[turnTarget[e]!]!;
      weight[at] = turnWeight[e]!;
    }
  }
  return { nodeCount, turnFirst: first, turnTarget: target, turnWeight: weight };
}
