/**
 * The routing core on hand-built road networks: the contraction hierarchy answers exactly what a
 * plain Dijkstra on the edge-based graph answers (seeded random pairs on a grid with oneways),
 * turns (dead-end U-turns, `no` and `only` restrictions), oneways, islands, start and end on one
 * segment in both orders, snapping by projection and its preference for a big strongly connected
 * component, one path segment per roundabout segment, the file round trip and its version check,
 * alternatives and the bounded reach search.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoadNetwork, TravelMode } from '../core/routing/network.js';
import { buildEdgeBasedGraph } from '../data-pipeline/routing/graph/edge-based.js';
import { writeRoutingGraph, type RoutingGraphOptions } from '../data-pipeline/routing/graph/write.js';
import { RoadNetworkBuilder } from '../data-pipeline/routing/road-network-builder.js';
import type { RouteLeg } from '../workers/routing/path.js';
import { alternatives } from '../workers/routing/graph/alternatives.js';
import { IMPASSABLE, ROUTING_GRAPH_VERSION } from '../core/routing/graph-format.js';
import { metresBetween } from '../core/geo/distance.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../core/routing/graph-file.js';
import { reach } from '../workers/routing/graph/reach.js';
import { route } from '../workers/routing/graph/route.js';
import { BIG_COMPONENT_DETOUR_METRES, snap, type Snap } from '../workers/routing/graph/snap.js';
import { seededRandom } from './helpers/http.js';

const SPACING = 0.001; // degrees between grid junctions (~111 m)

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-routing-graph-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

interface Restriction {
  kind: 'no' | 'only';
  fromWay: number;
  via: number;
  toWay: number;
}

/** A network from junction positions and segments given as [from, to, forward, backward, wayId, name?, via points?]. */
function network(
  junctions: [number, number][],
  segments: [number, number, number | null, number | null, number, string?, [number, number][]?][],
  restrictions: Restriction[] = [],
  mode: TravelMode = 'driving',
): RoadNetwork {
  const strings = [''];
  const stringIndex = (text: string) => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1);
  const builder = new RoadNetworkBuilder(mode, strings);
  for (let j = 0; j < junctions.length; j++) builder.addJunction();
  for (const [from, to, forwardSeconds, backwardSeconds, wayId, name = '', via = []] of segments) {
    const points = [junctions[from]!, ...via, junctions[to]!];
    let distance = 0;
    for (let i = 1; i < points.length; i++) distance += metresBetween(...points[i - 1]!, ...points[i]!);
    const fields = {
      from,
      to,
      distance,
      forwardSeconds,
      backwardSeconds,
      wayId,
      name: stringIndex(name),
      ref: 0,
      roundabout: false,
      travel: 'default',
      backwardTravel: 'default',
    } as const;
    builder.addSegment(
      fields,
      Int32Array.from(points.flat(), (degrees) => Math.round(degrees * 1e7)),
      0,
      points.length - 1,
      // Junction j is OSM node 2^40 + j; via points have no node id.
      (p) => (p === 0 ? 2 ** 40 + from : p === points.length - 1 ? 2 ** 40 + to : 0),
    );
  }
  for (const { kind, fromWay, via, toWay } of restrictions) builder.addRestriction(kind, fromWay, via, toWay);
  return builder.finish();
}

/** lon, lat of point `i` of segment s (negative i: from the end). */
function pointOf(net: RoadNetwork, s: number, i: number): [number, number] {
  const { pointFirst, coordinates } = net.segments;
  const p = i >= 0 ? pointFirst[s]! + i : pointFirst[s + 1]! + i;
  return [coordinates[2 * p]! / 1e7, coordinates[2 * p + 1]! / 1e7];
}

