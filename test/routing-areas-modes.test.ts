/**
 * Areas and travel modes of walkers and cyclists through the whole pipeline (OSM → network → graph
 * → route → OSRM body), on hand-written OSM (areas-and-modes.osm): the outline of a pedestrian
 * square and of a car park mapped without a highway tag is walked and ridden, not driven (OSRM
 * foot.lua and bicycle.lua; car.lua avoids areas), and one with a single entrance is gone round
 * either way; a cyclist pushes against a oneway and rides along it, each direction with its own
 * mode; a bicycle is carried on a railway with bicycle=yes (mode `train`); no route starts or ends
 * on a ferry or a train (OSRM `is_startpoint`); a point at a junction may start on any segment there.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoadNetwork, TravelMode } from '../core/routing/network.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import type { Request } from '../src/http/request.js';
import { answerDirections } from '../workers/routing/answer/directions.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { graphOf } from './helpers/routing.js';
import { route } from '../workers/routing/graph/route.js';
import { snap, type Snap } from '../workers/routing/graph/snap.js';
import { osrmRouteRequest } from '../src/routing/osrm/requests.js';
import type { RouteLeg } from '../workers/routing/path.js';

const MODES = ['driving', 'walking', 'cycling'] as const satisfies readonly TravelMode[];

let dir = '';
let networks: Record<TravelMode, RoadNetwork>;
const graphs = {} as Record<TravelMode, RoutingGraph>;
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-routing-areas-'));
  networks = await readRoadNetworks([join(process.cwd(), 'test', 'fixtures', 'osm', 'routing', 'areas-and-modes.osm')], () => {});
  for (const mode of MODES) graphs[mode] = graphOf(networks[mode], join(dir, `${mode}.graph`));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const usesWay = (mode: TravelMode, wayId: number) => networks[mode].segments.wayId.includes(wayId);

function at(mode: TravelMode, lat: number, lon: number): Snap {
  const snapped = snap(graphs[mode], lon, lat, 100);
  if (snapped === null) throw new Error(`${mode}: nothing within 100 m of ${lat},${lon}`);
  return snapped;
}

function leg(mode: TravelMode, from: [number, number], to: [number, number]): RouteLeg {
  const found = route(graphs[mode], at(mode, ...from), at(mode, ...to));
  if (found === null) throw new Error(`${mode}: no route`);
  return found;
}

const names = (leg: RouteLeg) => leg.segments.map((segment) => segment.name);
const travels = (leg: RouteLeg) => leg.segments.map((segment) => segment.travel);

/** The `mode` of each step of the OSRM body, as OSRM's cucumber harness lists them. */
function stepModes(mode: TravelMode, from: [number, number], to: [number, number]): string[] {
  const coords = [from, to].map(([lat, lon]) => `${lon},${lat}`).join(';');
  const request = osrmRouteRequest({
    query: new URLSearchParams({ steps: 'true' }),
    params: { profile: mode, coords },
  } as unknown as Request);
  const answer = answerDirections(graphs[mode], request.params);
  if (!answer.ok) throw new Error(`${mode}: ${answer.message}`);
  const body = JSON.parse(answer.body) as { routes: { legs: { steps: { mode: string }[] }[] }[] };
  return body.routes[0]!.legs.flatMap((l) => l.steps.map((step) => step.mode));
}

test('walkers and cyclists go along the outline of a pedestrian square (area=yes); cars do not use it', (t) => {
  t.false(usesWay('driving', 2));
  for (const mode of ['walking', 'cycling'] as const) {
    // From the north side near its east end to the south side: round the east corners (185 m), not the west ones (333 m).
    const found = leg(mode, [48.0, 8.0035], [47.999, 8.0035]);
    t.deepEqual(names(found), ['Marktplatz'], mode);
    t.true(Math.abs(found.distance - 185) < 3, `${mode}: ${found.distance} m`);
  }
  t.deepEqual(travels(leg('cycling', [48.0, 8.0035], [47.999, 8.0035])), ['pushing'], 'a pedestrian square is pushed');
});

test('a closed way with one entrance is gone round either way: past its entrance corner too', (t) => {
  for (const mode of ['walking', 'cycling'] as const) {
    // From the north side near its west end to the south side: round the west corners, past Zufahrt's end (185 m, not 333 m).
    const found = leg(mode, [48.0, 8.0025], [47.999, 8.0025]);
    t.deepEqual(names(found), ['Marktplatz'], mode);
    t.true(Math.abs(found.distance - 185) < 3, `${mode}: ${found.distance} m`);
  }
});

