/**
 * How many roads meet at each junction of a graph: the segments that start or end there (a loop
 * counts twice), whatever directions the mode may travel — the size of OSRM's intersection, which
 * tells a bend between two roads (2) from a real crossing. Derived once per graph and thread.
 */
import type { RoutingGraph } from './load.js';

const roadsByGraph = new WeakMap<RoutingGraph, Uint16Array>();

/** Per junction index (as segmentFrom / segmentTo), the number of segment ends there (at most 65535). */
export function junctionRoadsOf(graph: RoutingGraph): Uint16Array {
  let roads = roadsByGraph.get(graph);
  if (!roads) {
    let junctions = 0;
    for (let s = 0; s < graph.segmentCount; s++) junctions = Math.max(junctions, graph.segmentFrom[s]! + 1, graph.segmentTo[s]! + 1);
    roads = new Uint16Array(junctions);
    for (let s = 0; s < graph.segmentCount; s++) {
      for (const junction of [graph.segmentFrom[s]!, graph.segmentTo[s]!]) if (roads[junction]! < 0xffff) roads[junction]!++;
    }
    roadsByGraph.set(graph, roads);
  }
  return roads;
}
