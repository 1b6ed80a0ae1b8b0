import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRAVEL_KINDS, isRestrictedDirection, type RoadNetwork, type TravelMode } from '../core/routing/network.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { parseDuration } from '../data-pipeline/routing/profiles/duration.js';
import { parseMaxspeed } from '../data-pipeline/routing/profiles/maxspeed.js';
import { parseOneway } from '../data-pipeline/routing/profiles/oneway.js';
import { parseKilograms, parseMetres } from '../data-pipeline/routing/profiles/vehicle-size.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const fixture = (name: string) => join(process.cwd(), 'test', 'fixtures', 'osm', 'routing', name);

const networksOf = (...names: string[]) => readRoadNetworks(names.map(fixture), () => {});

/** Segment s of the network as one object, to read in tests. */
function segmentAt(network: RoadNetwork, s: number) {
  const c = network.segments;
  const seconds = (value: number) => (Number.isNaN(value) ? null : value);
  return {
    from: c.from[s]!,
    to: c.to[s]!,
    coordinates: Array.from(c.coordinates.subarray(2 * c.pointFirst[s]!, 2 * c.pointFirst[s + 1]!), (value) => value / 1e7),
    distance: c.distance[s]!,
    forwardSeconds: seconds(c.forwardSeconds[s]!),
    backwardSeconds: seconds(c.backwardSeconds[s]!),
    name: network.strings[c.name[s]!]!,
    ref: network.strings[c.ref[s]!]!,
    roundabout: c.roundabout[s] === 1,
    travel: TRAVEL_KINDS[c.travel[s]!]!,
    backwardTravel: TRAVEL_KINDS[c.backwardTravel[s]!]!,
    forwardRestricted: isRestrictedDirection(c.restricted, 2 * s),
    backwardRestricted: isRestrictedDirection(c.restricted, 2 * s + 1),
    wayId: c.wayId[s]!,
  };
}
type Segment = ReturnType<typeof segmentAt>;

const segmentsOf = (network: RoadNetwork, wayId: number): Segment[] =>
  Array.from({ length: network.segments.count }, (_, s) => s)
    .filter((s) => network.segments.wayId[s] === wayId)
    .map((s) => segmentAt(network, s));

const restrictionsOf = (network: RoadNetwork) => {
  const r = network.restrictions;
  return Array.from({ length: r.count }, (_, i) => ({
    kind: r.only[i] ? 'only' : 'no',
    fromWay: r.fromWay[i]!,
    via: r.via[i]!,
    toWay: r.toWay[i]!,
  }));
};

/** lon, lat of a junction: the end of a segment there. */
function junctionPosition(network: RoadNetwork, junction: number): number[] {
  for (let s = 0; s < network.segments.count; s++) {
    const { coordinates } = segmentAt(network, s);
    if (network.segments.from[s] === junction) return coordinates.slice(0, 2);
    if (network.segments.to[s] === junction) return coordinates.slice(-2);
  }
  throw new Error(`no segment at junction ${junction}`);
}

/** Which directions of a way the network opens: 'both', 'forward', 'backward' or 'none' (not in the network). */
function directions(network: RoadNetwork, wayId: number): 'both' | 'forward' | 'backward' | 'none' {
  const segments = segmentsOf(network, wayId);
  if (segments.length === 0) return 'none';
  const forward = segments.every((s) => s.forwardSeconds !== null);
  const backward = segments.every((s) => s.backwardSeconds !== null);
  return forward && backward ? 'both' : forward ? 'forward' : backward ? 'backward' : 'none';
}

/** Which directions of a way are restricted (used only to reach a destination on it): 'both', 'forward', 'backward' or 'none'. */
function restrictedDirections(network: RoadNetwork, wayId: number): 'both' | 'forward' | 'backward' | 'none' {
  const segments = segmentsOf(network, wayId);
  const forward = segments.length > 0 && segments.every((s) => s.forwardRestricted);
  const backward = segments.length > 0 && segments.every((s) => s.backwardRestricted);
  return forward && backward ? 'both' : forward ? 'forward' : backward ? 'backward' : 'none';
}

