/**
 * Contraction hierarchies over the edge-based graph, one weakly connected component after the
 * other (weak-components.ts). A component's nodes are contracted one by one in order of
 * priority (OSRM's: shortcuts added per edge removed, original turns they stand for per turn
 * removed, and depth in the hierarchy so far; re-evaluated lazily when a node comes up).
 * Contracting a node adds a shortcut u → w for each pair of its neighbours whose path through it
 * no bounded witness search can beat. A shortcut remembers the contracted
 * node in its middle so queries can unpack it. Self-loop shortcuts (u → u) are kept: a route that
 * starts and ends on the same segment, behind its start, needs one.
 *
 * The result is the usual CH split, both indexed by the lower-ranked end of each edge: `up` holds
 * edges to higher nodes (walked by the forward search), `down` holds edges from higher nodes
 * (walked backwards by the backward search). Nodes left in the core (see MAX_CONTRACTED_DEGREE)
 * have their edges in both.
 *
 * Excludable nodes (those of a road class a query may exclude: motorways, tolls, ferries) are
 * contracted last in their component. When the first of them comes up, the out-edges of all of
 * them (to each other: turns, and shortcuts through ordinary nodes only) are kept aside as the
 * exclusion **overlay** before they are contracted in turn: a query that excludes some classes
 * walks the hierarchy below them and the overlay among them, skipping the excluded nodes
 * (src/routing/graph/exclude.ts). See docs/ROUTING-ENGINE.md, "Excluding road classes".
 */
import { NO_MIDDLE } from '../../../core/routing/graph-format.js';
import { NodeHeap } from '../../../core/routing/heap.js';
import type { ProgressReporter } from '../../progress.js';
import { DynamicGraph } from './dynamic-graph.js';
import type { TurnGraph } from './edge-based.js';
import { HierarchyEdges } from './hierarchy-edges.js';
import { componentTurns, weakComponents } from './weak-components.js';

/** Witness searches give up after settling this many nodes: when estimating priorities, and when contracting. */
const ESTIMATE_SETTLE_LIMIT = 20;
const CONTRACT_SETTLE_LIMIT = 100;
/**
 * By default a component's contraction stops when its cheapest node left has more edges than
 * this: what remains is a dense core (large in grid-like street networks) whose shortcuts would
 * cost more than they save. Core nodes keep all their edges, in both lists, and queries run plain
 * Dijkstra inside it.
 */
export const MAX_CONTRACTED_DEGREE = 64;

export interface Hierarchy {
  up: HierarchyEdges;
  down: HierarchyEdges;
  /** Out-edges of the excludable nodes (and of a core left before them) when the contraction reached them. */
  overlay: HierarchyEdges;
  /** Nodes left uncontracted. */
  core: number;
}

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

class Contractor {
  private readonly witness: WitnessSpace;
  readonly depth: Int32Array;
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