/** An n × n grid; each street line is one way (OSM way) with random speeds and some oneways. */
function grid(n: number, random: () => number): RoadNetwork {
  const junctions: [number, number][] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) junctions.push([x * SPACING, 45 + y * SPACING]);
  const segments: Parameters<typeof network>[1] = [];
  const add = (from: number, to: number, wayId: number, name: string) => {
    const seconds = 5 + Math.floor(random() * 20);
    const kind = random();
    segments.push([from, to, kind < 0.1 ? null : seconds, kind > 0.9 ? null : seconds + (kind < 0.5 ? 0 : 3), wayId, name]);
  };
  for (let y = 0; y < n; y++) for (let x = 0; x + 1 < n; x++) add(y * n + x, y * n + x + 1, 1000 + y, `Row ${y}`);
  for (let x = 0; x < n; x++) for (let y = 0; y + 1 < n; y++) add(y * n + x, (y + 1) * n + x, 2000 + x, `Column ${x}`);
  return network(junctions, segments);
}

function build(net: RoadNetwork, name: string, options: RoutingGraphOptions = {}): RoutingGraph {
  const file = join(dir, `${name}.graph`);
  writeRoutingGraph(net, file, undefined, options);
  return openRoutingGraph(loadRoutingGraph(file).shared);
}

/** Snap a point `fraction` along segment `segment` (exactly on it). */
function at(graph: RoutingGraph, net: RoadNetwork, segment: number, fraction: number): Snap {
  const [lon0, lat0] = pointOf(net, segment, 0);
  const [lon1, lat1] = pointOf(net, segment, -1);
  const found = snap(graph, lon0 + fraction * (lon1 - lon0), lat0 + fraction * (lat1 - lat0), 1);
  if (found?.segment !== segment) throw new Error(`point ${fraction} along ${segment} snapped elsewhere`);
  return found;
}

/** Deciseconds of the fastest path by a plain Dijkstra over the stored turns (the reference). */
function dijkstra(graph: RoutingGraph, from: Snap, to: Snap): number {
  const { nodeWeight, turnFirst, turnTarget, turnWeight, nodeCount } = graph;
  const ends = (s: Snap) =>
    [0, 1]
      .map((d) => ({ node: 2 * s.segment + d, position: d ? 1 - s.fraction : s.fraction }))
      .filter((e) => nodeWeight[e.node] !== IMPASSABLE);
  const distance = new Float64Array(nodeCount).fill(Infinity);
  const done = new Uint8Array(nodeCount);
  for (const e of ends(from)) distance[e.node] = (1 - e.position) * nodeWeight[e.node]!;
  for (;;) {
    let node = -1;
    for (let n = 0; n < nodeCount; n++) if (!done[n] && distance[n]! < Infinity && (node < 0 || distance[n]! < distance[node]!)) node = n;
    if (node < 0) break;
    done[node] = 1;
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++)
      distance[turnTarget[e]!] = Math.min(distance[turnTarget[e]!]!, distance[node]! + turnWeight[e]!);
  }
  let best = Infinity;
  for (const target of ends(to)) {
    const source = ends(from).find((e) => e.node === target.node);
    if (source && target.position >= source.position) best = Math.min(best, (target.position - source.position) * nodeWeight[target.node]!);
    for (let p = 0; p < nodeCount; p++) {
      for (let e = turnFirst[p]!; e < turnFirst[p + 1]!; e++) {
        if (turnTarget[e] === target.node)
          best = Math.min(best, distance[p]! + turnWeight[e]! - nodeWeight[target.node]! * (1 - target.position));
      }
    }
  }
  return best;
}

/** The leg's shape is consistent: runs cover the polyline in order, sums match, no jumps. */
function checkLeg(t: import('ava').ExecutionContext, leg: RouteLeg, from: Snap, to: Snap, maxStep: number): void {
  t.deepEqual(leg.coordinates[0], from.location);
  t.deepEqual(leg.coordinates[leg.coordinates.length - 1], to.location);
  t.is(leg.segments[0]!.first, 0);
  t.is(leg.segments[leg.segments.length - 1]!.last, leg.coordinates.length - 1);
  for (let i = 1; i < leg.segments.length; i++) t.is(leg.segments[i]!.first, leg.segments[i - 1]!.last);
  t.true(Math.abs(leg.segments.reduce((sum, s) => sum + s.duration, 0) - leg.duration) < 1e-6);
  t.true(Math.abs(leg.segments.reduce((sum, s) => sum + s.distance, 0) - leg.distance) < 1e-6);
  for (let i = 1; i < leg.coordinates.length; i++) t.true(metresBetween(...leg.coordinates[i - 1]!, ...leg.coordinates[i]!) <= maxStep);
}