/** km/h of the way's first segment in one direction (null: closed). */
function kmh(network: RoadNetwork, wayId: number, direction: 'forward' | 'backward' = 'forward'): number | null {
  const segment = segmentsOf(network, wayId)[0]!;
  const seconds = direction === 'forward' ? segment.forwardSeconds : segment.backwardSeconds;
  return seconds === null ? null : Math.round((segment.distance / seconds) * 3.6 * 100) / 100;
}

const only = (network: RoadNetwork, wayId: number): Segment => {
  const segments = segmentsOf(network, wayId);
  if (segments.length !== 1) throw new Error(`way ${wayId}: ${segments.length} segments in the ${network.mode} network`);
  return segments[0]!;
};

test('a segment: polyline, haversine distance, seconds from the speed, labels', async (t) => {
  const { driving } = await networksOf('oneway-roundabout.osm');
  const loop = only(driving, 1);
  t.is(loop.coordinates.length, 10);
  t.is(loop.from, loop.to, 'a closed way starts and ends at one junction');
  t.true(loop.roundabout);
  t.is(loop.name, 'Kreisel');
  t.is(loop.ref, '');
  t.is(loop.travel, 'default');
  // Four sides of ~0.001°: ≈ 4 × 131 m (diagonal of 74 m × 111 m).
  t.true(Math.abs(loop.distance - 4 * Math.hypot(74.4, 111.2)) < 2, `${loop.distance}`);
  t.is(kmh(driving, 1), 40, 'tertiary');
  t.is(driving.junctionCount, 1);
});

test('oneway=yes: cars one way, cyclists push back, walkers both ways', async (t) => {
  const { driving, cycling, walking } = await networksOf('oneway.osm');
  t.is(directions(driving, 1), 'forward');
  t.is(directions(walking, 1), 'both');
  const bike = only(cycling, 1);
  t.is(kmh(cycling, 1), 15);
  t.is(kmh(cycling, 1, 'backward'), 4);
  t.is(bike.travel, 'default');
  t.is(bike.backwardTravel, 'pushing');
});

test('oneway=-1: only against the node order', async (t) => {
  const { driving, walking } = await networksOf('oneway-reverse.osm');
  t.is(directions(driving, 1), 'backward');
  t.is(directions(walking, 1), 'both');
});

test('implied oneways: motorway (unless oneway=no) and roundabout, not motorway_link', async (t) => {
  const { driving, walking, cycling } = await networksOf('oneway-motorway.osm');
  t.is(directions(driving, 1), 'forward');
  t.is(directions(driving, 2), 'both');
  t.is(directions(driving, 3), 'both');
  t.is(kmh(driving, 1), 90);
  t.is(directions(walking, 1), 'none', 'no walking on motorways');
  t.is(directions(cycling, 1), 'none');
  const roundabout = await networksOf('oneway-roundabout.osm');
  t.is(directions(roundabout.driving, 1), 'forward');
  t.is(directions(roundabout.cycling, 1), 'forward', 'no pushing back round a roundabout');
  t.is(directions(roundabout.walking, 1), 'both');
});

test('oneway:bicycle=no and a contraflow lane open a oneway to bicycles both ways', async (t) => {
  const { driving, cycling } = await networksOf('oneway-bicycle-no.osm');
  for (const way of [1, 2]) {
    t.is(directions(driving, way), 'forward');
    t.is(directions(cycling, way), 'both');
    t.is(kmh(cycling, way, 'backward'), 15);
    t.is(only(cycling, way).backwardTravel, 'default');
  }
});

test('walkers ignore oneway but obey oneway:foot', async (t) => {
  const { walking } = await networksOf('oneway-foot.osm');
  t.is(directions(walking, 1), 'both');
  t.is(directions(walking, 2), 'forward');
});

test('driving access: motorcar > motor_vehicle > vehicle > access', async (t) => {
  const { driving, cycling, walking } = await networksOf('access-driving.osm');
  t.is(directions(driving, 1), 'both', 'motor_vehicle=no, motorcar=yes');
  t.is(directions(driving, 2), 'none', 'motor_vehicle=no');
  t.is(directions(cycling, 2), 'both');
  t.is(directions(walking, 2), 'both');
  t.is(directions(driving, 3), 'both', 'access=no, vehicle=yes');
  t.is(directions(walking, 3), 'none');
  t.is(directions(driving, 4), 'both', 'vehicle=no, motor_vehicle=destination');
  t.is(directions(cycling, 4), 'none');
  t.is(directions(driving, 5), 'both', 'access=private: restricted, not closed');
  t.is(directions(driving, 6), 'both', 'access=destination');
  t.is(kmh(driving, 7), 10, 'a track opened by motor_vehicle=yes: default speed');
  t.is(directions(driving, 8), 'none', 'a track');
  t.is(directions(walking, 8), 'both');
  t.is(directions(driving, 9), 'none', 'access=agricultural');
});

