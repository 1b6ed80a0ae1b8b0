/**
 * The edge-based graph of a road network, as OSRM builds it: a node is one direction of travel along
 * one segment (node 2s forwards along segment s, 2s+1 backwards), an edge is a turn at a junction
 * from the end of one such node onto the start of the next, weighing the next node's travel time
 * plus a turn penalty. Turns back onto the same segment (U-turns) exist only where OSRM's
 * isTurnAllowed allows them (see uTurnJunctions), at OSRM's U-turn penalty; turn restrictions
 * remove turns; a turn into a restricted direction from one that is not (onto a
 * private road) costs RESTRICTED_ENTRY_DECISECONDS more. Weights are integer deciseconds.
 *
 * Via-way restrictions (a from way, one or more via ways, a to way) forbid a turn only to who came
 * along the whole via path, so that state gets nodes of its own, as OSRM v6 does (its restriction
 * graph, restriction_graph.cpp, and "duplicated nodes"): the via path's nodes after the from node
 * are duplicated (node 2 × segments + k is duplicate k, `duplicateOf[k]` its original node, of the
 * same weight and segment), the turn from the from node enters the duplicate, a duplicate has its
 * original's turns less the ones the restrictions ending there forbid, and its turns along the path
 * (or onto the path of another restriction that overlaps, a "transfer") enter the next duplicate.
 */
import { IMPASSABLE, RESTRICTED_ENTRY_DECISECONDS } from '../../../core/routing/graph-format.js';
import { isRestrictedDirection, type RoadNetwork, type TravelMode, type TurnRestrictions } from '../../../core/routing/network.js';
import { Growable } from '../growable.js';

/** What turning round costs, as OSRM's profiles' u_turn_penalty: 20 s by car and bicycle, 2 s on foot. */
const U_TURN_DECISECONDS: Record<TravelMode, number> = { driving: 200, cycling: 200, walking: 20 };

export interface EdgeBasedGraph {
  /** 2 × segments + duplicates. */
  nodeCount: number;
  /** The original node (below 2 × segments) of each duplicated node 2 × segments + k. */
  duplicateOf: Uint32Array;
  /** Deciseconds to travel each node's whole segment, IMPASSABLE when the mode may not. */
  nodeWeight: Uint32Array;
  /** Turns out of each node, CSR: targets and weights (target's weight + turn penalty). */
  turnFirst: Uint32Array;
  turnTarget: Uint32Array;
  turnWeight: Uint32Array;
}

/** The turns of an edge-based graph (or of a piece of it): what contraction needs. */
export type TurnGraph = Pick<EdgeBasedGraph, 'nodeCount' | 'turnFirst' | 'turnTarget' | 'turnWeight'>;

/** NaN (the mode may not travel that way) is IMPASSABLE. */
function deciseconds(seconds: number): number {
  return Number.isNaN(seconds) ? IMPASSABLE : Math.round(seconds * 10);
}

/** Passable nodes starting at each junction, CSR. Node 2s starts at segment s's `from`, 2s + 1 at its `to`. */
function nodesLeaving(network: RoadNetwork, nodeWeight: Uint32Array): { first: Uint32Array; nodes: Uint32Array } {
  const { junctionCount, segments } = network;
  const startOf = (node: number) => (node & 1 ? segments.to : segments.from)[node >> 1]!;
  const first = new Uint32Array(junctionCount + 1);
  const passable = (node: number) => nodeWeight[node] !== IMPASSABLE;
  for (let node = 0; node < nodeWeight.length; node++) {
    if (passable(node)) first[startOf(node) + 1]!++;
  }
  for (let j = 0; j < junctionCount; j++) first[j + 1]! += first[j]!;
  const fill = first.slice(0, junctionCount);
  const nodes = new Uint32Array(first[junctionCount]!);
  for (let node = 0; node < nodeWeight.length; node++) {
    if (passable(node)) nodes[fill[startOf(node)]!++] = node;
  }
  return { first, nodes };
}

/**
 * Per junction, what OSRM's isTurnAllowed (intersection_analysis.cpp) asks before it allows a U-turn
 * there: whether it is a designated turning place (a turning circle or loop, a mini roundabout), how
 * many segments the mode may use touch it (one: a dead end), and how many of them may be travelled
 * into it. With its count of allowed exits (turnsOf), a U-turn is allowed at a turning place, at a
 * dead end, where the way back is the only allowed exit, or where at most one road leads in (a
 * two-way road going on as a oneway away from the junction).
 */
