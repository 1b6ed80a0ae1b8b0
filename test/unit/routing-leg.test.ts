/**
 * workers/routing/graph/leg.ts (with its passes leg-geometry.ts and leg-runs.ts) on a hand-built
 * T: a leg's metres, seconds, points and OSM node ids along a known path, the partial first and
 * last segments, runs (one per way, a new one at a turn and after a U-turn, the roads at the
 * junction a run starts at), waited turn seconds, slivers at a junction at either end, and the annotation spans.
 */
import test, { type ExecutionContext } from 'ava';
import type { RouteLeg } from '../../workers/routing/path.js';
import { buildLeg } from '../../workers/routing/graph/leg.js';
import { snap, snapOnSegment, type Snap } from '../../workers/routing/graph/snap.js';
import { fixtureGraph, junctionNodeId, type LonLat } from './road-fixture.js';

// A (0) — B (1) — D (3) is Main Street, one way of two segments (the first with a point between);
// North Road leaves B (1) for C (2).
const A: LonLat = [0, 45];
const B: LonLat = [0.002, 45];
const C: LonLat = [0.002, 45.002];
const D: LonLat = [0.004, 45];
const { graph, metres } = fixtureGraph(
  [A, B, C, D],
  [
    { from: 0, to: 1, forward: 20, backward: 20, wayId: 1, name: 'Main Street', via: [[0.001, 45]] },
    { from: 1, to: 3, forward: 20, backward: 20, wayId: 1, name: 'Main Street' },
    { from: 1, to: 2, forward: 15, backward: 15, wayId: 2, name: 'North Road' },
  ],
);
// Edge-based nodes: segment s travelled forwards is 2s, backwards 2s + 1.
const forwards = (segment: number) => 2 * segment;
const backwards = (segment: number) => 2 * segment + 1;

/** The snap `fraction` of the way along `segment`, from its first junction to its last. */
function on(segment: number, fraction: number): Snap {
  const ends: Record<number, [LonLat, LonLat]> = { 0: [A, B], 1: [B, D], 2: [B, C] };
  const [[lon0, lat0], [lon1, lat1]] = ends[segment]!;
  const found = snap(graph, lon0 + fraction * (lon1 - lon0), lat0 + fraction * (lat1 - lat0), 10);
  if (!found) throw new Error(`nothing snapped ${fraction} along segment ${segment}`);
  return snapOnSegment(found, segment);
}