test('walkers and cyclists go along the outline of a car park without a highway tag; cars do not use it', (t) => {
  t.false(usesWay('driving', 4));
  const walked = leg('walking', [48.01, 8.0035], [48.009, 8.0035]);
  const ridden = leg('cycling', [48.01, 8.0035], [48.009, 8.0035]);
  t.deepEqual(names(walked), ['Parkplatz']);
  t.deepEqual(names(ridden), ['Parkplatz']);
  t.deepEqual(travels(ridden), ['default'], 'a car park is ridden (OSRM amenity_speeds)');
  t.true(Math.abs(walked.duration - walked.distance / (5 / 3.6)) < 1, `walking: ${walked.duration} s for ${walked.distance} m`);
  t.true(Math.abs(ridden.duration - ridden.distance / (10 / 3.6)) < 1, `cycling: ${ridden.duration} s for ${ridden.distance} m`);
});

test('a cyclist rides along a oneway and pushes against it: the mode of the direction travelled', (t) => {
  const west: [number, number] = [48.02, 8.0005];
  const east: [number, number] = [48.02, 8.0035];
  t.deepEqual(travels(leg('cycling', west, east)), ['default']);
  t.deepEqual(travels(leg('cycling', east, west)), ['pushing']);
  t.deepEqual(stepModes('cycling', west, east), ['cycling', 'cycling']);
  t.deepEqual(stepModes('cycling', east, west), ['pushing bike', 'pushing bike']);
});

test('a bicycle is carried on a railway with bicycle=yes (mode train); walkers and cars do not use it', (t) => {
  t.false(usesWay('walking', 7));
  t.false(usesWay('driving', 7));
  for (const [from, to] of [
    [
      [48.03, 8.001],
      [48.03, 8.009],
    ],
    [
      [48.03, 8.009],
      [48.03, 8.001],
    ],
  ] as [number, number][][]) {
    const found = leg('cycling', from!, to!);
    const expected =
      from![1] < to![1] ? ['Bahnhofstraße', 'Regionalbahn', 'Hafenstraße'] : ['Hafenstraße', 'Regionalbahn', 'Bahnhofstraße'];
    t.deepEqual(names(found), expected);
    t.deepEqual(travels(found), ['default', 'train', 'default']);
    t.deepEqual(stepModes('cycling', from!, to!), ['cycling', 'train', 'cycling', 'cycling']);
  }
});

test('a route neither starts nor ends on a ferry or a train: a point beside one snaps to the nearest road', (t) => {
  for (const mode of MODES) t.is(at(mode, 48.0401, 8.0025).name, 'Fährweg', `${mode}: beside the ferry`);
  t.is(at('cycling', 48.0301, 8.0025).name, 'Bahnhofstraße', 'beside the railway');
  // Further from any road than from the ferry: nothing within the radius, rather than a start on board.
  for (const mode of MODES) t.is(snap(graphs[mode], 8.006, 48.0401, 100), null, mode);
});

test('a point at a junction is on every segment that meets there: the route starts on the one it takes', (t) => {
  // Node 12: Zufahrt's end and the square's corner, where the square's two halves meet.
  for (const mode of ['walking', 'cycling'] as const) {
    const corner = at(mode, 48.0, 8.002);
    const on = [corner, ...(corner.alsoOn ?? [])];
    t.deepEqual(on.map((snapped) => snapped.name).sort(), ['Marktplatz', 'Marktplatz', 'Zufahrt'], mode);
    t.deepEqual(
      on.map((snapped) => snapped.segment).sort(),
      [...new Set(on.map((snapped) => snapped.segment))].sort(),
      'each segment once',
    );
    t.is(at(mode, 48.0, 8.0019).alsoOn, undefined, `${mode}: 7 m along Zufahrt, on Zufahrt only`);
  }
  t.deepEqual(stepModes('cycling', [48.0, 8.002], [48.0, 8.0035]), ['pushing bike', 'pushing bike'], 'from the corner onto the square');
  t.deepEqual(stepModes('cycling', [48.0, 8.0035], [48.0, 8.002]), ['pushing bike', 'pushing bike'], 'from the square to the corner');
});

test('a route off a train to the junction beyond it ends on the train: no sliver of the road past the junction', (t) => {
  // 3 mm west of node 42, where the railway meets Bahnhofstraße: the railway is no end point, so the
  // point snaps onto Bahnhofstraße 3 mm before its end, and the leg drops the millimetres past the junction.
  const found = leg('cycling', [48.03, 8.009], [48.03, 8.00199996]);
  t.deepEqual(names(found), ['Hafenstraße', 'Regionalbahn']);
  t.deepEqual(stepModes('cycling', [48.03, 8.009], [48.03, 8.00199996]), ['cycling', 'train', 'train']);
  t.deepEqual(stepModes('cycling', [48.03, 8.00199996], [48.03, 8.009]), ['train', 'cycling', 'cycling'], 'and from it');
});