test('cycling access: bicycle > vehicle > access', async (t) => {
  const { cycling, driving, walking } = await networksOf('access-cycling.osm');
  t.is(directions(cycling, 1), 'both', 'vehicle=no, bicycle=yes');
  t.is(directions(driving, 1), 'none');
  t.is(directions(cycling, 2), 'none', 'vehicle=no');
  t.is(directions(walking, 2), 'both');
  t.is(directions(cycling, 3), 'both', 'access=no, bicycle=designated');
  t.is(directions(cycling, 4), 'none', 'cycleway, bicycle=no');
  t.is(directions(cycling, 5), 'none', 'access=private');
  t.is(directions(cycling, 6), 'none', 'bicycle=use_sidepath');
});

test('walking access: foot > access', async (t) => {
  const { walking } = await networksOf('access-walking.osm');
  t.is(directions(walking, 1), 'both', 'access=no, foot=yes');
  t.is(directions(walking, 2), 'none', 'footway, foot=no');
  t.is(directions(walking, 3), 'none', 'access=private');
  t.is(kmh(walking, 4), 5, 'cycleway with foot=designated');
  t.is(directions(walking, 5), 'none', 'motorway');
  t.is(directions(walking, 6), 'none', 'cycleway without foot access');
});

test("access by direction: :forward and :backward at every level of each mode's keys", async (t) => {
  const { driving, cycling, walking } = await networksOf('access-direction.osm');
  t.is(directions(driving, 1), 'forward', 'motor_vehicle:backward=no');
  t.is(directions(cycling, 1), 'both');
  t.is(directions(cycling, 2), 'backward', 'bicycle:forward=no');
  t.is(directions(driving, 2), 'both');
  t.is(directions(walking, 3), 'forward', 'foot:backward=no');
  t.is(directions(driving, 3), 'both');
  t.is(directions(driving, 4), 'backward', 'vehicle:forward=no');
  t.is(directions(cycling, 4), 'backward');
  t.is(directions(walking, 4), 'both');
});

test('a class opened by a directional access value is open in that direction only', async (t) => {
  const { driving } = await networksOf('access-direction.osm');
  t.is(directions(driving, 5), 'forward', 'track, motor_vehicle:forward=yes');
});

test('conditional tags are not access or oneway values', async (t) => {
  const networks = await networksOf('access-direction.osm');
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) t.is(directions(networks[mode], 6), 'both', mode);
});

test('private, destination, delivery, customers and HOV roads are restricted for cars, not closed; a private ferry is closed', async (t) => {
  const { driving, walking, cycling } = await networksOf('access-restricted.osm');
  for (const way of [1, 2, 3, 4, 7]) {
    t.is(directions(driving, way), 'both', `way ${way}`);
    t.is(restrictedDirections(driving, way), 'both', `way ${way}`);
  }
  t.is(directions(driving, 5), 'none', 'route=ferry, access=private: no road class');
  t.is(directions(driving, 6), 'both');
  t.is(restrictedDirections(driving, 6), 'forward', 'motorcar:forward=private');
  t.is(directions(walking, 1), 'none', 'private closes a way to walkers');
  t.is(directions(cycling, 1), 'none', 'and to cyclists');
  t.is(restrictedDirections(walking, 2), 'none', 'walking has no restricted roads');
});

test('cars never take steps or emergency access roads, whatever access says', async (t) => {
  const { driving, walking } = await networksOf('driving-never.osm');
  t.is(directions(driving, 1), 'none', 'steps, motor_vehicle=yes');
  t.is(directions(driving, 2), 'none', 'steps, access=yes');
  t.is(directions(walking, 1), 'both');
  t.is(directions(driving, 3), 'none', 'service=emergency_access');
  t.is(directions(walking, 3), 'both');
});

