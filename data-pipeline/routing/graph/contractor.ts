/**
 * Contracting one node of the contraction hierarchy (contract.ts): its priority (OSRM's: shortcuts
 * added per edge removed, original turns they stand for per turn removed, and depth in the hierarchy
 * so far), the shortcuts it needs and its final edges. Contracting a node adds a shortcut u → w for
 * each pair of its neighbours whose path through it no bounded witness search can beat. A shortcut
 * remembers the contracted node in its middle so queries can unpack it. Self-loop shortcuts (u → u)
 * are kept: a route that starts and ends on the same segment, behind its start, needs one.
 */
import { NodeHeap } from '../../../core/routing/heap.js';
import type { DynamicGraph, PartlyContracted } from './dynamic-graph.js';
import type { TurnGraph } from './edge-based.js';
import type { HierarchyEdges } from './hierarchy-edges.js';

/** Witness searches give up after settling this many nodes: when estimating priorities, and when contracting. */
const ESTIMATE_SETTLE_LIMIT = 20;
const CONTRACT_SETTLE_LIMIT = 100;

/**
 * A witness search's working memory: distances and a heap, reset through the list of nodes it
 * touched. Lighter than the queries' SearchSpace (no parents: a witness's length is all that
 * counts), which keeps the memory each of the millions of searches writes small.
 */
class WitnessSpace {
  readonly distance: Float64Array;
  readonly heap: NodeHeap;
  private readonly touched: Int32Array;
  private touchedCount = 0;

  constructor(nodeCount: number) {
    this.distance = new Float64Array(nodeCount).fill(Infinity);
    this.heap = new NodeHeap(nodeCount);
    this.touched = new Int32Array(nodeCount);
  }

  relax(node: number, distance: number): void {
    const known = this.distance[node]!;
    if (distance >= known) return;
    if (known === Infinity) this.touched[this.touchedCount++] = node;
    this.distance[node] = distance;
    this.heap.set(node, distance);
  }

  reset(): void {
    for (let i = 0; i < this.touchedCount; i++) this.distance[this.touched[i]!] = Infinity;
    this.touchedCount = 0;
    this.heap.clear();
  }
}

export class Contractor {
  private readonly witness: WitnessSpace;
  /** Shortcuts, and the original turns they stand for, found by the last `shortcutsThrough`. */
  private added = 0;
  private addedHops = 0;
  /** Out-neighbours of the node being contracted carry the current mark. */
  private readonly targetMark: Int32Array;
  private mark = 0;
  private targetCount = 0;
  /**
   * 1 for the excludable nodes while they wait: a witness path may end at one but not pass
   * through it, since a query may exclude it (then the shortcut it made needless is needed).
   */
  waiting: Uint8Array | null = null;

  /** `ids`: each node's id in the whole graph, the middle of the shortcuts it makes; `depth`: its depth in the hierarchy so far. */
  constructor(
    private readonly graph: DynamicGraph,
    private readonly ids: Uint32Array,
    readonly depth: Int32Array,
  ) {
    const nodeCount = ids.length;
    this.witness = new WitnessSpace(nodeCount);
    this.targetMark = new Int32Array(nodeCount).fill(-1);
  }

  /** OSRM's: how many edges (and original turns) contracting the node adds per edge it removes, and its depth. */
  priority(node: number): number {
    const { out, in: inn } = this.graph;
    let removed = 0;
    let removedHops = 0;
    for (const lists of [out, inn]) {
      for (let e = lists.start[node]!, end = e + lists.length[node]!; e < end; e++) {
        if (lists.other[e] !== node) removed++, (removedHops += lists.hops[e]!);
      }
    }
    this.shortcutsThrough(node, ESTIMATE_SETTLE_LIMIT, false);
    return 2 * (this.added / Math.max(1, removed)) + 4 * (this.addedHops / Math.max(1, removedHops)) + this.depth[node]!;
  }

