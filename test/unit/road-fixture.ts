/**
 * A small hand-built road network for the engine's unit tests, written and opened as a routing
 * worker opens its graph (the way routing-graph.test.ts builds its networks): junctions at given
 * positions, segments between them with their seconds each way, way id, name and kind of travel.
 * Segment i of the graph is the i-th segment given (checked); junction j is OSM node 2^40 + j,
 * a via point has no node id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TravelKind } from '../../core/routing/network.js';
import { metresBetween } from '../../core/geo/distance.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import { writeRoutingGraph } from '../../data-pipeline/routing/graph/write.js';
import { RoadNetworkBuilder } from '../../data-pipeline/routing/road-network-builder.js';

export type LonLat = [number, number];

export interface FixtureSegment {
  from: number;
  to: number;
  /** Seconds from `from` to `to` and back; null: not that way. */
  forward: number | null;
  backward: number | null;
  wayId: number;
  name?: string;
  travel?: TravelKind;
  /** GUIDANCE_* bits (core/routing/network.ts). */
  guidance?: number;
  /** Points between the two junctions. */
  via?: LonLat[];
}

export interface Fixture {
  graph: RoutingGraph;
  /** Metres of each segment, along its points. */
  metres: number[];
}

export const junctionNodeId = (junction: number) => 2 ** 40 + junction;

/** The graph of `segments` between `junctions` (lon, lat), for driving; its file is removed before returning. */
export function fixtureGraph(junctions: LonLat[], segments: FixtureSegment[]): Fixture {
  const strings = [''];
  const stringIndex = (text: string) => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1);
  const builder = new RoadNetworkBuilder('driving', strings);
  for (let j = 0; j < junctions.length; j++) builder.addJunction();
  const metres: number[] = [];
  for (const { from, to, forward, backward, wayId, name = '', travel = 'default', guidance = 0, via = [] } of segments) {
    const points = [junctions[from]!, ...via, junctions[to]!];
    let distance = 0;
    for (let i = 1; i < points.length; i++) distance += metresBetween(...points[i - 1]!, ...points[i]!);
    metres.push(distance);
    builder.addSegment(
      {
        from,
        to,
        distance,
        forwardSeconds: forward,
        backwardSeconds: backward,
        wayId,
        name: stringIndex(name),
        ref: 0,
        roundabout: false,
        travel,
        backwardTravel: travel,
        guidance,
      },
      Int32Array.from(points.flat(), (degrees) => Math.round(degrees * 1e7)),
      0,
      points.length - 1,
      (p) => (p === 0 ? junctionNodeId(from) : p === points.length - 1 ? junctionNodeId(to) : 0),
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'waymark-unit-graph-'));
  try {
    const file = join(dir, 'fixture.graph');
    writeRoutingGraph(builder.finish(), file);
    const graph = openRoutingGraph(loadRoutingGraph(file).shared);
    if (graph.segmentCount !== segments.length) throw new Error(`${segments.length} segments given, the graph has ${graph.segmentCount}`);
    segments.forEach(({ wayId }, s) => {
      if (graph.segmentWay[s] !== wayId) throw new Error(`segment ${s} of the graph is not the one given`);
    });
    return { graph, metres };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