test("height, width, length and weight limits below a car's close a way (or one direction) to cars", async (t) => {
  const { driving, walking } = await networksOf('vehicle-size.osm');
  for (const way of [1, 2, 3, 4, 5]) t.is(directions(driving, way), 'none', `way ${way}`);
  t.is(directions(driving, 6), 'backward', 'maxheight:forward=1.8');
  t.is(directions(driving, 7), 'both', 'limits a car is within');
  t.is(directions(walking, 1), 'both');
});

test('a pier is walked and cycled (pushed, or ridden with bicycle=yes), not driven', async (t) => {
  const { driving, walking, cycling } = await networksOf('pier.osm');
  t.is(kmh(walking, 2), 5);
  t.is(only(walking, 1).to, only(walking, 2).from, 'the pier joins the footway');
  t.is(only(cycling, 2).travel, 'pushing');
  t.is(kmh(cycling, 2), 4);
  t.is(only(cycling, 3).travel, 'default');
  t.is(kmh(cycling, 3), 15);
  t.is(directions(driving, 2), 'none');
});

test('a bridleway with foot=yes takes walkers and pushed bicycles, in the directions foot opens', async (t) => {
  const { walking, cycling } = await networksOf('bridleway.osm');
  t.is(kmh(walking, 1), 5);
  t.is(directions(walking, 1), 'both');
  t.is(only(cycling, 1).travel, 'pushing');
  t.is(directions(cycling, 1), 'both');
  t.is(kmh(cycling, 1), 4);
  t.is(directions(walking, 2), 'none', 'a bridleway without foot access');
  t.is(directions(cycling, 2), 'none');
  t.is(directions(walking, 3), 'forward', 'foot:forward=yes');
  t.is(directions(cycling, 3), 'forward');
});

/** Whether the mode passes the middle node of way 1: the way is not cut there, or its two segments meet at one junction. */
function connectedAtMiddle(network: RoadNetwork, wayId = 1): boolean {
  const [west, east] = segmentsOf(network, wayId);
  if (west === undefined) throw new Error(`way ${wayId} is not in the ${network.mode} network`);
  return east === undefined || west.to === east.from;
}

test('a bollard splits a street for cars only', async (t) => {
  const networks = await networksOf('barrier-bollard.osm');
  t.false(connectedAtMiddle(networks.driving));
  t.true(connectedAtMiddle(networks.cycling));
  t.true(connectedAtMiddle(networks.walking));
  const [west, east] = segmentsOf(networks.driving, 1);
  t.deepEqual(west!.coordinates.slice(-2), east!.coordinates.slice(0, 2), 'both sides at the bollard');
  t.deepEqual([west!.forwardSeconds !== null, east!.backwardSeconds !== null], [true, true], 'each side stays a dead end');
});

test('a private gate lets cars through as a restricted road would, stops bicycles; foot=yes on it lets walkers through', async (t) => {
  const networks = await networksOf('barrier-gate-private.osm');
  t.true(connectedAtMiddle(networks.driving));
  t.is(segmentsOf(networks.driving, 1).length, 2, 'the gate is a junction');
  t.is(restrictedDirections(networks.driving, 1), 'both', 'both sides of the gate are restricted');
  t.false(connectedAtMiddle(networks.cycling));
  t.true(connectedAtMiddle(networks.walking));
  t.is(restrictedDirections(networks.walking, 1), 'none');
});

test('access tags on a plain node block the modes they apply to', async (t) => {
  const { driving, cycling, walking } = await networksOf('node-access.osm');
  const blocked = (network: RoadNetwork, way: number) => !connectedAtMiddle(network, way);
  t.deepEqual([blocked(driving, 1), blocked(cycling, 1), blocked(walking, 1)], [true, true, true], 'access=no');
  t.deepEqual([blocked(driving, 2), blocked(cycling, 2), blocked(walking, 2)], [true, true, false], 'vehicle=no');
  t.deepEqual([blocked(driving, 3), blocked(cycling, 3), blocked(walking, 3)], [false, false, true], 'foot=private');
  t.deepEqual([blocked(driving, 4), blocked(cycling, 4), blocked(walking, 4)], [false, true, false], 'bicycle=delivery');
  t.deepEqual([blocked(driving, 5), blocked(cycling, 5), blocked(walking, 5)], [true, false, false], 'motor_vehicle=forestry');
});

