/**
 * Alternative routes by the via-node method on the hierarchy (as OSRM's CH alternatives): both
 * searches run on until 1.4 × the best weight, every node both reached is a candidate via node, and
 * the path source → via → target is offered when it is
 *  - at most 1.4 × as slow as the best route (restricted-access penalties aside: a route to a
 *    private road may not detour by 40 % of the penalty),
 *  - shares less than 75 % of its length with the best route and the alternatives taken before,
 *  - uses no segment twice (no detour to turn round and come back),
 *  - locally optimal: the stretch 25 % of the best route's time either side of the via node is
 *    itself a fastest path (a second hierarchy query), so it is not a detour around one block.
 * Candidates are tried cheapest first; a candidate lying on a path already tried is skipped.
 */
import type { RouteLeg } from '../path.js';
import { pathThrough, searchHierarchy, type NodePath } from './ch-search.js';
import { originalNode, restrictedEntryPenalty } from '../../../core/routing/graph-format.js';
import { endOfNode, endpointOfSnap, positionOf, targetOfSnap, type Endpoint } from './endpoint.js';
import { buildLeg } from './leg.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Snap } from './snap.js';
import { workspaceOf } from './workspace.js';

const MAX_STRETCH = 1.4;
const MAX_SHARED = 0.75;
const LOCAL_OPTIMALITY = 0.25;
/** Candidate paths unpacked at most (the cheapest ones). */
const MAX_TRIED = 16;

interface Candidate {
  via: number;
  path: NodePath;
  /** Deciseconds at the end of, and metres along, each node of the path (partial ends included). */
  cost: Float64Array;
  metres: Float64Array;
}

/** Up to `max` alternatives to the fastest route from `from` to `to` (the fastest not included). */
export function alternatives(graph: RoutingGraph, from: Snap, to: Snap, max: number): RouteLeg[] {
  if (max <= 0) return [];
  const workspace = workspaceOf(graph);
  const source = endpointOfSnap(graph, from);
  const target = targetOfSnap(graph, to);
  const meeting = searchHierarchy(graph, workspace, source, target, MAX_STRETCH);
  if (!meeting) return [];

  // Unpack everything first: the local optimality queries below reuse the search memory.
  const best = candidateOf(graph, meeting.node, pathThrough(graph, workspace, meeting.node, meeting.loopEdge), source, target);
  const penalties = restrictedPenalties(graph, best.path.nodes);
  const travelWeight = meeting.weight - penalties;
  const maxWeight = MAX_STRETCH * travelWeight + penalties;

  const { forward, backward, mark } = workspace;
  const vias: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < forward.touchedCount; i++) {
    const node = forward.touched[i]!;
    if (node === meeting.node || forward.parent[node] === -1 || backward.parent[node] === -1) continue;
    const weight = forward.distance[node]! + backward.distance[node]!;
    if (weight <= maxWeight) vias.push(node), weights.push(weight);
  }
  const order = vias.map((_, i) => i).sort((a, b) => weights[a]! - weights[b]!);

  const tried: Candidate[] = [];
  for (const node of best.path.nodes) mark[node] = 1;
  for (const i of order) {
    if (tried.length === MAX_TRIED) break;
    const via = vias[i]!;
    if (mark[via]) continue;
    const candidate = candidateOf(graph, via, pathThrough(graph, workspace, via), source, target);
    for (const node of candidate.path.nodes) mark[node] = 1;
    tried.push(candidate);
  }
  for (const candidate of [best, ...tried]) for (const node of candidate.path.nodes) mark[node] = 0;

  // Sharing counts by segment direction: a duplicated node shares its original's road.
  const taken = new Set<number>(best.path.nodes.map((node) => originalNode(graph, node)));
  const legs: RouteLeg[] = [];
  for (const candidate of tried) {
    if (legs.length === max) break;
    const { nodes } = candidate.path;
    const total = candidate.cost[nodes.length - 1]!;
    if (total > maxWeight || usesSegmentTwice(graph, nodes)) continue;
    if (sharedShare(graph, candidate, taken) >= MAX_SHARED) continue;
    if (!locallyOptimal(graph, candidate, LOCAL_OPTIMALITY * travelWeight)) continue;
    for (const node of nodes) taken.add(originalNode(graph, node));
    legs.push(buildLeg(graph, candidate.path, from, to));
  }
  return legs;
}

function candidateOf(graph: RoutingGraph, via: number, path: NodePath, source: Endpoint, target: Endpoint): Candidate {
  const { nodes, penalties } = path;
  const cost = new Float64Array(nodes.length);
  const metres = new Float64Array(nodes.length);
  let time = 0;
  let length = 0;
  nodes.forEach((node, i) => {
    const start = i === 0 ? positionOf(source, node) : 0;
    const end = i === nodes.length - 1 ? positionOf(target, node) : 1;
    time += (end - start) * graph.nodeWeight[node]! + penalties[i]!;
    length += (end - start) * graph.segmentDistance[originalNode(graph, node) >> 1]!;
    cost[i] = time;
    metres[i] = length;
  });
  return { via, path, cost, metres };
}

/** Deciseconds of restricted-access penalties in the turns of a path (part of its weight, not of its travel time). */
function restrictedPenalties(graph: RoutingGraph, nodes: number[]): number {
  let penalties = 0;
  for (let i = 1; i < nodes.length; i++) {
    penalties += restrictedEntryPenalty(graph.segmentFlags, originalNode(graph, nodes[i - 1]!), originalNode(graph, nodes[i]!));
  }
  return penalties;
}

function usesSegmentTwice(graph: RoutingGraph, nodes: number[]): boolean {
  return new Set(nodes.map((node) => originalNode(graph, node) >> 1)).size !== nodes.length;
}

/** Share of the candidate's length on nodes already in `taken`. */
function sharedShare(graph: RoutingGraph, { path, metres }: Candidate, taken: Set<number>): number {
  let shared = 0;
  path.nodes.forEach((node, i) => {
    if (taken.has(originalNode(graph, node))) shared += metres[i]! - (i > 0 ? metres[i - 1]! : 0);
  });
  const total = metres[path.nodes.length - 1]!;
  return total > 0 ? shared / total : 1;
}

/** Whether the part of the path `window` deciseconds either side of its via node is a fastest path. */
function locallyOptimal(graph: RoutingGraph, { via, path, cost }: Candidate, window: number): boolean {
  const { nodes } = path;
  const at = nodes.indexOf(via);
  let before = at;
  while (before > 0 && cost[at]! - cost[before]! < window) before--;
  let after = at;
  while (after < nodes.length - 1 && cost[after]! - cost[at]! < window) after++;
  if (before === after) return true;
  const fastest = searchHierarchy(graph, workspaceOf(graph), endOfNode(nodes[before]!), endOfNode(nodes[after]!));
  return fastest !== null && fastest.weight >= cost[after]! - cost[before]! - 1e-6;
}
