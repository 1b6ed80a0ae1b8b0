/**
 * Restricted roads (private, destination…) in the routing core, on hand-written OSM (see
 * restricted-routes.osm): a route reaches a destination on one and starts on one, goes round one
 * between public points unless it is the only way, and its duration is the travel time, without
 * the restricted-access penalty that steered it; alternatives to a private destination are as fast
 * as any others; a reach (isochrone) times every road as the route there.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRoutingGraph } from '../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import type { ReachedPiece, RouteLeg } from '../workers/routing/path.js';
import { alternatives } from '../workers/routing/graph/alternatives.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../core/routing/graph-file.js';
import { reach } from '../workers/routing/graph/reach.js';
import { route } from '../workers/routing/graph/route.js';
import { snap, type Snap } from '../workers/routing/graph/snap.js';
import { haversine } from './helpers/routing.js';
import type { LonLat } from '../core/geo/types.js';

/** Residential streets, metres per second. */
const SPEED = 25 / 3.6;

let dir = '';
let graph: RoutingGraph;
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-routing-restricted-'));
  const { driving } = await readRoadNetworks(
    [join(process.cwd(), 'test', 'fixtures', 'osm', 'routing', 'restricted-routes.osm')],
    () => {},
  );
  const file = join(dir, 'driving.graph');
  writeRoutingGraph(driving, file);
  graph = openRoutingGraph(loadRoutingGraph(file).shared);
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** A position snapped within 100 m (the fixture's three networks are each a component of their own). */
function at(lat: number, lon: number): Snap {
  const snapped = snap(graph, lon, lat, 100);
  if (snapped === null) throw new Error(`nothing within 100 m of ${lat},${lon}`);
  return snapped;
}

const names = (leg: RouteLeg) => leg.segments.map((segment) => segment.name);

/** The travel time of a leg at the streets' speed, to compare with its duration. */
const travelSeconds = (leg: RouteLeg) => leg.distance / SPEED;

test('a route between two public points goes round a private road, not through it', (t) => {
  const leg = route(graph, at(48.0005, 7.9999), at(48.0005, 8.0061))!;
  t.deepEqual(names(leg), ['Westweg', 'Nordweg', 'Ostweg']);
  t.true(leg.distance > 1200, `${leg.distance} m`);
});

test('a route reaches a destination on a private road; its duration is the travel time, without the penalty', (t) => {
  const leg = route(graph, at(48.0035, 7.9999), at(48.0049, 8.0031))!;
  t.deepEqual(names(leg), ['Westweg', 'Nordweg', 'Einfahrt']);
  t.true(Math.abs(leg.duration - travelSeconds(leg)) < 1, `${leg.duration} s for ${leg.distance} m`);
});

test('a route starts on a private road', (t) => {
  const leg = route(graph, at(48.0049, 8.0031), at(48.0035, 7.9999))!;
  t.deepEqual(names(leg), ['Einfahrt', 'Nordweg', 'Westweg']);
  t.true(Math.abs(leg.duration - travelSeconds(leg)) < 1, `${leg.duration} s`);
});

test('a private road that is the only way carries the route, at its travel time', (t) => {
  const leg = route(graph, at(48.0101, 8.001), at(48.0101, 8.005))!;
  t.deepEqual(names(leg), ['Dorfstraße', 'Hofweg', 'Feldstraße']);
  t.true(Math.abs(leg.duration - travelSeconds(leg)) < 1, `${leg.duration} s`);
});

test('a route to a private road has the alternatives any route has: not much slower than itself', (t) => {
  const narrow = { from: at(48.0199, 8.0005), to: at(48.0235, 8.0001) };
  const best = route(graph, narrow.from, narrow.to)!;
  t.deepEqual(names(best), ['Unten', 'Linke Seite', 'Zufahrt']);
  const [other, ...more] = alternatives(graph, narrow.from, narrow.to, 2);
  t.deepEqual(names(other!), ['Unten', 'Rechte Seite', 'Oben', 'Zufahrt'], 'round a narrow block: 1.2 × as long');
  t.true(other!.duration <= 1.4 * best.duration, `${other!.duration} s against ${best.duration} s`);
  t.is(more.length, 0);
  // The penalty, in both routes' weights, does not widen the 1.4 × the best route's.
  const wide = { from: at(48.0299, 8.003), to: at(48.0315, 8.0001) };
  t.deepEqual(names(route(graph, wide.from, wide.to)!), ['Südseite', 'Westende', 'Hofzufahrt']);
  t.deepEqual(alternatives(graph, wide.from, wide.to, 2).map(names), [], 'round a wide block: twice as long');
});

test('a way mapped again on the same nodes as a destination-only way is that way only, as OSRM keeps one per node pair', (t) => {
  // Durchgang and Anlieger share their last two segments; equally quick, OSRM keeps the name that
  // sorts first (car/destination.feature:85), so passing there costs the restricted-access penalty.
  const durchgang = at(48.04, 8.0005);
  const ende = at(48.04, 8.0055);
  t.deepEqual(names(route(graph, durchgang, ende)!), ['Durchgang', 'Umweg', 'Ende'], 'round the destination-only part');
  t.deepEqual(names(route(graph, ende, at(48.04, 8.0025))!), ['Ende', 'Anlieger'], 'a destination on it is reached on it');
});

test("a point beside a private service road snaps to the street it leaves, as OSRM's car takes no start point there; snapping=any takes it", (t) => {
  const nameAt = (lon: number, anySegment: boolean) => {
    const snapped = snap(graph, lon, 48.0504, 100, { anySegment });
    return snapped === null ? null : graph.strings[graph.segmentName[snapped.segment]!];
  };
  // 7 m from the driveway's (or the private street's) line, 44 m from Dorfplatz.
  t.is(nameAt(8.0021, false), 'Dorfplatz');
  t.is(nameAt(8.0021, true), 'Hofeinfahrt');
  t.is(nameAt(8.0041, false), 'Privatstraße', 'a private street is a start point');
});

/** The least seconds at which the reach gets to a position (a point of some piece within 1 m), undefined when it does not. */
function secondsAt(pieces: ReachedPiece[], position: LonLat): number | undefined {
  let best: number | undefined;
  for (const { coordinates, seconds } of pieces) {
    coordinates.forEach((point, i) => {
      if (haversine(point, position) < 1 && (best === undefined || seconds[i]! < best)) best = seconds[i]!;
    });
  }
  return best;
}

test('a reach times each road as the route there: private roads at their travel time, public ones not through them unless only that way', (t) => {
  const westweg = at(48.0005, 7.9999);
  const pieces = reach(graph, westweg, 300);
  const seconds = (lat: number, lon: number) => secondsAt(pieces, [lon, lat]);
  const expect = (actual: number | undefined, metres: number, what: string) =>
    t.true(actual !== undefined && Math.abs(actual - metres / SPEED) < 2, `${what}: ${actual} s, ${Math.round(metres / SPEED)} s expected`);
  // Metres along the streets from the start, 56 m north of the square's south-west corner.
  expect(seconds(48.005, 8.003), 389 + 223 + 111, 'the end of Einfahrt');
  expect(seconds(48.0, 8.006), 56 + 447, 'the east end of Privatgasse');
  expect(seconds(48.001, 8.006), 389 + 447 + 334, 'Ostweg, by Nordweg rather than Privatgasse');
  const dorfstrasse = reach(graph, at(48.0101, 8.001), 300);
  const feldstrasse = secondsAt(dorfstrasse, [8.006, 48.01]);
  t.true(
    feldstrasse !== undefined && Math.abs(feldstrasse - 372 / SPEED) < 2,
    `the end of Feldstraße, only behind the private Hofweg: ${feldstrasse} s`,
  );
});