test('bicycle=no on a crossing node does not stop cyclists riding along the road', async (t) => {
  const { cycling } = await networksOf('node-access.osm');
  t.true(connectedAtMiddle(cycling, 6));
});

test('a lift gate lets everyone through, and so do a bollard with motorcar=yes and an arch', async (t) => {
  const networks = await networksOf('barrier-lift-gate.osm');
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) {
    // Not a barrier: the middle node is no junction, the way stays one segment.
    t.is(segmentsOf(networks[mode], 1).length, 1, mode);
  }
  t.is(segmentsOf(networks.driving, 2).length, 1);
  t.is(segmentsOf(networks.driving, 3).length, 1, 'barrier=arch');
});

test("a kerb stops cars unless lowered, flush, or a crossing's kerb on the road", async (t) => {
  const { driving, walking } = await networksOf('barrier-kerb.osm');
  t.false(connectedAtMiddle(driving, 1), 'barrier=kerb');
  t.true(connectedAtMiddle(driving, 2), 'kerb=lowered');
  t.true(connectedAtMiddle(driving, 3), 'highway=crossing');
  t.true(connectedAtMiddle(driving, 4), 'kerb=flush');
  t.true(connectedAtMiddle(walking, 1));
});

test('a height restrictor lower than a car (2 m) stops cars', async (t) => {
  const { driving, walking } = await networksOf('barrier-height.osm');
  t.false(connectedAtMiddle(driving, 1), 'maxheight=1.9');
  t.true(connectedAtMiddle(driving, 2), 'maxheight=2.5');
  t.false(connectedAtMiddle(driving, 3), 'maxheight=6\'3"');
  t.true(connectedAtMiddle(driving, 4), 'maxheight=default');
  t.true(connectedAtMiddle(walking, 1));
});

test('a wall stops every mode', async (t) => {
  const networks = await networksOf('barrier-wall.osm');
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) t.false(connectedAtMiddle(networks[mode]), mode);
});

const CENTRE = { lon: 8.001, lat: 48.001 };

test('no_left_turn: a driving restriction from way, via the junction of the node, to way', async (t) => {
  const { driving, walking, cycling } = await networksOf('restriction-no-left-turn.osm');
  t.is(driving.restrictions.count, 1);
  const restriction = restrictionsOf(driving)[0]!;
  t.like(restriction, { kind: 'no', fromWay: 1, toWay: 3 });
  t.deepEqual(junctionPosition(driving, restriction.via), [CENTRE.lon, CENTRE.lat]);
  t.is(walking.restrictions.count, 0);
  t.is(cycling.restrictions.count, 0);
});

test('only_straight_on (restriction:motorcar)', async (t) => {
  const { driving } = await networksOf('restriction-only-straight-on.osm');
  t.like(restrictionsOf(driving), [{ kind: 'only', fromWay: 4, toWay: 3 }]);
});

test('restrictions excepting cars, via a way not joined end to end, without a to way or for another vehicle are skipped', async (t) => {
  const phases: { phase: string; done: number; total: number | null }[] = [];
  const { driving } = await readRoadNetworks([fixture('restriction-skipped.osm')], (p) => phases.push(p));
  t.is(driving.restrictions.count, 0);
  t.is(driving.restrictions.pathCount, 0, 'the via way ends where the to way does not: OSRM discards it');
  t.like(
    phases.find((p) => p.phase.startsWith('turn restrictions')),
    { done: 1, total: 2 },
    'the incomplete one is counted out, the via-way one is read',
  );
});

test('restrictions OSRM v6 discards: several from ways unless no_entry, no_*_on_red, a via node inside a way', async (t) => {
  const phases: { phase: string; done: number; total: number | null }[] = [];
  const { driving } = await readRoadNetworks([fixture('restriction-discarded.osm')], (p) => phases.push(p));
  t.like(restrictionsOf(driving), [
    { kind: 'no', fromWay: 1, toWay: 2 },
    { kind: 'no', fromWay: 4, toWay: 2 },
    { kind: 'no', fromWay: 1, toWay: 4 },
  ]);
  t.is(driving.restrictions.count, 3, 'no_entry from two ways is one restriction per from way, as OSRM splits it');
  t.like(
    phases.find((p) => p.phase.startsWith('turn restrictions')),
    { total: 4 },
    'no_turn_on_red is not read',
  );
});

