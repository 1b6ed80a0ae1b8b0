/**
 * The first round of a big component's contraction (contract.ts): its cells, patches of the map
 * (cells.ts), each contract their cheap interior nodes in a small graph of their own, here or on
 * helper threads (cell-threads.ts); what they leave goes to the component's one queue.
 */
import { NO_MIDDLE } from '../../../core/routing/graph-format.js';
import { NodeHeap } from '../../../core/routing/heap.js';
import { Growable } from '../growable.js';
import { DynamicGraph } from './dynamic-graph.js';
import type { TurnGraph } from './edge-based.js';
import { Contractor, contractNode, type EdgeSinks, type Remaining } from './contractor.js';

/**
 * Nodes per cell of a big component's first round (contractCellInteriors), and the priority up to
 * which a cell contracts its interior nodes; the rest wait for the whole component's queue. Chosen on
 * 64 joined copies of Monaco (docs/ROUTING-ENGINE.md, "A connected region"): cells of 4,096–32,768
 * nodes and a stop at 12–45 all did about as well; much lower stops leave the cells' savings unused,
 * no stop at all leaves each cell's boundary a dense clique (a core of 26 k nodes in cycling).
 */
export const CELL_NODES = 16_384;
const CELL_STOP_PRIORITY = 30;

/**
 * The first round of a big component, cell by cell: the component's nodes in spatial order are cut
 * into cells of `cellNodes` consecutive nodes, and each cell's interior nodes (no turn to or from
 * another cell, not excludable) are contracted in the cell's own small graph, cheapest first, as
 * long as they stay cheap (CELL_STOP_PRIORITY). Contracting an interior node only joins nodes of its
 * cell, so cells do not depend on each other (and may go to other threads, `cells`), and a cell's
 * working memory stays in the CPU's caches (one queue over a whole region takes each next node from
 * anywhere in it). A witness search stays in the cell, so it finds no witness outside it: at worst a
 * shortcut more, never a wrong one. Returns the nodes left (boundaries, expensive interiors) with
 * their edges for the component's one queue (contract.ts).
 */
export function contractCellInteriors(
  turns: TurnGraph,
  members: Uint32Array,
  late: Uint8Array | undefined,
  cellNodes: number,
  edges: EdgeSinks,
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

  /** The edges as columns of their own (so their buffers can be transferred). */
  take(): Pick<CellLeft, 'from' | 'to' | 'weight' | 'middle' | 'hops'> {
    return { from: this.from.take(), to: this.to.take(), weight: this.weight.take(), middle: this.middle.take(), hops: this.hops.take() };
  }

  /** The nodes flagged in `stays`, renumbered in order, with these edges (all between such nodes) as CSR. */
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