for (const [title, options] of [
  ['', {}],
  [', with a large uncontracted core', { maxContractedDegree: 6 }],
  [', cell by cell first (cells of 16 nodes)', { cellNodes: 16 }],
  [', cell by cell first on 2 threads (cells of 16 nodes)', { cellNodes: 16, threads: 2 }],
] as const) {
  test(`the hierarchy answers what Dijkstra on the edge-based graph answers, for random pairs on a grid with oneways${title}`, (t) => {
    const random = seededRandom(5);
    const net = grid(12, random);
    const graph = build(net, `grid${title.length}`, options);
    const bounds = 11 * SPACING;
    let routed = 0;
    for (let i = 0; i < 300; i++) {
      const from = snap(graph, random() * bounds, 45 + random() * bounds, 500)!;
      const to = snap(graph, random() * bounds, 45 + random() * bounds, 500)!;
      const expected = dijkstra(graph, from, to);
      const leg = route(graph, from, to);
      if (expected === Infinity) {
        t.is(leg, null);
        continue;
      }
      routed++;
      t.truthy(leg);
      t.true(Math.abs(leg!.duration * 10 - expected) < 1e-6, `pair ${i}: ${leg!.duration * 10} ≠ ${expected}`);
      checkLeg(t, leg!, from, to, SPACING * 111_200 + 1);
    }
    t.true(routed > 250);
  });
}

test('a oneway street is travelled only its way', (t) => {
  const net = network(
    [
      [0, 0],
      [0.01, 0],
    ],
    [[0, 1, 60, null, 1, 'One Way']],
    [],
    'driving',
  );
  const graph = build(net, 'oneway');
  const forward = route(graph, at(graph, net, 0, 0.2), at(graph, net, 0, 0.7));
  t.true(Math.abs(forward!.duration - 30) < 1e-6);
  t.is(forward!.segments[0]!.name, 'One Way');
  t.is(route(graph, at(graph, net, 0, 0.7), at(graph, net, 0, 0.2)), null);
});

test('start and end on one two-way segment, in both orders, go straight along it', (t) => {
  const net = network(
    [
      [0, 0],
      [0.01, 0],
      [0.02, 0],
    ],
    [
      [0, 1, 100, 50, 1],
      [1, 2, 100, 100, 2],
    ],
    [],
    'walking',
  );
  const graph = build(net, 'same-segment');
  const ahead = route(graph, at(graph, net, 0, 0.3), at(graph, net, 0, 0.7))!;
  t.true(Math.abs(ahead.duration - 40) < 1e-6);
  t.true(Math.abs(ahead.distance - 0.4 * net.segments.distance[0]!) < 0.01);
  const behind = route(graph, at(graph, net, 0, 0.7), at(graph, net, 0, 0.3))!;
  t.true(Math.abs(behind.duration - 20) < 1e-6);
  t.is(behind.coordinates.length, 2);
});

test('on a oneway ring, an end behind the start goes round the ring (a self-loop shortcut)', (t) => {
  const junctions: [number, number][] = [
    [0, 0],
    [0.01, 0],
    [0.01, 0.01],
    [0, 0.01],
  ];
  const net = network(junctions, [
    [0, 1, 10, null, 1],
    [1, 2, 20, null, 2],
    [2, 3, 30, null, 3],
    [3, 0, 40, null, 4],
  ]);
  const graph = build(net, 'ring');
  const from = at(graph, net, 0, 0.7);
  const to = at(graph, net, 0, 0.3);
  const leg = route(graph, from, to)!;
  t.true(Math.abs(leg.duration - (3 + 20 + 30 + 40 + 3)) < 1e-6);
  t.is(leg.duration * 10, dijkstra(graph, from, to));
  checkLeg(t, leg, from, to, 1200);
  t.true(Math.abs(route(graph, to, from)!.duration - 4) < 1e-6);
});

