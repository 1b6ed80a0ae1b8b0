/**
 * The search memory of one graph in one thread, made on first use and kept for the graph's life:
 * queries allocate nothing in proportion to the graph.
 */
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { SearchSpace } from '../../../core/routing/search-space.js';

export interface Workspace {
  forward: SearchSpace;
  backward: SearchSpace;
  /** Per-node marks (path comparisons; the restricted roads a reach entered); every user clears what it set. */
  mark: Uint8Array;
}

const workspaces = new WeakMap<RoutingGraph, Workspace>();

export function workspaceOf(graph: RoutingGraph): Workspace {
  let workspace = workspaces.get(graph);
  if (!workspace) {
    workspace = {
      forward: new SearchSpace(graph.nodeCount),
      backward: new SearchSpace(graph.nodeCount),
      mark: new Uint8Array(graph.nodeCount),
    };
    workspaces.set(graph, workspace);
  }
  return workspace;
}

/** `view` (a graph over the same nodes, exclude.ts) searches in `graph`'s memory: one query runs at a time in a thread. */
export function shareWorkspace(view: RoutingGraph, graph: RoutingGraph): void {
  workspaces.set(view, workspaceOf(graph));
}
