/**
 * Metres and travel time of every edge of the hierarchy, for searches that add them up as they go
 * (the matrix) instead of unpacking each path. The graph file stores only weights, and a weight
 * is not a time (it holds restricted-access penalties) nor a length, so each thread derives both
 * once per graph: a plain edge is the node it enters (its segment's length; its weight without the
 * restricted-access penalty), a shortcut the sum of its two halves. Same rules as buildLeg.
 */
import { NO_MIDDLE, originalNode, restrictedEntryPenalty } from '../../../core/routing/graph-format.js';
import { shortcutHalves } from './ch-search.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';

export interface EdgeMetrics {
  /** Per up edge (indexed as upTarget) and per down edge (as downSource): metres, and deciseconds of travel. */
  upMetres: Float64Array;
  upTime: Float64Array;
  downMetres: Float64Array;
  downTime: Float64Array;
}

const metricsByGraph = new WeakMap<RoutingGraph, EdgeMetrics>();

export function edgeMetricsOf(graph: RoutingGraph): EdgeMetrics {
  let metrics = metricsByGraph.get(graph);
  if (!metrics) {
    metrics = computeEdgeMetrics(graph);
    metricsByGraph.set(graph, metrics);
  }
  return metrics;
}

/** For each edge of a CSR adjacency (`first` per node), the node that owns it. */
function owners(first: Uint32Array, nodeCount: number): Uint32Array {
  const owner = new Uint32Array(first[nodeCount]!);
  for (let node = 0; node < nodeCount; node++) owner.fill(node, first[node]!, first[node + 1]!);
  return owner;
}

function computeEdgeMetrics(graph: RoutingGraph): EdgeMetrics {
  const { nodeCount, upFirst, upTarget, upWeight, upMiddle, downFirst, downSource, downWeight, downMiddle, segmentDistance, segmentFlags } =
    graph;
  const upFrom = owners(upFirst, nodeCount);
  const downTo = owners(downFirst, nodeCount);
  const metrics: EdgeMetrics = {
    upMetres: new Float64Array(upTarget.length).fill(NaN),
    upTime: new Float64Array(upTarget.length),
    downMetres: new Float64Array(downSource.length).fill(NaN),
    downTime: new Float64Array(downSource.length),
  };
  const { upMetres, upTime, downMetres, downTime } = metrics;

  // Each edge is resolved once; a shortcut first resolves its halves (the recursion is as deep as the shortcut nesting).
  const resolve = (from: number, to: number, weight: number, middle: number, metres: Float64Array, time: Float64Array, e: number): void => {
    if (middle === NO_MIDDLE) {
      const original = originalNode(graph, to);
      metres[e] = segmentDistance[original >> 1]!;
      time[e] = weight - restrictedEntryPenalty(segmentFlags, originalNode(graph, from), original);
      return;
    }
    const [down, up] = shortcutHalves(graph, from, to, middle);
    if (Number.isNaN(downMetres[down])) resolve(from, middle, downWeight[down]!, downMiddle[down]!, downMetres, downTime, down);
    if (Number.isNaN(upMetres[up])) resolve(middle, to, upWeight[up]!, upMiddle[up]!, upMetres, upTime, up);
    metres[e] = downMetres[down]! + upMetres[up]!;
    time[e] = downTime[down]! + upTime[up]!;
  };
  for (let e = 0; e < upTarget.length; e++) {
    if (Number.isNaN(upMetres[e])) resolve(upFrom[e]!, upTarget[e]!, upWeight[e]!, upMiddle[e]!, upMetres, upTime, e);
  }
  for (let e = 0; e < downSource.length; e++) {
    if (Number.isNaN(downMetres[e])) resolve(downSource[e]!, downTo[e]!, downWeight[e]!, downMiddle[e]!, downMetres, downTime, e);
  }
  return metrics;
}