function uTurnJunctions(network: RoadNetwork, nodeWeight: Uint32Array): { roads: Uint32Array; entries: Uint32Array; turning: Uint8Array } {
  const { junctionCount, segments } = network;
  const roads = new Uint32Array(junctionCount);
  const entries = new Uint32Array(junctionCount);
  const turning = new Uint8Array(junctionCount);
  for (const junction of network.turningPlaces) turning[junction] = 1;
  for (let s = 0; s < segments.count; s++) {
    const forward = nodeWeight[2 * s] !== IMPASSABLE;
    const backward = nodeWeight[2 * s + 1] !== IMPASSABLE;
    if (!forward && !backward) continue;
    roads[segments.from[s]!]!++;
    roads[segments.to[s]!]!++;
    if (forward) entries[segments.to[s]!]!++;
    if (backward) entries[segments.from[s]!]!++;
  }
  return { roads, entries, turning };
}

/** The indices of the restrictions at each via junction that has some. */
function restrictionsByVia(restrictions: TurnRestrictions): Map<number, number[]> {
  const byVia = new Map<number, number[]>();
  for (let r = 0; r < restrictions.count; r++) {
    const via = restrictions.via[r]!;
    const list = byVia.get(via);
    if (list) list.push(r);
    else byVia.set(via, [r]);
  }
  return byVia;
}

/** Whether the restrictions `atVia` (indices) allow turning from way `fromWay` onto way `toWay`. */
function allowed(restrictions: TurnRestrictions, atVia: number[] | undefined, fromWay: number, toWay: number): boolean {
  if (!atVia) return true;
  for (const r of atVia) {
    if (restrictions.fromWay[r] !== fromWay) continue;
    if (restrictions.only[r] === 1 ? restrictions.toWay[r] !== toWay : restrictions.toWay[r] === toWay) return false;
  }
  return true;
}

/** A node of OSRM's restriction graph: one edge-based node along the via path of some restrictions. */
interface RestrictionNode {
  /** The edge-based node it stands for. */
  node: number;
  /** Its duplicate's number (k, the node 2 × segments + k), -1 for a start node (a from node, not duplicated). */
  duplicate: number;
  /** Where the path goes on: onto edge-based node `to`, into restriction node `target`; a transfer joins another restriction's path. */
  edges: { to: number; target: number; transfer: boolean }[];
  /** The via-way restrictions (path indices) whose via path ends here. */
  restrictions: number[];
}

/**
 * OSRM v6's restriction graph (constructRestrictionGraph) over the via-way restriction paths: a
 * prefix tree of the via paths per from node, then, along each path, transfers onto the paths whose
 * start matches a suffix of it, and the restrictions of those suffixes added where they end too.
 * Via-node restrictions are left out: a duplicate inherits them from its original's turns.
 */
function restrictionGraph(restrictions: TurnRestrictions) {
  const { pathCount, pathFirst, pathNodes } = restrictions;
  const nodes: RestrictionNode[] = [];
  const startOf = new Map<number, number>();
  const duplicateOf: number[] = [];
  const start = (node: number): number => {
    let id = startOf.get(node);
    if (id === undefined) {
      id = nodes.length;
      nodes.push({ node, duplicate: -1, edges: [], restrictions: [] });
      startOf.set(node, id);
    }
    return id;
  };
  const edgeTo = (id: number, to: number) => nodes[id]!.edges.find((edge) => edge.to === to);
  const plainEdgeTo = (id: number, to: number) => nodes[id]!.edges.find((edge) => edge.to === to && !edge.transfer);

  // The prefix trees.
  for (let p = 0; p < pathCount; p++) {
    let current = start(pathNodes[pathFirst[p]!]!);
    for (let i = pathFirst[p]! + 1; i < pathFirst[p + 1]! - 1; i++) {
      const to = pathNodes[i]!;
      const edge = edgeTo(current, to);
      if (edge) {
        current = edge.target;
        continue;
      }
      const id = nodes.length;
      nodes.push({ node: to, duplicate: duplicateOf.length, edges: [], restrictions: [] });
      duplicateOf.push(to);
      nodes[current]!.edges.push({ to, target: id, transfer: false });
      current = id;
    }
    nodes[current]!.restrictions.push(p);
  }

  // The transfers, path after path as OSRM adds them (a longer suffix first).
  for (let p = 0; p < pathCount; p++) {
    let current = startOf.get(pathNodes[pathFirst[p]!]!)!;
    let suffixes: number[] = [];
    for (let i = pathFirst[p]! + 1; i < pathFirst[p + 1]! - 1; i++) {
      const to = pathNodes[i]!;
      current = edgeTo(current, to)!.target;
      suffixes = suffixes.flatMap((suffix) => {
        const edge = plainEdgeTo(suffix, to);
        return edge ? [edge.target] : [];
      });
      const suffixStart = startOf.get(to);
      if (suffixStart !== undefined) suffixes.push(suffixStart);
      for (const suffix of suffixes) {
        for (const edge of nodes[suffix]!.edges) {
          if (!edge.transfer && !edgeTo(current, edge.to)) nodes[current]!.edges.push({ to: edge.to, target: edge.target, transfer: true });
        }
      }
      for (const suffix of suffixes) {
        if (suffix !== current) nodes[current]!.restrictions.push(...nodes[suffix]!.restrictions);
      }
    }
  }
  const byDuplicate = nodes.filter((node) => node.duplicate >= 0);
  return { nodes, startOf, byDuplicate, duplicateOf: Uint32Array.from(duplicateOf) };
}

