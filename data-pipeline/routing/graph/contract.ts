/**
 * Contraction hierarchies over the edge-based graph, one weakly connected component after the
 * other (weak-components.ts). A component's nodes are contracted one by one in order of
 * priority (OSRM's: shortcuts added per edge removed, original turns they stand for per turn
 * removed, and depth in the hierarchy so far; re-evaluated lazily when a node comes up). A big
 * component (a region's road network) first contracts the cheap interior nodes of its cells, patches
 * of the map, each in a small graph of its own (contractCellInteriors; on helper threads too,
 * cell-threads.ts), then what remains in one queue.
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
 * (workers/routing/graph/exclude.ts). See docs/ROUTING-ENGINE.md, "Excluding road classes".
 */
import { NO_MIDDLE } from '../../../core/routing/graph-format.js';
import { NodeHeap } from '../../../core/routing/heap.js';
import type { ProgressReporter } from '../../progress.js';
import { DynamicGraph, type PartlyContracted } from './dynamic-graph.js';
import type { TurnGraph } from './edge-based.js';
import { Growable } from '../growable.js';
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
/**
 * Nodes per cell of a big component's first round (contractCellInteriors), and the priority up to
 * which a cell contracts its interior nodes; the rest wait for the whole component's queue. Chosen on
 * 64 joined copies of Monaco (docs/ROUTING-ENGINE.md, "A connected region"): cells of 4,096–32,768
 * nodes and a stop at 12–45 all did about as well; much lower stops leave the cells' savings unused,
 * no stop at all leaves each cell's boundary a dense clique (a core of 26 k nodes in cycling).
 */
export const CELL_NODES = 16_384;
const CELL_STOP_PRIORITY = 30;

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

export interface ContractionOptions {
  /** See MAX_CONTRACTED_DEGREE. */
  maxContractedDegree?: number;
  /** 1 for each node of a road class a query may exclude (contracted last, see above); none when absent. */
  excludable?: Uint8Array;
  /** A key per node that orders nodes near each other in space next to each other (cells.ts); without it, no cells. */
  spatialKey?: Uint32Array;
  /** Nodes per cell (CELL_NODES by default); components smaller than two cells are contracted in one queue. */
  cellNodes?: number;
  /** How the cells are contracted: one after the other here (`cellsHere`, the default) or also on helper threads (cell-threads.ts). */
  cells?: CellRunner;
}

export function contractHierarchy(graph: TurnGraph, onProgress?: ProgressReporter, options: ContractionOptions = {}): Hierarchy {
  const { nodeCount } = graph;
  const { spatialKey, excludable, maxContractedDegree = MAX_CONTRACTED_DEGREE, cellNodes = CELL_NODES, cells = cellsHere } = options;
  const edges = { up: new HierarchyEdges(nodeCount), down: new HierarchyEdges(nodeCount), overlay: new HierarchyEdges(nodeCount) };
  const components = weakComponents(graph);
  const local = new Uint32Array(nodeCount);
  const progressEvery = Math.max(1, Math.floor(nodeCount / 100));
  let done = 0;
  const contracted = () => {
    if (done++ % progressEvery === 0) onProgress?.({ phase: 'routing graph: contraction', done, total: nodeCount, unit: 'nodes' });
  };
  let core = 0;
  for (let c = 0; c < components.count; c++) {
    let members = components.nodes.subarray(components.first[c]!, components.first[c + 1]!);
    const inCells = spatialKey !== undefined && members.length >= 2 * cellNodes;
    if (inCells) members = inSpatialOrder(members, spatialKey);
    const turns = componentTurns(graph, members, local);
    const late = excludable ? Uint8Array.from(members, (node) => excludable[node]!) : undefined;
    const rest = inCells ? contractCellInteriors(turns, members, late, cellNodes, edges, contracted, cells) : whole(turns, members, late);
    core += contractRest(rest, edges, maxContractedDegree, contracted);
  }
  onProgress?.({ phase: 'routing graph: contraction', done: nodeCount, total: nodeCount, unit: 'nodes' });
  return { ...edges, core };
}

/** Nodes of a component not contracted yet: their edges, ids in the whole graph, depths so far, and which are excludable. */
interface Remaining {
  graph: TurnGraph | PartlyContracted;
  ids: Uint32Array;
  depth: Int32Array;
  late: Uint8Array | undefined;
}