  constructor(
    private readonly graph: DynamicGraph,
    nodeCount: number,
  ) {
    this.witness = new WitnessSpace(nodeCount);
    this.depth = new Int32Array(nodeCount);
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
        if (add) graph.addEdge(from, to, via, node, hops);
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

/** `excludable`: 1 for each node of a road class a query may exclude (contracted last, see above); none when absent. */
export function contractHierarchy(
  graph: TurnGraph,
  onProgress?: ProgressReporter,
  maxContractedDegree = MAX_CONTRACTED_DEGREE,
  excludable?: Uint8Array,
): Hierarchy {
  const { nodeCount } = graph;
  const up = new HierarchyEdges(nodeCount);
  const down = new HierarchyEdges(nodeCount);
  const overlay = new HierarchyEdges(nodeCount);
  const components = weakComponents(graph);
  const local = new Uint32Array(nodeCount);
  const progressEvery = Math.max(1, Math.floor(nodeCount / 100));
  let done = 0;
  const contracted = () => {
    if (done++ % progressEvery === 0) onProgress?.({ phase: 'routing graph: contraction', done, total: nodeCount, unit: 'nodes' });
  };
  let core = 0;
  for (let c = 0; c < components.count; c++) {
    const members = components.nodes.subarray(components.first[c]!, components.first[c + 1]!);
    const edges = { up, down, overlay };
    core += contractComponent(componentTurns(graph, members, local), members, edges, maxContractedDegree, contracted, excludable);
  }
  onProgress?.({ phase: 'routing graph: contraction', done: nodeCount, total: nodeCount, unit: 'nodes' });

  return { up, down, overlay, core };
}

/**
 * Contracts one component (its turns numbered 0.. by position in `members`, the nodes' ids in the
 * graph) into `up` and `down` under those ids; calls `contracted` per node contracted. Returns how
 * many of its nodes it left in the core.
 */
function contractComponent(
  turns: TurnGraph,
  members: Uint32Array,
  { up, down, overlay }: Pick<Hierarchy, 'up' | 'down' | 'overlay'>,
  maxContractedDegree: number,
  contracted: () => void,
  excludable: Uint8Array | undefined,
): number {
  const { nodeCount } = turns;
  const dynamic = new DynamicGraph(turns);
  const contractor = new Contractor(dynamic, nodeCount);
  const queue = new NodeHeap(nodeCount);
  const id = (node: number) => members[node]!;
  const middleId = (middle: number) => (middle === NO_MIDDLE ? NO_MIDDLE : members[middle]!);
  // Excludable nodes wait at an infinite priority until every other node is contracted.
  const late: number[] = [];
  for (let node = 0; node < nodeCount; node++) if (excludable?.[id(node)] === 1) late.push(node);
  if (late.length > 0) {
    contractor.waiting = new Uint8Array(nodeCount);
    for (const node of late) contractor.waiting[node] = 1;
  }
  for (let node = 0; node < nodeCount; node++) queue.set(node, contractor.waiting?.[node] === 1 ? Infinity : contractor.priority(node));
  let overlaid = late.length === 0;
  const isLate = contractor.waiting;
  // Only edges from or to an excludable node: the queries' view searches the rest of a core in the hierarchy's lists.
  const keepOverlay = (nodes: Iterable<number>) => {
    overlaid = true;
    contractor.waiting = null;
    const { out } = dynamic;
    for (const node of nodes) {
      for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++) {
        const to = out.other[e]!;
        if (isLate?.[node] === 1 || isLate?.[to] === 1) overlay.push(id(node), id(to), out.weight[e]!, middleId(out.middle[e]!));
      }
    }
  };

  while (queue.size > 0) {
    if (!overlaid && queue.minKey() === Infinity) {
      keepOverlay(late);
      for (const node of late) queue.set(node, contractor.priority(node));
    }
    const node = queue.pop();
    // Priorities go stale as neighbours are contracted: check the node's before contracting it.
    if (queue.size > 0) {
      const priority = contractor.priority(node);
      if (priority > queue.minKey()) {
        queue.set(node, priority);
        continue;
      }
    }
    if (dynamic.out.length[node]! + dynamic.in.length[node]! > maxContractedDegree) {
      queue.set(node, 0);
      break;
    }
    contracted();
    contractor.shortcutsThrough(node, CONTRACT_SETTLE_LIMIT, true);

    // The node's remaining edges all lead to higher nodes: they are its final edges.
    const { out, in: inn } = dynamic;
    const depth = contractor.depth[node]! + 1;
    for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++) {
      const to = out.other[e]!;
      up.push(id(node), id(to), out.weight[e]!, middleId(out.middle[e]!));
      if (to !== node) contractor.depth[to] = Math.max(contractor.depth[to]!, depth);
    }
    for (let e = inn.start[node]!, end = e + inn.length[node]!; e < end; e++) {
      const from = inn.other[e]!;
      if (from === node) continue;
      down.push(id(node), id(from), inn.weight[e]!, middleId(inn.middle[e]!));
      contractor.depth[from] = Math.max(contractor.depth[from]!, depth);
    }
    dynamic.detach(node);
  }
  // The core: every remaining edge goes into the up list of its tail and the down list of its head.
  const core = queue.size;
  const remaining: number[] = [];
  while (queue.size > 0) remaining.push(queue.pop());
  // A core left before the excludable nodes came up: the overlay is all of it.
  if (!overlaid) keepOverlay(remaining);
  for (const node of remaining) {
    const { out, in: inn } = dynamic;
    for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++)
      up.push(id(node), id(out.other[e]!), out.weight[e]!, middleId(out.middle[e]!));
    for (let e = inn.start[node]!, end = e + inn.length[node]!; e < end; e++) {
      if (inn.other[e] !== node) down.push(id(node), id(inn.other[e]!), inn.weight[e]!, middleId(inn.middle[e]!));
    }
  }
  return core;
}
