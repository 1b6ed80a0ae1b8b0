/**
 * Many-to-many shortest paths on the contraction hierarchy by OSRM's bucket method: one backward
 * upward search per target leaves (target, cost) in a bucket at every node it settles; one forward
 * upward search per source scans the buckets of the nodes it settles, and the cheapest sum at any
 * node is the pair's answer. S + T half searches instead of S × T bidirectional ones.
 *
 * Labels are "to the end of a node" as in ch-search.ts (start labels carry the rest of the start
 * segment, or minus the part after the target position). Metres and travel time are added along
 * the edges beside the weight (edge-metrics.ts), so no path is unpacked.
 */
import type { Endpoint } from './endpoint.js';
import { positionOf } from './endpoint.js';
import { selfLoop, stalled } from './ch-search.js';
import { edgeMetricsOf } from './edge-metrics.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { workspaceOf } from './workspace.js';
import type { SearchSpace } from '../../../core/routing/search-space.js';
import { originalNode } from '../../../core/routing/graph-format.js';

/** Row-major sources × targets: deciseconds of travel and metres; Infinity where no path joins the pair. */
export interface CostMatrix {
  time: Float64Array;
  metres: Float64Array;
}

/** Metres and travel time per node beside a SearchSpace's weights, and the bucket index of each node. */
interface MatrixMemory {
  forwardMetres: Float64Array;
  forwardTime: Float64Array;
  backwardMetres: Float64Array;
  backwardTime: Float64Array;
  /** Per node: its bucket number in the current query, -1 when it has none (reset after each query). */
  bucketOf: Int32Array;
}

const memories = new WeakMap<RoutingGraph, MatrixMemory>();

function memoryOf(graph: RoutingGraph): MatrixMemory {
  let memory = memories.get(graph);
  if (!memory) {
    const n = graph.nodeCount;
    memory = {
      forwardMetres: new Float64Array(n),
      forwardTime: new Float64Array(n),
      backwardMetres: new Float64Array(n),
      backwardTime: new Float64Array(n),
      bucketOf: new Int32Array(n).fill(-1),
    };
    memories.set(graph, memory);
  }
  return memory;
}

/** Bucket entries grouped by node (CSR over bucket numbers), built once all backward searches are done. */
interface Buckets {
  first: Int32Array;
  target: Int32Array;
  weight: Float64Array;
  metres: Float64Array;
  time: Float64Array;
  /** Position of the target on the node for a start label of the target, NaN otherwise. */
  startPosition: Float64Array;
}

function relaxWith(
  space: SearchSpace,
  metres: Float64Array,
  time: Float64Array,
  node: number,
  weight: number,
  m: number,
  t: number,
  parent: number,
  edge: number,
): void {
  if (weight >= space.distance[node]!) return;
  space.relax(node, weight, parent, edge);
  metres[node] = m;
  time[node] = t;
}

function startLabels(
  graph: RoutingGraph,
  endpoint: Endpoint,
  sign: 1 | -1,
  space: SearchSpace,
  metres: Float64Array,
  time: Float64Array,
): void {
  endpoint.nodes.forEach((node, i) => {
    const rest = 1 - endpoint.positions[i]!;
    const nodeTime = graph.nodeWeight[node]!;
    relaxWith(
      space,
      metres,
      time,
      node,
      sign * rest * nodeTime,
      sign * rest * graph.segmentDistance[originalNode(graph, node) >> 1]!,
      sign * rest * nodeTime,
      -1,
      -1,
    );
  });
}