const whole = (turns: TurnGraph, ids: Uint32Array, late: Uint8Array | undefined): Remaining => ({
  graph: turns,
  ids,
  depth: new Int32Array(ids.length),
  late,
});

/**
 * The node's remaining edges all lead to higher nodes, so they are its final edges: into `up` (out)
 * and `down` (in), under the nodes' ids; its neighbours end up at least one level deeper. Then it
 * leaves the graph.
 */
function contractNode(node: number, dynamic: DynamicGraph, contractor: Contractor, ids: Uint32Array, { up, down }: EdgeSinks): void {
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

type HierarchyOutput = Pick<Hierarchy, 'up' | 'down' | 'overlay'>;
/** Where contracted nodes' final edges go: the hierarchy's lists, or a helper thread's record of them (hierarchy-edges.ts). */
export type EdgeSinks = Record<'up' | 'down', Pick<HierarchyEdges, 'push'>>;

/**
 * Contracts the remaining nodes of one component in one queue of priorities, the excludable ones
 * last; returns how many it left in the core.
 */
function contractRest(rest: Remaining, edges: HierarchyOutput, maxContractedDegree: number, contracted: () => void): number {
  const { ids, late } = rest;
  const { nodeCount } = rest.graph;
  const dynamic = new DynamicGraph(rest.graph);
  const contractor = new Contractor(dynamic, ids, rest.depth);
  const queue = new NodeHeap(nodeCount);
  const lateNodes: number[] = [];
  if (late) for (let node = 0; node < nodeCount; node++) if (late[node] === 1) lateNodes.push(node);
  // Excludable nodes wait at an infinite priority until every other node is contracted.
  if (lateNodes.length > 0) contractor.waiting = late!;
  for (let node = 0; node < nodeCount; node++) queue.set(node, contractor.waiting?.[node] === 1 ? Infinity : contractor.priority(node));
  let overlaid = lateNodes.length === 0;
  // Only edges from or to an excludable node: the queries' view searches the rest of a core in the hierarchy's lists.
  const keepOverlay = (nodes: Iterable<number>) => {
    overlaid = true;
    contractor.waiting = null;
    const { out } = dynamic;
    for (const node of nodes) {
      for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++) {
        const to = out.other[e]!;
        if (late?.[node] === 1 || late?.[to] === 1) edges.overlay.push(ids[node]!, ids[to]!, out.weight[e]!, out.middle[e]!);
      }
    }
  };

  while (queue.size > 0) {
    if (!overlaid && queue.minKey() === Infinity) {
      keepOverlay(lateNodes);
      for (const node of lateNodes) queue.set(node, contractor.priority(node));
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
    contractNode(node, dynamic, contractor, ids, edges);
  }
  // The core: every remaining edge goes into the up list of its tail and the down list of its head.
  const core = queue.size;
  const remaining: number[] = [];
  while (queue.size > 0) remaining.push(queue.pop());
  // A core left before the excludable nodes came up: the overlay is all of it.
  if (!overlaid) keepOverlay(remaining);
  const { out, in: inn } = dynamic;
  for (const node of remaining) {
    for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++)
      edges.up.push(ids[node]!, ids[out.other[e]!]!, out.weight[e]!, out.middle[e]!);
    for (let e = inn.start[node]!, end = e + inn.length[node]!; e < end; e++) {
      if (inn.other[e] !== node) edges.down.push(ids[node]!, ids[inn.other[e]!]!, inn.weight[e]!, inn.middle[e]!);
    }
  }
  return core;
}

/**
 * The first round of a big component, cell by cell: the component's nodes in spatial order are cut
 * into cells of `cellNodes` consecutive nodes, and each cell's interior nodes (no turn to or from
 * another cell, not excludable) are contracted in the cell's own small graph, cheapest first, as
 * long as they stay cheap (CELL_STOP_PRIORITY). Contracting an interior node only joins nodes of its
 * cell, so cells do not depend on each other (and may go to other threads, `cells`), and a cell's
 * working memory stays in the CPU's caches (one queue over a whole region takes each next node from
 * anywhere in it). A witness search stays in the cell, so it finds no witness outside it: at worst a
 * shortcut more, never a wrong one. Returns the nodes left (boundaries, expensive interiors) with
 * their edges for `contractRest`.
 */