  /** Find (and when `add`, add) the shortcuts contracting `node` needs. */
  shortcutsThrough(node: number, settleLimit: number, add: boolean): void {
    const { graph } = this;
    this.added = 0;
    this.addedHops = 0;
    this.mark++;
    this.targetCount = 0;
    for (let o = graph.out.start[node]!, end = o + graph.out.length[node]!; o < end; o++) {
      const to = graph.out.other[o]!;
      if (to !== node && this.targetMark[to] !== this.mark) (this.targetMark[to] = this.mark), this.targetCount++;
    }
    for (let i = 0; i < graph.in.length[node]!; i++) {
      const e = graph.in.start[node]! + i;
      const from = graph.in.other[e]!;
      if (from === node) continue;
      const inWeight = graph.in.weight[e]!;
      const inHops = graph.in.hops[e]!;
      let maxVia = 0;
      for (let o = graph.out.start[node]!, end = o + graph.out.length[node]!; o < end; o++) {
        if (graph.out.other[o] !== node) maxVia = Math.max(maxVia, inWeight + graph.out.weight[o]!);
      }
      const cycle = this.witnessSearch(from, node, maxVia, settleLimit);
      for (let j = 0; j < graph.out.length[node]!; j++) {
        const o = graph.out.start[node]! + j;
        const to = graph.out.other[o]!;
        if (to === node) continue;
        const via = inWeight + graph.out.weight[o]!;
        const witness = to === from ? cycle : this.witness.distance[to]!;
        if (witness <= via) continue;
        const hops = inHops + graph.out.hops[o]!;
        this.added++;
        this.addedHops += hops;
        if (add) graph.addEdge(from, to, via, this.ids[node]!, hops);
      }
      this.witness.reset();
    }
  }

  /**
   * Bounded Dijkstra from `source` avoiding `avoid`; leaves distances in the witness space and
   * returns the length of the cheapest cycle back to `source` it saw.
   */
  private witnessSearch(source: number, avoid: number, maxWeight: number, settleLimit: number): number {
    const { witness, targetMark, mark } = this;
    const out = this.graph.out;
    // Done once every out-neighbour of `avoid` is settled (unless the source is one: its cycle needs the bounds).
    let targetsLeft = targetMark[source] === mark ? Infinity : this.targetCount;
    let cycle = Infinity;
    witness.relax(source, 0);
    for (let settled = 0; witness.heap.size > 0 && settled < settleLimit; settled++) {
      const distance = witness.heap.minKey();
      if (distance > maxWeight) break;
      const node = witness.heap.pop();
      if (targetMark[node] === mark && --targetsLeft === 0) break;
      if (this.waiting !== null && this.waiting[node] === 1 && node !== source) continue;
      for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++) {
        const to = out.other[e]!;
        if (to === avoid) continue;
        const next = distance + out.weight[e]!;
        if (to === source) cycle = Math.min(cycle, next);
        else witness.relax(to, next);
      }
    }
    return cycle;
  }
}

/** Nodes of a component not contracted yet: their edges, ids in the whole graph, depths so far, and which are excludable. */
export interface Remaining {
  graph: TurnGraph | PartlyContracted;
  ids: Uint32Array;
  depth: Int32Array;
  late: Uint8Array | undefined;
}

/** Where contracted nodes' final edges go: the hierarchy's lists, or a helper thread's record of them (hierarchy-edges.ts). */
export type EdgeSinks = Record<'up' | 'down', Pick<HierarchyEdges, 'push'>>;

/**
 * The node's remaining edges all lead to higher nodes, so they are its final edges: into `up` (out)
 * and `down` (in), under the nodes' ids; its neighbours end up at least one level deeper. Then it
 * leaves the graph.
 */
export function contractNode(node: number, dynamic: DynamicGraph, contractor: Contractor, ids: Uint32Array, { up, down }: EdgeSinks): void {
  contractor.shortcutsThrough(node, CONTRACT_SETTLE_LIMIT, true);
  const { out, in: inn } = dynamic;
  const depth = contractor.depth[node]! + 1;
  for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++) {
    const to = out.other[e]!;
    up.push(ids[node]!, ids[to]!, out.weight[e]!, out.middle[e]!);
    if (to !== node) contractor.depth[to] = Math.max(contractor.depth[to]!, depth);
  }
  for (let e = inn.start[node]!, end = e + inn.length[node]!; e < end; e++) {
    const from = inn.other[e]!;
    if (from === node) continue;
    down.push(ids[node]!, ids[from]!, inn.weight[e]!, inn.middle[e]!);
    contractor.depth[from] = Math.max(contractor.depth[from]!, depth);
  }
  dynamic.detach(node);
}