test('ferries: timed by duration, else 5 km/h; travel ferry; closed by access', async (t) => {
  const { driving, walking, cycling } = await networksOf('ferry.osm');
  const timed = only(driving, 1);
  t.is(timed.travel, 'ferry');
  t.is(timed.name, 'Fähre');
  t.is(timed.forwardSeconds, 1800);
  t.is(timed.backwardSeconds, 1800);
  t.is(kmh(driving, 2), 5);
  t.is(only(walking, 2).travel, 'ferry');
  t.is(only(cycling, 2).travel, 'ferry');
  t.is(directions(driving, 3), 'none', 'motor_vehicle=no');
  t.is(directions(walking, 3), 'both');
});

test('maxspeed caps the class speed at 80 % of the limit', async (t) => {
  const { driving, cycling } = await networksOf('maxspeed.osm');
  t.is(kmh(driving, 1), 24, 'primary, maxspeed=30');
  t.is(kmh(driving, 2), 40, 'primary, maxspeed=DE:urban');
  t.is(kmh(driving, 3), 25, 'residential, maxspeed=100: the class speed');
  t.is(kmh(driving, 4), 25.75, 'primary, maxspeed=20 mph');
  t.deepEqual([kmh(driving, 5), kmh(driving, 5, 'backward')], [24, 40], 'maxspeed:forward');
  t.is(kmh(driving, 6), 5.6, 'maxspeed=walk');
  t.is(kmh(cycling, 1), 15, 'bicycles ignore maxspeed');
});

test('cycling: poor surfaces and tracktypes slow bicycles down', async (t) => {
  const { cycling, driving } = await networksOf('cycling-surface.osm');
  t.is(kmh(cycling, 1), 15, 'asphalt');
  t.is(kmh(cycling, 2), 6, 'gravel');
  t.is(kmh(cycling, 3), 8, 'track, grade3');
  t.is(kmh(cycling, 4), 3, 'sand');
  t.is(kmh(driving, 4), 20, 'cars slow down on sand too');
});

test('cycling: pushing on footways, pedestrian streets and steps, riding where bicycle=yes', async (t) => {
  const { cycling, walking } = await networksOf('cycling-pushing.osm');
  for (const way of [1, 2]) {
    t.is(only(cycling, way).travel, 'pushing');
    t.is(kmh(cycling, way), 4);
  }
  t.is(kmh(cycling, 3), 2, 'steps');
  t.is(kmh(walking, 3), 3, 'walkers are slower on steps too');
  t.is(only(cycling, 4).travel, 'default', 'footway with bicycle=yes');
  t.is(kmh(cycling, 4), 15);
  t.is(directions(cycling, 5), 'none', 'no pushing where walking is forbidden');
  t.is(only(cycling, 6).travel, 'pushing', 'bicycle=dismount');
});

test('construction, proposed and impassable ways are left out; areas and reversible ones for cars only', async (t) => {
  const networks = await networksOf('way-filter.osm');
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) {
    for (const way of [2, 3, 4, 5]) t.is(directions(networks[mode], way), 'none', `${mode} way ${way}`);
  }
  t.is(directions(networks.driving, 1), 'none', 'area=yes');
  t.is(directions(networks.walking, 1), 'both', 'walkers go along an area');
  t.is(directions(networks.cycling, 1), 'both', 'cyclists push along a pedestrian area');
  t.is(directions(networks.driving, 6), 'none', 'oneway=reversible');
  t.is(directions(networks.walking, 6), 'both');
  t.is(directions(networks.cycling, 6), 'both', 'bicycles read only yes, -1 and no');
});

test('oneway=alternating is open both ways', async (t) => {
  const networks = await networksOf('way-filter.osm');
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) t.is(directions(networks[mode], 7), 'both', mode);
});