/** The nodes a U-turn leaves (onto their own segment backwards); each checked to weigh 10 s plus the driving penalty. */
function uTurnsOf(t: ExecutionContext, net: RoadNetwork): number[] {
  const edgeBased = buildEdgeBasedGraph(net);
  const uTurns: number[] = [];
  for (let node = 0; node < edgeBased.nodeCount; node++) {
    for (let e = edgeBased.turnFirst[node]!; e < edgeBased.turnFirst[node + 1]!; e++) {
      if (edgeBased.turnTarget[e] === (node ^ 1)) uTurns.push(node), t.is(edgeBased.turnWeight[e], 100 + 200);
    }
  }
  return uTurns.sort();
}

test('U-turns happen where OSRM allows them, with the driving penalty: dead ends, and where at most one road leads in', (t) => {
  // A street 0-1-2 with a side street 1-3: only 0 and 2 and 3 are dead ends.
  const net = network(
    [
      [0, 0],
      [0.01, 0],
      [0.02, 0],
      [0.01, 0.01],
    ],
    [
      [0, 1, 10, 10, 1],
      [1, 2, 10, 10, 1],
      [1, 3, 10, 10, 2],
    ],
  );
  // Backwards along 0-1 ends at 0, forwards along 1-2 ends at 2, forwards along 1-3 ends at 3.
  t.deepEqual(uTurnsOf(t, net), [1, 2, 4]);
  // A two-way street going on as a oneway away from junction 1: only it leads in there, so one may
  // turn round at 1 (forwards along 0-1), as at the dead end 0; not at 2, where the way back is closed.
  const onwards = network(
    [
      [0, 0],
      [0.01, 0],
      [0.02, 0],
    ],
    [
      [0, 1, 10, 10, 1],
      [1, 2, 10, null, 2],
    ],
  );
  t.deepEqual(uTurnsOf(t, onwards), [0, 1]);

  // Heading into the dead end 2 on a oneway and back out needs that U-turn.
  const oneway = network(
    [
      [0, 0],
      [0.01, 0],
      [0.02, 0],
    ],
    [
      [0, 1, 10, null, 1],
      [1, 2, 10, 10, 2],
      [1, 0, 10, null, 3, '', [[0.005, 0.005]]],
    ],
    [{ kind: 'no', fromWay: 1, via: 1, toWay: 3 }],
  );
  const graph = build(oneway, 'dead-end');
  const leg = route(graph, at(graph, oneway, 0, 0.5), snap(graph, 0.005, 0.005, 1)!)!;
  t.true(Math.abs(leg.duration - (5 + 10 + 20 + 10 + 5)) < 1e-6);
  t.true(leg.coordinates.some(([lon]) => Math.abs(lon - 0.02) < 1e-9));
  // The way back from the dead end is a path segment of its own, though of the same way: the U-turn is a step.
  t.deepEqual(
    leg.segments.map((s) => [Math.round(s.distance), s.junctionRoads]),
    [
      [Math.round(metresBetween(0.005, 0, 0.01, 0)), undefined],
      [Math.round(metresBetween(0.01, 0, 0.02, 0)), 3],
      [Math.round(metresBetween(0.01, 0, 0.02, 0)), 1],
      [Math.round(metresBetween(0.01, 0, 0.005, 0.005)), 3],
    ],
  );
});

/** A crossroads at junction 0 with four arms, each its own way: west 1, east 2, north 3, south 4. */
function crossroads(restrictions: Restriction[]): RoadNetwork {
  return network(
    [
      [0, 0],
      [-0.01, 0],
      [0.01, 0],
      [0, 0.01],
      [0, -0.01],
    ],
    [
      [1, 0, 10, 10, 1, 'West'],
      [0, 2, 10, 10, 2, 'East'],
      [0, 3, 10, 10, 3, 'North'],
      [0, 4, 10, 10, 4, 'South'],
    ],
    restrictions,
  );
}

