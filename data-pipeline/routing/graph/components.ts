/**
 * Strongly connected components of the edge-based graph (iterative Tarjan, linear time), as OSRM
 * labels them to keep snapping off small isolated pieces: a driveway cut off by an access tag, a
 * pedestrian-zone stub, a oneway slip road cut at the edge of the extract. Strong connectivity
 * (not weak) is what matters: a oneway stub that leaves the big network and never comes back is
 * weakly connected to it, yet nothing can be routed from it back, so it must count as small.
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { EdgeBasedGraph } from './edge-based.js';

/**
 * A segment all of whose passable directions lie in strongly connected components of fewer
 * edge-based nodes than this is flagged small; snapping prefers any other segment within the radius.
 * OSRM's default `--small-component-size` is 1000 too.
 */
export const SMALL_COMPONENT_SIZE = 1000;

/** The size (in edge-based nodes) of the strongly connected component of each node; 0 for impassable nodes. */
export function componentSizes(graph: EdgeBasedGraph): Uint32Array {
  const { nodeCount, nodeWeight, turnFirst, turnTarget } = graph;
  const index = new Int32Array(nodeCount).fill(-1);
  const low = new Int32Array(nodeCount);
  const onStack = new Uint8Array(nodeCount);
  const stack = new Int32Array(nodeCount);
  const callNode = new Int32Array(nodeCount);
  const callEdge = new Uint32Array(nodeCount);
  const size = new Uint32Array(nodeCount);
  let stackTop = 0;
  let next = 0;
  for (let root = 0; root < nodeCount; root++) {
    if (index[root] !== -1 || nodeWeight[root] === IMPASSABLE) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = turnFirst[root]!;
    index[root] = low[root] = next++;
    stack[stackTop++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const node = callNode[depth]!;
      const e = callEdge[depth]!;
      if (e < turnFirst[node + 1]!) {
        callEdge[depth] = e + 1;
        const to = turnTarget[e]!;
        if (index[to] === -1) {
          index[to] = low[to] = next++;
          stack[stackTop++] = to;
          onStack[to] = 1;
          callNode[++depth] = to;
          callEdge[depth] = turnFirst[to]!;
        } else if (onStack[to]) {
          low[node] = Math.min(low[node]!, index[to]!);
        }
        continue;
      }
      if (low[node] === index[node]) {
        let members = 0;
        for (let i = stackTop - 1; ; i--) {
          members++;
          if (stack[i] === node) break;
        }
        for (let k = 0; k < members; k++) {
          const member = stack[--stackTop]!;
          onStack[member] = 0;
          size[member] = members;
        }
      }
      depth--;
      if (depth >= 0) low[callNode[depth]!] = Math.min(low[callNode[depth]!]!, low[node]!);
    }
  }
  return size;
}
