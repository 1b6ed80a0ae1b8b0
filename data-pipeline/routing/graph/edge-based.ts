/**
 * The edge-based graph of a road network, as OSRM builds it: a node is one direction of travel along
 * one segment (node 2s forwards along segment s, 2s+1 backwards), an edge is a turn at a junction
 * from the end of one such node onto the start of the next, weighing the next node's travel time
 * plus a turn penalty. Turns back onto the same segment (U-turns) exist only at dead ends; turn
 * restrictions remove turns; a turn into a restricted direction from one that is not (onto a
 * private road) costs RESTRICTED_ENTRY_DECISECONDS more. Weights are integer deciseconds.
 */
import { IMPASSABLE, RESTRICTED_ENTRY_DECISECONDS } from '../../../core/routing/graph-format.js';
import { isRestrictedDirection, type RoadNetwork, type TurnRestrictions } from '../../../core/routing/network.js';
import { Growable } from '../growable.js';

/** A driver turning round at a dead end loses this much (OSRM's car profile uses 20 s too). */
const DRIVING_U_TURN_DECISECONDS = 200;

export interface EdgeBasedGraph {
  nodeCount: number;
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

export function buildEdgeBasedGraph(network: RoadNetwork): EdgeBasedGraph {
  const { segments, restrictions } = network;
  const nodeCount = 2 * segments.count;
  const nodeWeight = new Uint32Array(nodeCount);
  for (let s = 0; s < segments.count; s++) {
    nodeWeight[2 * s] = deciseconds(segments.forwardSeconds[s]!);
    nodeWeight[2 * s + 1] = deciseconds(segments.backwardSeconds[s]!);
  }
  const leaving = nodesLeaving(network, nodeWeight);
  const byVia = restrictionsByVia(restrictions);
  const uTurnPenalty = network.mode === 'driving' ? DRIVING_U_TURN_DECISECONDS : 0;
  const entryPenalty = (from: number, to: number) =>
    !isRestrictedDirection(segments.restricted, from) && isRestrictedDirection(segments.restricted, to) ? RESTRICTED_ENTRY_DECISECONDS : 0;

  const turnFirst = new Uint32Array(nodeCount + 1);
  const targets = new Growable((n) => new Uint32Array(n));
  const weights = new Growable((n) => new Uint32Array(n));
  for (let node = 0; node < nodeCount; node++) {
    turnFirst[node] = targets.length;
    if (nodeWeight[node] === IMPASSABLE) continue;
    const wayId = segments.wayId[node >> 1]!;
    const junction = (node & 1 ? segments.from : segments.to)[node >> 1]!;
    const atVia = byVia.get(junction);
    const start = leaving.first[junction]!;
    const end = leaving.first[junction + 1]!;
    let deadEnd = true;
    for (let i = start; i < end; i++) {
      const next = leaving.nodes[i]!;
      if (next >> 1 === node >> 1) continue;
      deadEnd = false;
      if (!allowed(restrictions, atVia, wayId, segments.wayId[next >> 1]!)) continue;
      targets.push(next);
      weights.push(nodeWeight[next]! + entryPenalty(node, next));
    }
    const back = node ^ 1;
    if (deadEnd && nodeWeight[back] !== IMPASSABLE && allowed(restrictions, atVia, wayId, wayId)) {
      targets.push(back);
      weights.push(nodeWeight[back]! + uTurnPenalty + entryPenalty(node, back));
    }
  }
  turnFirst[nodeCount] = targets.length;
  return { nodeCount, nodeWeight, turnFirst, turnTarget: targets.take(), turnWeight: weights.take() };
}