test('a `no` restriction removes its turn: the route turns round at a dead end instead', (t) => {
  const free = build(crossroads([]), 'cross-free');
  const net = crossroads([{ kind: 'no', fromWay: 1, via: 0, toWay: 3 }]);
  const graph = build(net, 'cross-no');
  t.true(Math.abs(route(free, at(free, net, 0, 0.5), at(free, net, 2, 0.5))!.duration - 10) < 1e-6);
  const leg = route(graph, at(graph, net, 0, 0.5), at(graph, net, 2, 0.5))!;
  // West half, then out to a dead end (east or south), U-turn, back, and half of north.
  t.true(Math.abs(leg.duration - (5 + 10 + 20 + 10 + 5)) < 1e-6);
  t.notDeepEqual(
    leg.segments.map((s) => s.name),
    ['West', 'North'],
  );
  // Other turns from West are untouched.
  t.true(Math.abs(route(graph, at(graph, net, 0, 0.5), at(graph, net, 1, 0.5))!.duration - 10) < 1e-6);
});

test('an `only` restriction removes every other turn from its way at the via junction', (t) => {
  const net = crossroads([{ kind: 'only', fromWay: 1, via: 0, toWay: 2 }]);
  const graph = build(net, 'cross-only');
  const straight = route(graph, at(graph, net, 0, 0.5), at(graph, net, 1, 0.5))!;
  t.true(Math.abs(straight.duration - 10) < 1e-6);
  t.deepEqual(
    straight.segments.map((s) => s.name),
    ['West', 'East'],
  );
  const left = route(graph, at(graph, net, 0, 0.5), at(graph, net, 2, 0.5))!;
  t.deepEqual(
    left.segments.map((s) => s.name),
    ['West', 'East', 'East', 'North'],
    'out along East, a U-turn at its dead end, back',
  );
  t.true(Math.abs(left.duration - (5 + 10 + 20 + 10 + 5)) < 1e-6);
  // From North, anything goes.
  t.true(Math.abs(route(graph, at(graph, net, 2, 0.5), at(graph, net, 3, 0.5))!.duration - 10) < 1e-6);
});

test('an island is not reachable, and reach stays on its side', (t) => {
  const net = network(
    [
      [0, 0],
      [0.01, 0],
      [1, 1],
      [1.01, 1],
    ],
    [
      [0, 1, 10, 10, 1, 'Main'],
      [2, 3, 10, 10, 2, 'Island'],
    ],
  );
  const graph = build(net, 'island');
  t.is(route(graph, at(graph, net, 0, 0.5), at(graph, net, 1, 0.5)), null);
  t.deepEqual(alternatives(graph, at(graph, net, 0, 0.5), at(graph, net, 1, 0.5), 2), []);
  const pieces = reach(graph, at(graph, net, 0, 0.5), 3600);
  t.true(pieces.every((p) => p.coordinates.every(([lon]) => lon < 0.5)));
});

test('snapping projects onto the middle of a piece, and respects the radius', (t) => {
  const net = network(
    [
      [0, 0],
      [0.02, 0],
    ],
    [[0, 1, 10, 10, 1, 'Long Street', [[0.01, 0]]]],
    [],
    'cycling',
  );
  const graph = build(net, 'snap');
  const found = snap(graph, 0.015, 0.0005, 100)!;
  t.is(found.segment, 0);
  t.is(found.piece, 1);
  t.true(Math.abs(found.location[0] - 0.015) < 1e-9 && Math.abs(found.location[1]) < 1e-9);
  t.true(Math.abs(found.fraction - 0.75) < 1e-6);
  t.true(Math.abs(found.distance - metresBetween(0.015, 0.0005, 0.015, 0)) < 0.01);
  t.is(found.name, 'Long Street');
  t.deepEqual(found.input, [0.015, 0.0005]);
  t.is(snap(graph, 0.015, 0.0005, 50), null);
  // Impassable segments are not snapped to.
  const closed = build(
    network(
      [
        [0, 0],
        [0.02, 0],
      ],
      [[0, 1, null, null, 1]],
    ),
    'closed',
  );
  t.is(snap(closed, 0.01, 0, 100), null);
});