function contractCellInteriors(
  turns: TurnGraph,
  members: Uint32Array,
  late: Uint8Array | undefined,
  cellNodes: number,
  edges: HierarchyOutput,
  contracted: () => void,
  cells: CellRunner,
): Remaining {
  const { nodeCount, turnFirst, turnTarget, turnWeight } = turns;
  const cellOf = (node: number) => Math.floor(node / cellNodes);
  // 1: stays for the rest (touches another cell, or is excludable); then also those the cells left.
  const stays = late ? Uint8Array.from(late) : new Uint8Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
      const target = turnTarget[e]!;
      if (cellOf(target) !== cellOf(node)) stays[node] = stays[target] = 1;
    }
  }
  const left = new EdgeColumns();
  const depth = new Int32Array(nodeCount);
  function* tasks(): Generator<CellTask> {
    for (let first = 0; first < nodeCount; first += cellNodes) {
      const end = Math.min(first + cellNodes, nodeCount);
      yield {
        first,
        turns: cellTurns(turns, first, end - first),
        ids: members.subarray(first, end),
        late: late?.subarray(first, end),
        stays: stays.subarray(first, end),
      };
    }
  }
  // Each cell's nodes and edges are its own, so the order cells finish in changes nothing: the
  // hierarchy's lists keep each node's block apart, and `left` orders edges by node.
  cells(tasks(), edges, (first, cell) => {
    stays.set(cell.stays, first);
    for (let node = 0; node < cell.stays.length; node++) {
      if (cell.stays[node] === 0) contracted();
      else depth[first + node] = cell.depth[node]!;
    }
    for (let e = 0; e < cell.from.length; e++)
      left.push(first + cell.from[e]!, first + cell.to[e]!, cell.weight[e]!, cell.middle[e]!, cell.hops[e]!);
  });
  // The turns between cells, untouched by the cells' contraction.
  for (let node = 0; node < nodeCount; node++) {
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
      if (cellOf(turnTarget[e]!) !== cellOf(node)) left.push(node, turnTarget[e]!, turnWeight[e]!, NO_MIDDLE, 1);
    }
  }
  return left.remaining(stays, members, depth, late);
}

/** One cell of contractCellInteriors: its turns numbered from 0, its nodes' ids, which are excludable, and which stay (1) for the rest. */
export interface CellTask {
  first: number;
  turns: TurnGraph;
  ids: Uint32Array;
  late: Uint8Array | undefined;
  stays: Uint8Array;
}

/** What a cell leaves: which of its nodes stay (now with the interiors left queued), their depths, and the edges among them (numbered in the cell). */
export interface CellLeft {
  stays: Uint8Array;
  depth: Int32Array;
  from: Uint32Array;
  to: Uint32Array;
  weight: Uint32Array;
  middle: Int32Array;
  hops: Uint32Array;
}

/** Contracts every cell of `tasks`, their final edges into `edges`, and hands each cell's leftovers to `merge` (in any order). */
export type CellRunner = (tasks: Iterable<CellTask>, edges: EdgeSinks, merge: (first: number, cell: CellLeft) => void) => void;

/** The cells one after the other, in this thread. */
export const cellsHere: CellRunner = (tasks, edges, merge) => {
  for (const task of tasks) merge(task.first, contractCell(task, edges));
};

/** One cell's interior nodes, cheapest first while their priority stays at most CELL_STOP_PRIORITY (in this thread or a helper's). */
export function contractCell({ turns, ids, late, stays }: CellTask, edges: EdgeSinks): CellLeft {
  const size = turns.nodeCount;
  const dynamic = new DynamicGraph(turns);
  const contractor = new Contractor(dynamic, ids, new Int32Array(size));
  if (late) contractor.waiting = late;
  const queue = new NodeHeap(size);
  for (let node = 0; node < size; node++) if (stays[node] === 0) queue.set(node, contractor.priority(node));
  while (queue.size > 0 && queue.minKey() <= CELL_STOP_PRIORITY) {
    const node = queue.pop();
    const priority = contractor.priority(node);
    if (priority > Math.min(queue.minKey(), CELL_STOP_PRIORITY)) {
      queue.set(node, priority);
      continue;
    }
    contractNode(node, dynamic, contractor, ids, edges);
  }
  // What the cell left: the interiors still queued, the boundary, and the edges among them.
  while (queue.size > 0) stays[queue.pop()] = 1;
  const { out } = dynamic;
  const left = new EdgeColumns();
  for (let node = 0; node < size; node++) {
    if (stays[node] === 0) continue;
    for (let e = out.start[node]!, end = e + out.length[node]!; e < end; e++)
      left.push(node, out.other[e]!, out.weight[e]!, out.middle[e]!, out.hops[e]!);
  }
  return { stays, depth: contractor.depth, ...left.take() };
}

