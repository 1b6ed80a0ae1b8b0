/**
 * The per-thread working memory of one search direction: tentative distances, parents and a heap
 * over all nodes of a graph, allocated once per graph and thread and reset after each query by
 * walking the list of nodes the query touched (so a query costs what it visits, not the graph size).
 */
import { NodeHeap } from './heap.js';

export class SearchSpace {
  readonly distance: Float64Array;
  /** Previous node on the best path found, -1 for a start node. */
  readonly parent: Int32Array;
  /** Index of the edge from `parent` (into whichever edge arrays the search walks). */
  readonly parentEdge: Int32Array;
  readonly settled: Uint8Array;
  readonly heap: NodeHeap;
  readonly touched: Int32Array;
  touchedCount = 0;

  constructor(nodeCount: number) {
    this.distance = new Float64Array(nodeCount).fill(Infinity);
    this.parent = new Int32Array(nodeCount).fill(-1);
    this.parentEdge = new Int32Array(nodeCount).fill(-1);
    this.settled = new Uint8Array(nodeCount);
    this.heap = new NodeHeap(nodeCount);
    this.touched = new Int32Array(nodeCount);
  }

  /** Record `distance` for `node` when it improves on what it has, and queue it. */
  relax(node: number, distance: number, parent: number, edge: number): void {
    const known = this.distance[node]!;
    if (distance >= known) return;
    if (known === Infinity) this.touched[this.touchedCount++] = node;
    this.distance[node] = distance;
    this.parent[node] = parent;
    this.parentEdge[node] = edge;
    this.heap.set(node, distance);
  }

  reset(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const node = this.touched[i]!;
      this.distance[node] = Infinity;
      this.parent[node] = -1;
      this.parentEdge[node] = -1;
      this.settled[node] = 0;
    }
    this.touchedCount = 0;
    this.heap.clear();
  }
}