export function buildEdgeBasedGraph(network: RoadNetwork): EdgeBasedGraph {
  const { segments, restrictions } = network;
  const firstDuplicate = 2 * segments.count;
  const graph = restrictionGraph(restrictions);
  const duplicates = graph.duplicateOf.length;
  const nodeCount = firstDuplicate + duplicates;
  const nodeWeight = new Uint32Array(nodeCount);
  for (let s = 0; s < segments.count; s++) {
    nodeWeight[2 * s] = deciseconds(segments.forwardSeconds[s]!);
    nodeWeight[2 * s + 1] = deciseconds(segments.backwardSeconds[s]!);
  }
  for (let k = 0; k < duplicates; k++) nodeWeight[firstDuplicate + k] = nodeWeight[graph.duplicateOf[k]!]!;
  const leaving = nodesLeaving(network, nodeWeight.subarray(0, firstDuplicate));
  const byVia = restrictionsByVia(restrictions);
  const uTurnPenalty = U_TURN_DECISECONDS[network.mode];
  const junctions = uTurnJunctions(network, nodeWeight);
  const entryPenalty = (from: number, to: number) =>
    !isRestrictedDirection(segments.restricted, from) && isRestrictedDirection(segments.restricted, to) ? RESTRICTED_ENTRY_DECISECONDS : 0;

  /** The turns out of original node `node` the via-node restrictions allow: `emit(next, weight)`. */
  const turnsOf = (node: number, emit: (next: number, weight: number) => void) => {
    const wayId = segments.wayId[node >> 1]!;
    const junction = (node & 1 ? segments.from : segments.to)[node >> 1]!;
    const atVia = byVia.get(junction);
    const start = leaving.first[junction]!;
    const end = leaving.first[junction + 1]!;
    const back = node ^ 1;
    let exits = 0;
    for (let i = start; i < end; i++) {
      const next = leaving.nodes[i]!;
      if (!allowed(restrictions, atVia, wayId, segments.wayId[next >> 1]!)) continue;
      exits++;
      if (next !== back) emit(next, nodeWeight[next]! + entryPenalty(node, next));
    }
    const uTurnAllowed =
      junctions.turning[junction] === 1 || junctions.roads[junction] === 1 || exits === 1 || junctions.entries[junction]! <= 1;
    if (uTurnAllowed && nodeWeight[back] !== IMPASSABLE && allowed(restrictions, atVia, wayId, wayId)) {
      emit(back, nodeWeight[back]! + uTurnPenalty + entryPenalty(node, back));
    }
  };
  /** Whether the via-way restrictions ending at restriction node `id` forbid turning onto `next`. */
  const forbidden = (id: RestrictionNode, next: number) =>
    id.restrictions.some((p) => {
      const to = restrictions.pathNodes[restrictions.pathFirst[p + 1]! - 1]!;
      return restrictions.pathOnly[p] === 1 ? next !== to : next === to;
    });

  const turnFirst = new Uint32Array(nodeCount + 1);
  const targets = new Growable((n) => new Uint32Array(n));
  const weights = new Growable((n) => new Uint32Array(n));
  for (let node = 0; node < nodeCount; node++) {
    turnFirst[node] = targets.length;
    if (nodeWeight[node] === IMPASSABLE) continue;
    if (node < firstDuplicate) {
      // A turn that starts a via path enters the path's duplicate.
      const startId = graph.startOf.get(node);
      const startNode = startId === undefined ? undefined : graph.nodes[startId]!;
      turnsOf(node, (next, weight) => {
        const edge = startNode?.edges.find((e) => e.to === next);
        targets.push(edge ? firstDuplicate + graph.nodes[edge.target]!.duplicate : next);
        weights.push(weight);
      });
    } else {
      const duplicate = graph.byDuplicate[node - firstDuplicate]!;
      turnsOf(duplicate.node, (next, weight) => {
        if (forbidden(duplicate, next)) return;
        const edge = duplicate.edges.find((e) => e.to === next);
        targets.push(edge ? firstDuplicate + graph.nodes[edge.target]!.duplicate : next);
        weights.push(weight);
      });
    }
  }
  turnFirst[nodeCount] = targets.length;
  return {
    nodeCount,
    duplicateOf: graph.duplicateOf,
    nodeWeight,
    turnFirst,
    turnTarget: targets.take(),
    turnWeight: weights.take(),
  };
}