/** The turns among the nodes first..first + size - 1 of `turns`, numbered from 0. */
function cellTurns({ turnFirst, turnTarget, turnWeight }: TurnGraph, first: number, size: number): TurnGraph {
  const end = first + size;
  const starts = new Uint32Array(size + 1);
  for (let node = first; node < end; node++) {
    let inside = 0;
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) if (turnTarget[e]! >= first && turnTarget[e]! < end) inside++;
    starts[node - first + 1] = starts[node - first]! + inside;
  }
  const target = new Uint32Array(starts[size]!);
  const weight = new Uint32Array(starts[size]!);
  for (let node = first, at = 0; node < end; node++) {
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
      if (turnTarget[e]! < first || turnTarget[e]! >= end) continue;
      target[at] = turnTarget[e]! - first;
      weight[at++] = turnWeight[e]!;
    }
  }
  return { nodeCount: size, turnFirst: starts, turnTarget: target, turnWeight: weight };
}

/** Edges collected one at a time (from, to, weight, middle, hops), then laid out for the nodes that remain. */
class EdgeColumns {
  private readonly from = new Growable((n) => new Uint32Array(n));
  private readonly to = new Growable((n) => new Uint32Array(n));
  private readonly weight = new Growable((n) => new Uint32Array(n));
  private readonly middle = new Growable((n) => new Int32Array(n));
  private readonly hops = new Growable((n) => new Uint32Array(n));

  push(from: number, to: number, weight: number, middle: number, hops: number): void {
    this.from.push(from);
    this.to.push(to);
    this.weight.push(weight);
    this.middle.push(middle);
    this.hops.push(hops);
  }

  /** The nodes flagged in `stays`, renumbered in order, with these edges (all between such nodes) as CSR. */
  /** The edges as columns of their own (so their buffers can be transferred). */
  take(): Pick<CellLeft, 'from' | 'to' | 'weight' | 'middle' | 'hops'> {
    return { from: this.from.take(), to: this.to.take(), weight: this.weight.take(), middle: this.middle.take(), hops: this.hops.take() };
  }

  remaining(stays: Uint8Array, members: Uint32Array, depth: Int32Array, late: Uint8Array | undefined): Remaining {
    const position = new Int32Array(stays.length).fill(-1);
    let nodeCount = 0;
    for (let node = 0; node < stays.length; node++) if (stays[node] === 1) position[node] = nodeCount++;
    const kept = new Uint32Array(nodeCount);
    for (let node = 0; node < stays.length; node++) if (stays[node] === 1) kept[position[node]!] = node;
    const count = this.from.length;
    const turnFirst = new Uint32Array(nodeCount + 1);
    for (let e = 0; e < count; e++) turnFirst[position[this.from.at(e)]! + 1]!++;
    for (let node = 0; node < nodeCount; node++) turnFirst[node + 1]! += turnFirst[node]!;
    const fill = turnFirst.slice(0, nodeCount);
    const turnTarget = new Uint32Array(count);
    const turnWeight = new Uint32Array(count);
    const turnMiddle = new Int32Array(count);
    const turnHops = new Uint32Array(count);
    for (let e = 0; e < count; e++) {
      const at = fill[position[this.from.at(e)]!]!++;
      turnTarget[at] = position[this.to.at(e)]!;
      turnWeight[at] = this.weight.at(e);
      turnMiddle[at] = this.middle.at(e);
      turnHops[at] = this.hops.at(e);
    }
    return {
      graph: { nodeCount, turnFirst, turnTarget, turnWeight, turnMiddle, turnHops },
      ids: kept.map((node) => members[node]!),
      depth: Int32Array.from(kept, (node) => depth[node]!),
      late: late ? Uint8Array.from(kept, (node) => late[node]!) : undefined,
    };
  }
}

/** The component's nodes sorted by their spatial key. */
function inSpatialOrder(members: Uint32Array, spatialKey: Uint32Array): Uint32Array {
  return Uint32Array.from(members).sort((a, b) => spatialKey[a]! - spatialKey[b]!);
}