test('the file round trip keeps every section, and a wrong magic or version is refused', (t) => {
  const net = grid(5, seededRandom(9));
  const file = join(dir, 'round-trip.graph');
  const stats = writeRoutingGraph(net, file);
  const bytes = readFileSync(file);
  t.is(stats.bytes, bytes.length);
  t.true(stats.nodes > 0 && stats.edges > 0);
  const loaded = loadRoutingGraph(file);
  t.true(loaded.shared instanceof SharedArrayBuffer);
  t.is(loaded.mode, 'driving');
  const graph = openRoutingGraph(loaded.shared);
  const { segments } = net;
  t.is(graph.segmentCount, segments.count);
  t.is(graph.coordinates.buffer, loaded.shared);
  t.deepEqual(graph.segmentPointFirst, segments.pointFirst);
  t.deepEqual(graph.coordinates, segments.coordinates);
  t.deepEqual(graph.pointNodeId, segments.nodeId);
  t.is(graph.pointNodeId[graph.segmentPointFirst[1]!], 2 ** 40 + net.segments.from[1]!);
  for (let s = 0; s < segments.count; s++) {
    t.is(graph.strings[graph.segmentName[s]!], net.strings[segments.name[s]!]);
    t.is(graph.segmentWay[s], segments.wayId[s]);
  }

  const wrongVersion = Buffer.from(bytes);
  wrongVersion.writeUInt32LE(99, 4);
  writeFileSync(join(dir, 'v99.graph'), wrongVersion);
  t.throws(() => loadRoutingGraph(join(dir, 'v99.graph')), { message: /version 99 is not supported/ });
  const shared = new SharedArrayBuffer(wrongVersion.length);
  new Uint8Array(shared).set(wrongVersion);
  t.throws(() => openRoutingGraph(shared), { message: /version 99/ });
  // A file of the format before this one (no OSM node ids) tells the operator to import again.
  const previous = Buffer.from(bytes);
  previous.writeUInt32LE(ROUTING_GRAPH_VERSION - 1, 4);
  writeFileSync(join(dir, 'previous.graph'), previous);
  t.throws(() => loadRoutingGraph(join(dir, 'previous.graph')), {
    message: `Routing graph format version ${ROUTING_GRAPH_VERSION - 1} is not supported (this version of Waymark reads version ${ROUTING_GRAPH_VERSION}); rebuild it with waymark import.`,
  });
  const wrongMagic = Buffer.from(bytes);
  wrongMagic[0] = 0;
  writeFileSync(join(dir, 'magic.graph'), wrongMagic);
  t.throws(() => loadRoutingGraph(join(dir, 'magic.graph')), { message: /Not a Waymark routing graph/ });
});

test('alternatives are different, not much slower, and not mostly shared', (t) => {
  const random = seededRandom(11);
  const net = grid(10, () => 0.3 + 0.1 * random()); // two-way everywhere, even speeds: many near-equal routes
  const graph = build(net, 'alternatives');
  const from = at(graph, net, 0, 0.5);
  const to = at(graph, net, net.segments.count - 1, 0.5);
  const best = route(graph, from, to)!;
  const others = alternatives(graph, from, to, 2);
  t.true(others.length >= 1);
  for (const leg of others) {
    t.true(leg.duration <= 1.4 * best.duration + 1e-6);
    t.notDeepEqual(leg.coordinates, best.coordinates);
    checkLeg(t, leg, from, to, SPACING * 111_200 + 1);
  }
});

test('reach covers the network up to the budget, with times growing along each piece and cut at the frontier', (t) => {
  const random = seededRandom(3);
  const net = grid(8, random);
  const graph = build(net, 'reach');
  const from = snap(graph, 3.5 * SPACING, 45 + 3.5 * SPACING, 500)!;
  const pieces = reach(graph, from, 60);
  t.true(pieces.length > 0);
  let cut = 0;
  for (const piece of pieces) {
    t.is(piece.coordinates.length, piece.seconds.length);
    t.true(piece.coordinates.length >= 2);
    for (let i = 1; i < piece.seconds.length; i++) t.true(piece.seconds[i]! >= piece.seconds[i - 1]!);
    t.true(piece.seconds.every((s) => s >= 0 && s <= 60 + 1e-9));
    if (Math.abs(piece.seconds[piece.seconds.length - 1]! - 60) < 1e-9) cut++;
  }
  t.true(cut > 0);
  // The fastest route to a frontier point takes no longer than the budget.
  for (const piece of pieces.filter((p) => p.seconds[p.seconds.length - 1] === 60).slice(0, 40)) {
    const [lon, lat] = piece.coordinates[piece.coordinates.length - 1]!;
    t.true(route(graph, from, snap(graph, lon, lat, 1)!)!.duration <= 60 + 0.01);
  }
  // Everything is reached with a budget big enough.
  const all = reach(graph, from, 1e6);
  t.true(all.length >= 2 * net.segments.count * 0.6);
});

