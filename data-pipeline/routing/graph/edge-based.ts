/**
 * The edge-based graph of a road network, as OSRM builds it: a node is one direction of travel along
 * one segment (node 2s forwards along segment s, 2s+1 backwards), an edge is a turn at a junction
 * from the end of one such node onto the start of the next, weighing the next node's travel time
 * plus a turn penalty. Turns back onto the same segment (U-turns) exist only at dead ends; turn
 * restrictions remove turns. Weights are integer deciseconds.
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { RoadNetwork, RoadSegment, TurnRestriction } from '../../../core/routing/network.js';

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

function deciseconds(seconds: number | null): number {
  return seconds === null ? IMPASSABLE : Math.round(seconds * 10);
}

/** Junction a node starts at, and ends at. */
function startOf(segment: RoadSegment, node: number): number {
  return node & 1 ? segment.to : segment.from;
}
function endOf(segment: RoadSegment, node: number): number {
  return node & 1 ? segment.from : segment.to;
}

/** Passable nodes starting at each junction, CSR. */
function nodesLeaving(network: RoadNetwork, nodeWeight: Uint32Array): { first: Uint32Array; nodes: Uint32Array } {
  const junctions = network.junctionLon.length;
  const first = new Uint32Array(junctions + 1);
  const passable = (node: number) => nodeWeight[node] !== IMPASSABLE;
  for (let node = 0; node < nodeWeight.length; node++) {
    if (passable(node)) first[startOf(network.segments[node >> 1]!, node) + 1]!++;
  }
  for (let j = 0; j < junctions; j++) first[j + 1]! += first[j]!;
  const fill = first.slice(0, junctions);
  const nodes = new Uint32Array(first[junctions]!);
  for (let node = 0; node < nodeWeight.length; node++) {
    if (passable(node)) nodes[fill[startOf(network.segments[node >> 1]!, node)]!++] = node;
  }
  return { first, nodes };
}

function restrictionsByVia(restrictions: TurnRestriction[]): Map<number, TurnRestriction[]> {
  const byVia = new Map<number, TurnRestriction[]>();
  for (const restriction of restrictions) {
    const list = byVia.get(restriction.via);
    if (list) list.push(restriction);
    else byVia.set(restriction.via, [restriction]);
  }
  return byVia;
}

/** Whether the restrictions at the junction allow turning from way `fromWay` onto way `toWay`. */
function allowed(restrictions: TurnRestriction[] | undefined, fromWay: number, toWay: number): boolean {
  if (!restrictions) return true;
  for (const r of restrictions) {
    if (r.fromWay !== fromWay) continue;
    if (r.kind === 'no' ? r.toWay === toWay : r.toWay !== toWay) return false;
  }
  return true;
}

export function buildEdgeBasedGraph(network: RoadNetwork): EdgeBasedGraph {
  const { segments } = network;
  const nodeCount = 2 * segments.length;
  const nodeWeight = new Uint32Array(nodeCount);
  segments.forEach((segment, s) => {
    nodeWeight[2 * s] = deciseconds(segment.forwardSeconds);
    nodeWeight[2 * s + 1] = deciseconds(segment.backwardSeconds);
  });
  const leaving = nodesLeaving(network, nodeWeight);
  const restrictions = restrictionsByVia(network.restrictions);
  const uTurnPenalty = network.mode === 'driving' ? DRIVING_U_TURN_DECISECONDS : 0;

  const turnFirst = new Uint32Array(nodeCount + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  for (let node = 0; node < nodeCount; node++) {
    turnFirst[node] = targets.length;
    if (nodeWeight[node] === IMPASSABLE) continue;
    const segment = segments[node >> 1]!;
    const junction = endOf(segment, node);
    const atVia = restrictions.get(junction);
    const start = leaving.first[junction]!;
    const end = leaving.first[junction + 1]!;
    let deadEnd = true;
    for (let i = start; i < end; i++) {
      const next = leaving.nodes[i]!;
      if (next >> 1 === node >> 1) continue;
      deadEnd = false;
      if (!allowed(atVia, segment.wayId, segments[next >> 1]!.wayId)) continue;
      targets.push(next);
      weights.push(nodeWeight[next]!);
    }
    const back = node ^ 1;
    if (deadEnd && nodeWeight[back] !== IMPASSABLE && allowed(atVia, segment.wayId, segment.wayId)) {
      targets.push(back);
      weights.push(nodeWeight[back]! + uTurnPenalty);
    }
  }
  turnFirst[nodeCount] = targets.length;
  return { nodeCount, nodeWeight, turnFirst, turnTarget: Uint32Array.from(targets), turnWeight: Uint32Array.from(weights) };
}