function near(t: ExecutionContext, actual: number, expected: number, tolerance: number, what: string): void {
  t.true(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected}`);
}

function nearPoints(t: ExecutionContext, actual: LonLat[], expected: LonLat[]): void {
  t.is(actual.length, expected.length, `${JSON.stringify(actual)}`);
  expected.forEach((point, i) => {
    near(t, actual[i]![0], point[0], 1e-7, `lon of point ${i}`);
    near(t, actual[i]![1], point[1], 1e-7, `lat of point ${i}`);
  });
}

/** The spans together are the leg's metres and seconds, and the last one is the polyline's last piece. */
function checkSpans(t: ExecutionContext, leg: RouteLeg): void {
  near(
    t,
    leg.spans.reduce((sum, span) => sum + span.metres, 0),
    leg.distance,
    1e-9,
    'span metres',
  );
  near(
    t,
    leg.spans.reduce((sum, span) => sum + span.seconds, 0),
    leg.duration,
    1e-9,
    'span seconds',
  );
  t.deepEqual([leg.spans.at(-1)!.first, leg.spans.at(-1)!.last], [leg.coordinates.length - 2, leg.coordinates.length - 1]);
}

test('a leg along one way through a junction: its metres, seconds, points and OSM node ids, in one run', (t) => {
  const leg = buildLeg(graph, { nodes: [forwards(0), forwards(1)], penalties: [0, 0] }, on(0, 0.25), on(1, 0.5));
  nearPoints(t, leg.coordinates, [[0.0005, 45], [0.001, 45], B, [0.003, 45]]);
  // A snapped start or end inside a piece has the id of the piece's end behind or ahead of it; the via point has none.
  t.deepEqual(leg.nodes, [junctionNodeId(0), 0, junctionNodeId(1), junctionNodeId(3)]);
  near(t, leg.distance, 0.75 * metres[0]! + 0.5 * metres[1]!, 0.01, 'metres');
  near(t, leg.duration, 0.75 * 20 + 0.5 * 20, 0.01, 'seconds');
  t.deepEqual(
    leg.segments.map(({ name, first, last, junctionRoads, junctionsPassed }) => ({ name, first, last, junctionRoads, junctionsPassed })),
    // B, where North Road leaves, is a junction of three roads passed on the way.
    [{ name: 'Main Street', first: 0, last: 3, junctionRoads: undefined, junctionsPassed: 1 }],
  );
  near(t, leg.segments[0]!.distance, leg.distance, 1e-9, 'the run has all the metres');
  t.deepEqual(leg.roadElevations, [NaN, NaN, NaN, NaN]);
  // One span per segment with a point of its own, and what none took (here nothing) on the last piece.
  t.deepEqual(
    leg.spans.map(({ first, last }) => [first, last]),
    [
      [0, 2],
      [2, 3],
      [2, 3],
    ],
  );
  near(t, leg.spans[0]!.metres, 0.75 * metres[0]!, 0.01, 'first span metres');
  near(t, leg.spans[0]!.seconds, 15, 0.01, 'first span seconds');
  near(t, leg.spans[1]!.metres, 0.5 * metres[1]!, 0.01, 'second span metres');
  near(t, leg.spans[2]!.metres, 0, 1e-9, 'last span metres');
  checkSpans(t, leg);
});

test('turning off at a junction starts a run there, with the roads that meet and where each leads', (t) => {
  const leg = buildLeg(graph, { nodes: [forwards(0), forwards(2)], penalties: [0, 0] }, on(0, 0.25), on(2, 0.5));
  nearPoints(t, leg.coordinates, [[0.0005, 45], [0.001, 45], B, [0.002, 45.001]]);
  t.deepEqual(
    leg.segments.map(({ name, first, last, junctionRoads }) => ({ name, first, last, junctionRoads })),
    [
      { name: 'Main Street', first: 0, last: 2, junctionRoads: undefined },
      { name: 'North Road', first: 2, last: 3, junctionRoads: 3 },
    ],
  );
  const [main, north] = leg.segments;
  near(t, main!.distance, 0.75 * metres[0]!, 0.01, 'Main Street metres');
  near(t, main!.duration, 15, 0.01, 'Main Street seconds');
  near(t, north!.distance, 0.5 * metres[2]!, 0.01, 'North Road metres');
  near(t, north!.duration, 7.5, 0.01, 'North Road seconds');
  // Every road at B but the one arrived on: Main Street on to D, North Road to C.
  const exits = [...north!.junctionExits!].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  nearPoints(t, exits, [C, D]);
  checkSpans(t, leg);
});

test('a turn penalty the traveller waits counts in the seconds of the run after it', (t) => {
  const [start, end] = [on(0, 0.25), on(1, 0.5)];
  const plain = buildLeg(graph, { nodes: [forwards(0), forwards(1)], penalties: [0, 0] }, start, end);
  const waited = buildLeg(graph, { nodes: [forwards(0), forwards(1)], penalties: [0, 50] }, start, end);
  near(t, waited.duration - plain.duration, 5, 1e-9, 'seconds waited');
  t.is(waited.distance, plain.distance);
  near(t, waited.segments[0]!.duration - plain.segments[0]!.duration, 5, 1e-9, "the run's seconds waited");
  checkSpans(t, waited);
});

test('a U-turn starts a run of its own, though the road keeps its name', (t) => {
  const leg = buildLeg(graph, { nodes: [forwards(0), backwards(0)], penalties: [0, 0] }, on(0, 0.25), on(0, 0.75));
  nearPoints(t, leg.coordinates, [[0.0005, 45], [0.001, 45], B, [0.0015, 45]]);
  t.deepEqual(
    leg.segments.map(({ name, first, last }) => ({ name, first, last })),
    [
      { name: 'Main Street', first: 0, last: 2 },
      { name: 'Main Street', first: 2, last: 3 },
    ],
  );
  near(t, leg.distance, 0.75 * metres[0]! + 0.25 * metres[0]!, 0.01, 'metres');
});

test('both ends on one segment, travelled against its direction', (t) => {
  const leg = buildLeg(graph, { nodes: [backwards(0)], penalties: [0] }, on(0, 0.75), on(0, 0.25));
  nearPoints(t, leg.coordinates, [
    [0.0015, 45],
    [0.001, 45],
    [0.0005, 45],
  ]);
  // Travelling towards A, B is behind the start and A ahead of the end.
  t.deepEqual(leg.nodes, [junctionNodeId(1), 0, junctionNodeId(0)]);
  near(t, leg.distance, 0.5 * metres[0]!, 0.01, 'metres');
  near(t, leg.duration, 10, 0.01, 'seconds');
  t.is(leg.segments.length, 1);
  checkSpans(t, leg);
});

test('a start and end at one place: two equal points, no metres, one run', (t) => {
  const here = on(0, 0.25);
  const leg = buildLeg(graph, { nodes: [forwards(0)], penalties: [0] }, here, here);
  nearPoints(t, leg.coordinates, [
    [0.0005, 45],
    [0.0005, 45],
  ]);
  t.is(leg.distance, 0);
  t.is(leg.duration, 0);
  t.deepEqual(
    leg.segments.map(({ first, last }) => ({ first, last })),
    [{ first: 0, last: 1 }],
  );
});

test('a start a few centimetres before a junction draws nothing of the road behind it: the leg begins at the junction', (t) => {
  const start = on(0, 1 - 0.05 / metres[0]!);
  const leg = buildLeg(graph, { nodes: [forwards(0), forwards(2)], penalties: [0, 0] }, start, on(2, 0.5));
  nearPoints(t, leg.coordinates, [B, [0.002, 45.001]]);
  t.deepEqual(leg.nodes, [junctionNodeId(1), junctionNodeId(2)]);
  t.deepEqual(
    leg.segments.map(({ name, first, last }) => ({ name, first, last })),
    [{ name: 'North Road', first: 0, last: 1 }],
  );
  near(t, leg.distance, 0.5 * metres[2]!, 0.01, 'metres');
  // The sliver's seconds go to the run after it.
  const sliverSeconds = (1 - start.fraction) * 20;
  t.true(sliverSeconds > 0.005, `${sliverSeconds} s`);
  near(t, leg.duration, 0.5 * 15 + sliverSeconds, 1e-9, 'seconds');
  checkSpans(t, leg);
});

test("an end a few centimetres into the road beyond a junction ends the leg at the junction; that road's waited turn seconds go to the last run", (t) => {
  const [start, end] = [on(0, 0.25), on(2, 0.05 / metres[2]!)];
  const leg = buildLeg(graph, { nodes: [forwards(0), forwards(2)], penalties: [0, 50] }, start, end);
  nearPoints(t, leg.coordinates, [[0.0005, 45], [0.001, 45], B]);
  t.deepEqual(
    leg.segments.map(({ name, first, last }) => ({ name, first, last })),
    [{ name: 'Main Street', first: 0, last: 2 }],
  );
  near(t, leg.distance, 0.75 * metres[0]!, 0.01, 'metres');
  near(t, leg.duration, (1 - start.fraction) * 20 + 5 + end.fraction * 15, 1e-9, 'seconds');
  near(t, leg.segments[0]!.duration, leg.duration, 1e-9, "the run's seconds");
  // What no span took, the road beyond's seconds (5 s waited), is on the last piece.
  near(t, leg.spans.at(-1)!.seconds, 5, 0.01, "the last span's seconds");
  checkSpans(t, leg);
});