test('each roundabout segment is its own path segment (one per exit passed); other runs still merge', (t) => {
  // A oneway ring (way 10, "Ring") anticlockwise through junctions 0 (south), 1 (east), 2 (north),
  // 3 (west), and an arm out of each (ways 1–4). Approach from the south arm, leave by the west arm:
  // the 3rd exit.
  const r = 0.001;
  const junctions: [number, number][] = [
    [0, -r],
    [r, 0],
    [0, r],
    [-r, 0],
    [0, -4 * r],
    [4 * r, 0],
    [0, 4 * r],
    [-4 * r, 0],
    [-7 * r, 0],
  ];
  const net = network(junctions, [
    [0, 1, 3, null, 10, 'Ring', [[0.7 * r, -0.7 * r]]],
    [1, 2, 3, null, 10, 'Ring', [[0.7 * r, 0.7 * r]]],
    [2, 3, 3, null, 10, 'Ring', [[-0.7 * r, 0.7 * r]]],
    [3, 0, 3, null, 10, 'Ring', [[-0.7 * r, -0.7 * r]]],
    [4, 0, 20, 20, 1, 'South'],
    [1, 5, 20, 20, 2, 'East'],
    [2, 6, 20, 20, 3, 'North'],
    [3, 7, 20, 20, 4, 'West'],
    [7, 8, 20, 20, 4, 'West'],
  ]);
  net.segments.roundabout.fill(1, 0, 4);
  const graph = build(net, 'roundabout');
  const from = at(graph, net, 4, 0.5);
  const to = at(graph, net, 8, 0.5);
  const leg = route(graph, from, to)!;
  t.deepEqual(
    leg.segments.map((s) => [s.name, s.roundabout]),
    [
      ['South', false],
      ['Ring', true],
      ['Ring', true],
      ['Ring', true],
      ['West', false],
    ],
  );
  checkLeg(t, leg, from, to, 1000);
  // The two segments of way 4 after the roundabout are still one run.
  t.true(Math.abs(leg.segments[4]!.duration - 30) < 1e-6);
});

