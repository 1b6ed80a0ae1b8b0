/**
 * Contraction hierarchies over the edge-based graph, one weakly connected component after the
 * other (weak-components.ts). A component's nodes are contracted one by one in order of
 * priority (contractor.ts: a node's priority, witness searches and shortcuts; priorities are
 * re-evaluated lazily when a node comes up). A big component (a region's road network) first
 * contracts the cheap interior nodes of its cells, patches of the map, each in a small graph of its
 * own (cell-interiors.ts; on helper threads too, cell-threads.ts), then what remains in one queue.
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
import { NodeHeap } from '../../../core/routing/heap.js';
import type { ProgressReporter } from '../../progress.js';
import { CELL_NODES, type CellRunner, cellsHere, contractCellInteriors } from './cell-interiors.js';
import { Contractor, contractNode, type Remaining } from './contractor.js';
import { DynamicGraph } from './dynamic-graph.js';
import type { TurnGraph } from './edge-based.js';
import { HierarchyEdges } from './hierarchy-edges.js';
import { componentTurns, weakComponents } from './weak-components.js';

/** The cells' part of the options, for callers of contractHierarchy (bench/scale, the build's schedule). */
export { CELL_NODES, type CellRunner, cellsHere };

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

const whole = (turns: TurnGraph, ids: Uint32Array, late: Uint8Array | undefined): Remaining => ({
  graph: turns,
  ids,
  depth: new Int32Array(ids.length),
  late,
});

type HierarchyOutput = Pick<Hierarchy, 'up' | 'down' | 'overlay'>;

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

/** The component's nodes sorted by their spatial key. */
function inSpatialOrder(members: Uint32Array, spatialKey: Uint32Array): Uint32Array {
  return Uint32Array.from(members).sort((a, b) => spatialKey[a]! - spatialKey[b]!);
}