/** Runs the backward searches; `nodes` receives each node given a bucket (for the caller to reset, even on a throw). */
function collectBuckets(
  graph: RoutingGraph,
  targets: readonly Endpoint[],
  memory: MatrixMemory,
  nodes: number[],
  maxMetres: number,
): Buckets {
  const { backward } = workspaceOf(graph);
  const { downFirst, downSource, downWeight, upFirst, upTarget, upWeight } = graph;
  const { downMetres, downTime } = edgeMetricsOf(graph);
  const { backwardMetres, backwardTime, bucketOf } = memory;
  const entryNode: number[] = [];
  const entries = { target: [] as number[], weight: [] as number[], metres: [] as number[], time: [] as number[], start: [] as number[] };
  targets.forEach((endpoint, t) => {
    backward.reset();
    startLabels(graph, endpoint, -1, backward, backwardMetres, backwardTime);
    while (backward.heap.size > 0) {
      const node = backward.heap.pop();
      backward.settled[node] = 1;
      const weight = backward.distance[node]!;
      if (backwardMetres[node]! > maxMetres) continue;
      if (bucketOf[node] === -1) (bucketOf[node] = nodes.length), nodes.push(node);
      entryNode.push(node);
      entries.target.push(t);
      entries.weight.push(weight);
      entries.metres.push(backwardMetres[node]!);
      entries.time.push(backwardTime[node]!);
      entries.start.push(backward.parent[node] === -1 ? positionOf(endpoint, node) : NaN);
      // As OSRM: a stalled node keeps its bucket entry (an upper bound), only its edges are skipped.
      if (stalled(backward.distance, weight, upFirst, upTarget, upWeight, node)) continue;
      for (let e = downFirst[node]!, end = downFirst[node + 1]!; e < end; e++) {
        relaxWith(
          backward,
          backwardMetres,
          backwardTime,
          downSource[e]!,
          weight + downWeight[e]!,
          backwardMetres[node]! + downMetres[e]!,
          backwardTime[node]! + downTime[e]!,
          node,
          e,
        );
      }
    }
  });
  // Counting sort of the entries by bucket.
  const count = entryNode.length;
  const first = new Int32Array(nodes.length + 1);
  for (const node of entryNode) first[bucketOf[node]! + 1]!++;
  for (let b = 0; b < nodes.length; b++) first[b + 1]! += first[b]!;
  const fill = first.slice(0, nodes.length);
  const buckets: Buckets = {
    first,
    target: new Int32Array(count),
    weight: new Float64Array(count),
    metres: new Float64Array(count),
    time: new Float64Array(count),
    startPosition: new Float64Array(count),
  };
  for (let i = 0; i < count; i++) {
    const at = fill[bucketOf[entryNode[i]!]!]!++;
    buckets.target[at] = entries.target[i]!;
    buckets.weight[at] = entries.weight[i]!;
    buckets.metres[at] = entries.metres[i]!;
    buckets.time[at] = entries.time[i]!;
    buckets.startPosition[at] = entries.start[i]!;
  }
  return buckets;
}

/**
 * Travel time and metres of the least-weight path from each source to each target. With
 * `maxMetres`, the half searches go no further than where their path is longer (the forward one
 * allowing for the target's own segment, which its labels count whole): a pair whose path is
 * longer may be left Infinity, one within it is always found. Map matching asks no more.
 */
export function manyToMany(
  graph: RoutingGraph,
  sources: readonly Endpoint[],
  targets: readonly Endpoint[],
  maxMetres = Infinity,
): CostMatrix {
  const memory = memoryOf(graph);
  const { forward } = workspaceOf(graph);
  const { upFirst, upTarget, upWeight, downFirst, downSource, downWeight } = graph;
  const { upMetres, upTime } = edgeMetricsOf(graph);
  const { forwardMetres, forwardTime, bucketOf } = memory;
  const width = targets.length;
  const result: CostMatrix = {
    time: new Float64Array(sources.length * width).fill(Infinity),
    metres: new Float64Array(sources.length * width).fill(Infinity),
  };
  const best = new Float64Array(sources.length * width).fill(Infinity);
  // A forward label counts a target's segment whole, the backward label then takes off the part past the target.
  let targetSegments = 0;
  for (const { nodes } of targets)
    for (const node of nodes) targetSegments = Math.max(targetSegments, graph.segmentDistance[originalNode(graph, node) >> 1]!);
  const forwardLimit = maxMetres + targetSegments;

  const nodes: number[] = [];
  try {
    const buckets = collectBuckets(graph, targets, memory, nodes, maxMetres);
    sources.forEach((endpoint, s) => {
      const row = s * width;
      forward.reset();
      startLabels(graph, endpoint, 1, forward, forwardMetres, forwardTime);
      while (forward.heap.size > 0) {
        const node = forward.heap.pop();
        forward.settled[node] = 1;
        const weight = forward.distance[node]!;
        if (forwardMetres[node]! > forwardLimit) continue;
        const bucket = bucketOf[node]!;
        if (bucket >= 0) {
          for (let i = buckets.first[bucket]!, end = buckets.first[bucket + 1]!; i < end; i++) {
            let total = weight + buckets.weight[i]!;
            let metres = forwardMetres[node]! + buckets.metres[i]!;
            let time = forwardTime[node]! + buckets.time[i]!;
            // Both start labels with the target behind the source on this node: leave and come back by its self-loop.
            if (forward.parent[node] === -1 && buckets.startPosition[i]! < positionOf(endpoint, node)) {
              const loop = selfLoop(graph, node);
              if (loop < 0) continue;
              (total += upWeight[loop]!), (metres += upMetres[loop]!), (time += upTime[loop]!);
            }
            const cell = row + buckets.target[i]!;
            if (total < best[cell]!) (best[cell] = total), (result.time[cell] = time), (result.metres[cell] = metres);
          }
        }
        if (stalled(forward.distance, weight, downFirst, downSource, downWeight, node)) continue;
        for (let e = upFirst[node]!, end = upFirst[node + 1]!; e < end; e++) {
          relaxWith(
            forward,
            forwardMetres,
            forwardTime,
            upTarget[e]!,
            weight + upWeight[e]!,
            forwardMetres[node]! + upMetres[e]!,
            forwardTime[node]! + upTime[e]!,
            node,
            e,
          );
        }
      }
    });
  } finally {
    for (const node of nodes) bucketOf[node] = -1;
  }
  return result;
}