test('snapping prefers a big strongly connected component to a nearer small one, and falls back to it', (t) => {
  // A 24 × 24 two-way grid (2 208 edge-based nodes, one component) with a short street inside the
  // block between x 5–6 and y 5–6 that joins nothing: an island of 2 nodes.
  const n = 24;
  const junctions: [number, number][] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) junctions.push([x * SPACING, 45 + y * SPACING]);
  const segments: Parameters<typeof network>[1] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x + 1 < n; x++) segments.push([y * n + x, y * n + x + 1, 10, 10, 1000 + y, `Row ${y}`]);
  for (let x = 0; x < n; x++) for (let y = 0; y + 1 < n; y++) segments.push([y * n + x, (y + 1) * n + x, 10, 10, 2000 + x, `Column ${x}`]);
  junctions.push([5.2 * SPACING, 45 + 5.5 * SPACING], [5.8 * SPACING, 45 + 5.5 * SPACING]);
  segments.push([n * n, n * n + 1, 5, 5, 1, 'Island Lane']);
  // And a far island, 1.1 km east of the grid's last column (x 23).
  junctions.push([(23 + 14) * SPACING, 45 + 10 * SPACING], [(23 + 15) * SPACING, 45 + 10 * SPACING]);
  segments.push([n * n + 2, n * n + 3, 5, 5, 2, 'Far Lane']);
  const file = join(dir, 'island-grid.graph');
  const stats = writeRoutingGraph(network(junctions, segments), file);
  t.is(stats.smallSegments, 2);
  const graph = openRoutingGraph(loadRoutingGraph(file).shared);

  // 11 m from the island, 39 m from the grid (columns 5 and 6).
  const [lon, lat] = [5.5 * SPACING, 45 + 5.6 * SPACING];
  const onGrid = snap(graph, lon, lat, 100)!;
  t.regex(onGrid.name, /^Column [56]$/);
  t.true(Math.abs(onGrid.distance - 0.5 * SPACING * 111_195 * Math.cos(Math.PI / 4)) < 1);
  t.truthy(route(graph, onGrid, snap(graph, 20 * SPACING, 45 + 20 * SPACING, 100)!));
  // With no big component within the radius, the island is still found.
  const onIsland = snap(graph, lon, lat, 20)!;
  t.is(onIsland.name, 'Island Lane');
  t.true(Math.abs(onIsland.distance - 0.1 * SPACING * 111_195) < 1);
  // A small component more than BIG_COMPONENT_DETOUR_METRES nearer than any big one keeps the point.
  const far = snap(graph, (23 + 14.5) * SPACING, 45 + 10.001 * SPACING, 2000)!;
  t.true(BIG_COMPONENT_DETOUR_METRES < 14.5 * SPACING * 111_195 * Math.cos(Math.PI / 4) - 10);
  t.is(far.name, 'Far Lane');
  // 157 m from the far island and 943 m from the grid: less than the detour nearer, so the grid.
  t.is(snap(graph, (23 + 12) * SPACING, 45 + 10 * SPACING, 2000)!.name, 'Column 23');
});

test('each path segment tells how many roads meet at the junction it starts from', (t) => {
  //   0 —A— 1 —B— 2 —C— 3, and D from 2 to 4: two roads meet at 1, three at 2.
  const net = network(
    [
      [0, 45],
      [0.002, 45],
      [0.002, 45.002],
      [0.004, 45.002],
      [0.002, 45.004],
    ],
    [
      [0, 1, 20, 20, 1, 'A'],
      [1, 2, 20, 20, 2, 'B'],
      [2, 3, 20, 20, 3, 'C'],
      [2, 4, 20, 20, 4, 'D'],
    ],
  );
  const graph = build(net, 'junction-roads');
  const leg = route(graph, at(graph, net, 0, 0.5), at(graph, net, 2, 0.5))!;
  t.deepEqual(
    leg.segments.map((s) => [s.name, s.junctionRoads]),
    [
      ['A', undefined],
      ['B', 2],
      ['C', 3],
    ],
  );
  // Where the other roads lead: at 2, C (taken) and D; junctions passed: none inside a run here.
  t.deepEqual(leg.segments[2]!.junctionExits!.map(([lon, lat]) => [Math.round(lon * 1e6), Math.round(lat * 1e6)]).sort(), [
    [2000, 45004000],
    [4000, 45002000],
  ]);
  t.true(leg.segments.every((s) => s.junctionsPassed === undefined));
  const back = route(graph, at(graph, net, 2, 0.5), at(graph, net, 0, 0.5))!;
  t.deepEqual(
    back.segments.map((s) => s.junctionRoads),
    [undefined, 3, 2],
    'entered backwards, at their `to` end',
  );
});

test('a run of one way through a junction of three roads counts it as passed', (t) => {
  // Main 0-1-2 with a side street at 1.
  const net = network(
    [
      [0, 45],
      [0.002, 45],
      [0.004, 45],
      [0.002, 45.002],
    ],
    [
      [0, 1, 20, 20, 1, 'Main'],
      [1, 2, 20, 20, 1, 'Main'],
      [1, 3, 20, 20, 2, 'Side'],
    ],
  );
  const graph = build(net, 'junction-passed');
  const leg = route(graph, at(graph, net, 0, 0.5), at(graph, net, 1, 0.5))!;
  t.deepEqual(
    leg.segments.map((s) => [s.name, s.junctionsPassed]),
    [['Main', 1]],
  );
});