test("junctions: ways split where the mode's ways meet, not where other modes' ways do", async (t) => {
  const { driving, walking } = await networksOf('junctions.osm');
  t.is(segmentsOf(driving, 1).length, 2, 'the footway does not split the street for cars');
  t.is(segmentsOf(walking, 1).length, 3);
  t.is(driving.segments.count, 3);
  t.is(walking.segments.count, 5);
  t.is(driving.junctionCount, 4);
  t.is(walking.junctionCount, 6);
  const [west] = segmentsOf(driving, 1);
  t.is(west!.to, only(driving, 2).from, 'the side street starts at the junction');
  t.deepEqual(west!.coordinates, [8.0, 48.0, 8.001, 48.0]);
});

test('several files: ways meeting at a node id shared across files are joined', async (t) => {
  const { driving } = await networksOf('join-a.osm', 'join-b.osm');
  t.is(only(driving, 1).to, only(driving, 2).from);
  t.is(driving.junctionCount, 3);
  const twice = await networksOf('join-a.osm', 'join-a.osm');
  t.is(twice.driving.segments.count, 1, 'a way in two files is read once');
});

test('tag values: maxspeed, duration, oneway, heights and weights', (t) => {
  t.is(parseMaxspeed('50'), 50);
  t.is(parseMaxspeed('none'), 140);
  t.is(parseMaxspeed('FR:rural'), 80);
  t.is(parseMaxspeed('IT:urban'), 50);
  t.is(parseMaxspeed('signals'), undefined);
  t.is(parseMaxspeed('10 knots'), 18.52);
  t.is(parseDuration('1:30'), 5400);
  t.is(parseDuration('45'), 2700);
  t.is(parseDuration('01:00:30'), 3630);
  t.is(parseDuration('PT1H15M'), 4500);
  t.is(parseDuration('soon'), undefined);
  t.is(parseOneway('-1'), 'backward');
  t.is(parseOneway('alternating'), 'both');
  t.is(parseOneway('reversible'), 'reversible');
  t.is(parseMetres('2.5'), 2.5);
  t.is(parseMetres('2,5 m'), 2.5);
  t.is(Math.round(parseMetres('6\'6"')! * 1000), 1981);
  t.is(parseMetres('default'), undefined);
  t.is(parseKilograms('3.5'), 3500);
  t.is(parseKilograms('7.5 t'), 7500);
  t.is(parseKilograms('1500 kg'), 1500);
  t.is(parseOneway('maybe'), undefined);
});

test("a broken input fails with osmium's own message", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-routing-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const broken = join(dir, 'broken.osm.pbf');
  writeFileSync(broken, 'this is not a PBF file, not at all\n'.repeat(10));
  const error = await t.throwsAsync(readRoadNetworks([broken], () => {}));
  t.regex(error!.message, /^osmium add-locations-to-ways failed on .*broken\.osm\.pbf: \S/);
});

const MONACO = sharedFile('osm', 'monaco.osm.pbf');

dataTest('Monaco: plausible networks for the three modes, with its known oneways and restrictions', [MONACO], async (t) => {
  const phases = new Set<string>();
  const networks = await readRoadNetworks([MONACO], (p) => phases.add(p.phase));
  t.true(phases.has('read OSM roads'));
  for (const mode of ['driving', 'cycling', 'walking'] as TravelMode[]) {
    const network = networks[mode];
    t.is(network.mode, mode);
    const { segments } = network;
    t.true(segments.count > 2000, `${mode}: ${segments.count} segments`);
    const km = segments.distance.reduce((sum, metres) => sum + metres, 0) / 1000;
    t.true(km > 300 && km < 600, `${mode}: ${km} km`);
    for (let s = 0; s < segments.count; s++) {
      const points = segments.pointFirst[s + 1]! - segments.pointFirst[s]!;
      if (segments.from[s]! >= network.junctionCount || segments.to[s]! >= network.junctionCount || points < 2)
        t.fail(`bad segment of way ${segments.wayId[s]}`);
    }
  }
  t.true(networks.walking.segments.count > networks.driving.segments.count);
  // Avenue Princesse Alice and Boulevard du Jardin Exotique: oneway=yes; Avenue Albert II: a roundabout.
  for (const way of [4097656, 4226610, 4229900]) t.is(directions(networks.driving, way), 'forward', `way ${way}`);
  t.is(directions(networks.walking, 4097656), 'both');
  t.true(networks.driving.restrictions.count >= 20, `${networks.driving.restrictions.count} restrictions`);
  t.true(networks.driving.restrictions.only.includes(1));
});
