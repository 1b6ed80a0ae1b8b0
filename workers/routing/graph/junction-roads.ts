/**
 * The roads at each junction of a graph: the segment ends there (a loop counts twice), whatever
 * directions the mode may travel — OSRM's intersection, which tells a bend between two roads from a
 * real crossing, and a T from a fork. Derived once per graph and thread.
 */
import type { RoutingGraph } from '../../../core/routing/graph-file.js';

export interface JunctionRoads {
  /** Per junction index (as segmentFrom / segmentTo), where its ends start in `ends`; one more entry than junctions. */
  first: Uint32Array;
  /** Segment ends: 2s for segment s leaving the junction at its `from` end, 2s + 1 at its `to` end. */
  ends: Uint32Array;
}

const roadsByGraph = new WeakMap<RoutingGraph, JunctionRoads>();

export function junctionRoadsOf(graph: RoutingGraph): JunctionRoads {
  let roads = roadsByGraph.get(graph);
  if (!roads) {
    const { segmentCount, segmentFrom, segmentTo } = graph;
    let junctions = 0;
    for (let s = 0; s < segmentCount; s++) junctions = Math.max(junctions, segmentFrom[s]! + 1, segmentTo[s]! + 1);
    const first = new Uint32Array(junctions + 1);
    for (let s = 0; s < segmentCount; s++) first[segmentFrom[s]! + 1]!++, first[segmentTo[s]! + 1]!++;
    for (let j = 0; j < junctions; j++) first[j + 1]! += first[j]!;
    const ends = new Uint32Array(2 * segmentCount);
    const next = first.slice(0, junctions);
    for (let s = 0; s < segmentCount; s++) {
      ends[next[segmentFrom[s]!]!++] = 2 * s;
      ends[next[segmentTo[s]!]!++] = 2 * s + 1;
    }
    roads = { first, ends };
    roadsByGraph.set(graph, roads);
  }
  return roads;
}

/** The first point away from the junction of each road there except `arrivedEnd` (a segment end as in `ends`): where each leads. */
export function roadsLeaving(graph: RoutingGraph, roads: JunctionRoads, junction: number, arrivedEnd: number): [number, number][] {
  const points: [number, number][] = [];
  for (let k = roads.first[junction]!; k < roads.first[junction + 1]!; k++) {
    const end = roads.ends[k]!;
    if (end === arrivedEnd) continue;
    const s = end >> 1;
    const point = end & 1 ? graph.segmentPointFirst[s + 1]! - 2 : graph.segmentPointFirst[s]! + 1;
    points.push([graph.coordinates[2 * point]! * 1e-7, graph.coordinates[2 * point + 1]! * 1e-7]);
  }
  return points;
}
