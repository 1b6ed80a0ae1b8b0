import test, { type ExecutionContext } from 'ava';
import polyline from '@mapbox/polyline';
import type { PathSegment, RouteLeg, SnappedPoint } from '../workers/routing/path.js';
import { directionsBody, type DirectionsOptions } from '../workers/routing/response/directions-body.js';
import type { OsrmGeometry, OsrmStep } from '../workers/routing/response/osrm.js';
import type { LineString } from 'geojson';
import { GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP } from '../core/routing/network.js';
import type { LonLat } from '../core/geo/types.js';

const START: LonLat = [7.42, 43.73];
const METRES_PER_DEGREE = 111_320;

/** The point `east`, `north` metres from `from`. */
const offset = (from: LonLat, east: number, north: number): LonLat => [
  from[0] + east / (METRES_PER_DEGREE * Math.cos((from[1] * Math.PI) / 180)),
  from[1] + north / METRES_PER_DEGREE,
];
const metres = (a: LonLat, b: LonLat) =>
  Math.hypot((a[0] - b[0]) * METRES_PER_DEGREE * Math.cos((a[1] * Math.PI) / 180), (a[1] - b[1]) * METRES_PER_DEGREE);

interface Road {
  name: string;
  ref?: string;
  pronunciation?: string;
  roundabout?: boolean;
  travel?: PathSegment['travel'];
  /** GUIDANCE_RAMP or GUIDANCE_MOTORWAY (a link, a motorway); absent: neither. */
  guidance?: number;
  /** Roads meeting where this road starts, where the other ones lead, and junctions passed along it. */
  junctionRoads?: number;
  junctionExits?: LonLat[];
  junctionsPassed?: number;
  /** Points after the previous road's last one (the first road also gives its start). */
  points: LonLat[];
}

/** A leg along `roads` at 10 m/s. */
function legOf(roads: Road[]): RouteLeg {
  const coordinates: LonLat[] = [];
  const segments: PathSegment[] = [];
  for (const road of roads) {
    const first = Math.max(coordinates.length - 1, 0);
    for (const point of road.points) coordinates.push(point);
    let distance = 0;
    for (let i = first + 1; i < coordinates.length; i++) distance += metres(coordinates[i - 1]!, coordinates[i]!);
    segments.push({
      name: road.name,
      ref: road.ref ?? '',
      pronunciation: road.pronunciation ?? '',
      roundabout: road.roundabout ?? false,
      travel: road.travel ?? 'default',
      guidance: road.guidance ?? 0,
      distance,
      duration: distance / 10,
      first,
      last: coordinates.length - 1,
      ...(road.junctionRoads === undefined ? {} : { junctionRoads: road.junctionRoads }),
      ...(road.junctionExits === undefined ? {} : { junctionExits: road.junctionExits }),
      ...(road.junctionsPassed === undefined ? {} : { junctionsPassed: road.junctionsPassed }),
    });
  }
  const distance = segments.reduce((sum, s) => sum + s.distance, 0);
  // The pieces (for annotations) are not read by these tests.
  return { distance, duration: distance / 10, coordinates, nodes: coordinates.map(() => 0), segments, spans: [] };
}

const snapped = (location: LonLat, name = ''): SnappedPoint => ({ input: offset(location, 3, 4), location, distance: 5, name });

const OPTIONS: DirectionsOptions = { steps: true, geometries: 'geojson', overview: 'full', lang: 'en', mode: 'driving' };
const corner = offset(START, 0, 200);
/** North 200 m on Rue A, then 200 m east (right) or west (left) on Rue B. */
const lShape = (east: number) =>
  legOf([
    { name: 'Rue A', points: [START, offset(START, 0, 100), corner] },
    { name: 'Rue B', points: [offset(corner, east, 0)] },
  ]);

/** The points of a GeoJSON geometry. */
const pointsOf = (geometry: OsrmGeometry | undefined) => (geometry as LineString).coordinates as LonLat[];

const summaryOf = (steps: OsrmStep[]) => steps.map((s) => [s.maneuver.type, s.maneuver.modifier ?? '', s.name, s.maneuver.instruction]);

test('an L-shaped route: depart, turn right, arrive', (t) => {
  const body = directionsBody([[lShape(200)]], [snapped(START, 'Rue A'), snapped(offset(corner, 200, 0), 'Rue B')], OPTIONS);
  t.is(body.code, 'Ok');
  t.deepEqual(summaryOf(body.routes[0]!.legs[0]!.steps), [
    ['depart', '', 'Rue A', 'Head north on Rue A'],
    ['turn', 'right', 'Rue B', 'Turn right onto Rue B'],
    ['arrive', '', 'Rue B', 'You have arrived at your destination'],
  ]);
  const [depart, turn, arrive] = body.routes[0]!.legs[0]!.steps as [OsrmStep, OsrmStep, OsrmStep];
  t.is(depart.maneuver.bearing_after, 0);
  t.is(turn.maneuver.bearing_before, 0);
  t.is(turn.maneuver.bearing_after, 90);
  t.deepEqual(turn.intersections, [{ location: turn.maneuver.location, bearings: [90, 180], entry: [true, true], in: 1, out: 0 }]);
  t.deepEqual(depart.intersections[0]!.bearings, [0]);
  t.is(depart.intersections[0]!.out, 0);
  t.is(arrive.intersections[0]!.in, 0);
  t.is(depart.distance, 200);
  t.is(depart.duration, 20);
  t.is(arrive.distance, 0);
  t.is(body.routes[0]!.legs[0]!.summary, 'Rue A, Rue B');
});

test('an L-shaped route to the left', (t) => {
  const steps = directionsBody([[lShape(-200)]], [snapped(START), snapped(offset(corner, -200, 0))], OPTIONS).routes[0]!.legs[0]!.steps;
  t.deepEqual(summaryOf(steps)[1], ['turn', 'left', 'Rue B', 'Turn left onto Rue B']);
});

test('modifiers follow the angle of the turn', (t) => {
  const cases: [LonLat, string, string][] = [
    [[0, 200], 'new name', 'straight'],
    [[100, 200], 'new name', 'slight right'],
    [[200, -150], 'turn', 'sharp right'],
    [[-200, 0], 'turn', 'left'],
    [[-100, 200], 'new name', 'slight left'],
    [[-200, -150], 'turn', 'sharp left'],
    [[1, -200], 'turn', 'uturn'],
  ];
  for (const [[east, north], type, modifier] of cases) {
    const leg = legOf([
      { name: 'Rue A', points: [START, corner] },
      { name: 'Rue B', points: [offset(corner, east, north)] },
    ]);
    const step = directionsBody([[leg]], [], OPTIONS).routes[0]!.legs[0]!.steps[1]!;
    t.is(step.maneuver.type, type as never, `${east},${north}`);
    t.is(step.maneuver.modifier, modifier as never, `${east},${north}`);
  }
});

test('staying on a road that turns is a continue; a straight joint of one road is no step', (t) => {
  const bend = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Rue A', points: [offset(corner, 200, 0)] },
  ]);
  t.deepEqual(
    summaryOf(directionsBody([[bend]], [], OPTIONS).routes[0]!.legs[0]!.steps).map((s) => s.slice(0, 2)),
    [
      ['depart', ''],
      ['continue', 'right'],
      ['arrive', ''],
    ],
  );
  const straight = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Rue A', points: [offset(corner, 10, 200)] },
  ]);
  const steps = directionsBody([[straight]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.is(steps.length, 2);
  t.is(steps[0]!.distance, Math.round(straight.distance * 10) / 10);
});

test('a short last run after a turn is still a step: nothing follows it to collapse it into (foot/intersection.feature:9)', (t) => {
  const leg = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Rue B', junctionRoads: 3, points: [offset(corner, 4, 0)] },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[leg]], [], OPTIONS).routes[0]!.legs[0]!.steps), [
    'depart:Rue A',
    'turn right:Rue B',
    'arrive:Rue B',
  ]);
});

test('a short link between two roads joins the step before it', (t) => {
  const leg = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: '', points: [offset(corner, 4, 4)] },
    { name: 'Rue B', points: [offset(corner, 204, 4)] },
  ]);
  const steps = directionsBody([[leg]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.deepEqual(
    summaryOf(steps).map((s) => s.slice(0, 3)),
    [
      ['depart', '', 'Rue A'],
      ['turn', 'right', 'Rue B'],
      ['arrive', '', 'Rue B'],
    ],
  );
  t.true(Math.abs(steps[0]!.distance - 200 - Math.hypot(4, 4)) < 0.2);
});

test("a roundabout: enter with the exit number, named after the exit road as OSRM's AdaptStepSignage; exit onto the road taken", (t) => {
  const centre = offset(START, 0, 130);
  const arc = (from: number, to: number) =>
    Array.from({ length: 6 }, (_, i) => from + ((to - from) * (i + 1)) / 6).map((deg) =>
      offset(centre, 30 * Math.cos((deg * Math.PI) / 180), 30 * Math.sin((deg * Math.PI) / 180)),
    );
  const leg = legOf([
    { name: 'Avenue Sud', points: [START, offset(centre, 0, -30)] },
    { name: 'Rond-point', roundabout: true, points: arc(-90, 0) },
    { name: 'Rond-point', roundabout: true, points: arc(0, 90) },
    { name: 'Avenue Nord', points: [offset(centre, 0, 200)] },
  ]);
  const steps = directionsBody([[leg]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.deepEqual(summaryOf(steps), [
    ['depart', '', 'Avenue Sud', 'Head north on Avenue Sud'],
    ['roundabout', 'straight', 'Avenue Nord', 'Enter the roundabout and take the 2nd exit onto Avenue Nord'],
    ['exit roundabout', 'right', 'Avenue Nord', 'Exit the roundabout onto Avenue Nord'],
    ['arrive', '', 'Avenue Nord', 'You have arrived at your destination'],
  ]);
  t.is(steps[1]!.maneuver.exit, 2);
  t.is(steps[2]!.maneuver.exit, undefined);
  t.is(steps[1]!.distance, Math.round((leg.segments[1]!.distance + leg.segments[2]!.distance) * 10) / 10, 'the distance round it');
  // A leg that ends in the roundabout keeps its name.
  const inside = legOf([
    { name: 'Avenue Sud', points: [START, offset(centre, 0, -30)] },
    { name: 'Rond-point', roundabout: true, points: arc(-90, 0) },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[inside]], [], OPTIONS).routes[0]!.legs[0]!.steps), [
    'depart:Avenue Sud',
    'roundabout right:Rond-point',
    'arrive:Rond-point',
  ]);
});

test('two legs: arrive at the first destination, depart again', (t) => {
  const second = legOf([{ name: 'Rue B', points: [offset(corner, 200, 0), offset(corner, 200, -300)] }]);
  const body = directionsBody(
    [[lShape(200), second]],
    [snapped(START), snapped(offset(corner, 200, 0)), snapped(offset(corner, 200, -300))],
    OPTIONS,
  );
  const [first, next] = body.routes[0]!.legs as [(typeof body.routes)[0]['legs'][0], (typeof body.routes)[0]['legs'][0]];
  t.is(body.routes[0]!.legs.length, 2);
  t.is(first.steps.at(-1)!.maneuver.instruction, 'You have arrived at your 1st destination');
  t.is(next.steps[0]!.maneuver.type, 'depart');
  t.is(next.steps[0]!.maneuver.instruction, 'Head south on Rue B');
  t.is(next.steps.at(-1)!.maneuver.instruction, 'You have arrived at your destination');
  const route = body.routes[0]!;
  t.is(route.distance, Math.round((lShape(200).distance + second.distance) * 10) / 10);
  t.is(pointsOf(route.geometry).length, lShape(200).coordinates.length + second.coordinates.length - 1, 'the shared waypoint once');
  t.is(body.waypoints.length, 3);
});

test('ferries and pushing are their own steps with their own mode', (t) => {
  const leg = legOf([
    { name: 'Quai', points: [START, corner] },
    { name: 'Navette', travel: 'ferry', points: [offset(corner, 0, 500)] },
    { name: 'Quai Nord', points: [offset(corner, 0, 700)] },
  ]);
  const steps = directionsBody([[leg]], [], { ...OPTIONS, mode: 'cycling' }).routes[0]!.legs[0]!.steps;
  t.deepEqual(
    steps.map((s) => s.mode),
    ['cycling', 'ferry', 'cycling', 'cycling'],
  );
  t.is(steps[1]!.maneuver.instruction, 'Take the ferry Navette');
  t.is(steps[2]!.maneuver.type, 'notification');
  const pushing = legOf([
    { name: 'Rue', points: [START, corner] },
    { name: 'Escalier', travel: 'pushing', points: [offset(corner, 0, 50)] },
  ]);
  t.is(directionsBody([[pushing]], [], { ...OPTIONS, mode: 'cycling' }).routes[0]!.legs[0]!.steps[1]!.mode, 'pushing bike');
});

test('geometries decode back to the leg', (t) => {
  const leg = lShape(200);
  const close = (a: LonLat[], b: LonLat[], tolerance: number) =>
    a.length === b.length && a.every((p, i) => Math.abs(p[0] - b[i]![0]) <= tolerance && Math.abs(p[1] - b[i]![1]) <= tolerance);
  const route = (geometries: DirectionsOptions['geometries']) => directionsBody([[leg]], [], { ...OPTIONS, geometries }).routes[0]!;
  const five = polyline.decode(route('polyline').geometry as string, 5).map(([lat, lon]): LonLat => [lon, lat]);
  t.true(close(five, leg.coordinates, 1e-5));
  const six = polyline.decode(route('polyline6').geometry as string, 6).map(([lat, lon]): LonLat => [lon, lat]);
  t.true(close(six, leg.coordinates, 1e-6));
  t.true(close(pointsOf(route('geojson').geometry), leg.coordinates, 1e-6));
  const step = route('polyline6').legs[0]!.steps[1]!;
  t.true(
    close(
      polyline.decode(step.geometry as string, 6).map(([lat, lon]): LonLat => [lon, lat]),
      leg.coordinates.slice(2),
      1e-6,
    ),
  );
});

test('overview: full, simplified to the fitted zoom, or no geometry', (t) => {
  const wiggly = Array.from({ length: 200 }, (_, i) => offset(START, (i % 2) * 0.05, i * 20));
  const leg = legOf([{ name: 'Long', points: wiggly }]);
  const route = (overview: DirectionsOptions['overview']) => directionsBody([[leg]], [], { ...OPTIONS, overview }).routes[0]!;
  t.is(pointsOf(route('full').geometry).length, 200);
  const simplified = pointsOf(route('simplified').geometry);
  t.is(simplified.length, 2);
  t.false('geometry' in JSON.parse(JSON.stringify(route('false'))));
  t.is(route('false').legs[0]!.steps.length, 2, 'steps keep their geometry');
  const corner = lShape(200);
  t.is(pointsOf(directionsBody([[corner]], [], { ...OPTIONS, overview: 'simplified' }).routes[0]!.geometry).length, 3);
});

test('steps=false leaves legs without steps; alternatives are further routes', (t) => {
  const body = directionsBody([[lShape(200)], [lShape(-200)]], [], { ...OPTIONS, steps: false });
  t.is(body.routes.length, 2);
  t.deepEqual(body.routes[0]!.legs[0]!.steps, []);
  t.is(body.routes[0]!.legs[0]!.summary, 'Rue A, Rue B');
});

test('instructions in another language', (t) => {
  const steps = directionsBody([[lShape(200)]], [], { ...OPTIONS, lang: 'de' }).routes[0]!.legs[0]!.steps;
  t.is(steps[1]!.maneuver.instruction, 'Rechts abbiegen auf Rue B');
});

/** Checks every field OSRM clients read, with its type, in the body as a client receives it (JSON). */
function assertOsrmShape(t: ExecutionContext, built: unknown) {
  t.true(isPlainJson(built), 'plain JSON');
  const body = JSON.parse(JSON.stringify(built));
  const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const isPosition = (v: any) => Array.isArray(v) && v.length === 2 && v.every(isNumber);
  t.is(body.code, 'Ok');
  for (const waypoint of body.waypoints) {
    t.deepEqual(Object.keys(waypoint).sort(), ['distance', 'location', 'name']);
    t.true(typeof waypoint.name === 'string' && isPosition(waypoint.location) && isNumber(waypoint.distance));
  }
  for (const route of body.routes) {
    t.true(isNumber(route.distance) && isNumber(route.duration) && isNumber(route.weight));
    t.is(route.weight_name, 'duration');
    t.is(typeof route.geometry, 'string');
    for (const leg of route.legs) {
      t.true(isNumber(leg.distance) && isNumber(leg.duration) && isNumber(leg.weight) && typeof leg.summary === 'string');
      for (const step of leg.steps) {
        t.true(isNumber(step.distance) && isNumber(step.duration) && isNumber(step.weight));
        t.is(typeof step.geometry, 'string');
        t.is(typeof step.name, 'string');
        t.true(['driving', 'walking', 'cycling', 'ferry', 'pushing bike'].includes(step.mode));
        t.is(step.driving_side, 'right');
        const m = step.maneuver;
        t.true(typeof m.type === 'string' && isPosition(m.location) && isNumber(m.bearing_before) && isNumber(m.bearing_after));
        t.true(typeof m.instruction === 'string' && m.instruction.length > 0);
        if (m.type !== 'depart' && m.type !== 'arrive') t.is(typeof m.modifier, 'string');
        t.true(step.intersections.length >= 1);
        for (const x of step.intersections) {
          t.true(isPosition(x.location) && x.bearings.every(isNumber) && x.entry.length === x.bearings.length);
          t.deepEqual(
            x.bearings,
            [...x.bearings].sort((a: number, b: number) => a - b),
          );
        }
        t.deepEqual(step.intersections[0].location, m.location);
      }
    }
  }
}

/**
 * Whether JSON writes `value` as it is: finite numbers, strings, booleans, null, arrays and plain
 * objects; a field that does not apply may be undefined (JSON leaves it out, as the body builders intend).
 */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((field) => field === undefined || isPlainJson(field));
}

test('every OSRM field is present with the right type', (t) => {
  const body = directionsBody([[lShape(200), lShape(-200)]], [snapped(START, 'Rue A'), snapped(corner), snapped(START)], {
    ...OPTIONS,
    geometries: 'polyline',
    overview: 'simplified',
  });
  assertOsrmShape(t, body);
  const distances = [...JSON.stringify(body).matchAll(/"(distance|duration|weight)":(-?[\d.]+)/g)].map((m) => m[2]!);
  t.true(
    distances.every((d) => !/\.\d\d/.test(d)),
    'rounded to 0.1',
  );
});

test('a degenerate leg (both points on one spot, no segments) still answers', (t) => {
  const leg: RouteLeg = { distance: 0, duration: 0, coordinates: [START, START], nodes: [0, 0], segments: [], spans: [] };
  const body = directionsBody([[leg]], [snapped(START), snapped(START)], { ...OPTIONS, geometries: 'polyline', overview: 'simplified' });
  assertOsrmShape(t, body);
  t.deepEqual(
    body.routes[0]!.legs[0]!.steps.map((s) => s.maneuver.type),
    ['depart', 'arrive'],
  );
});

test('a long route with 300 000 points is simplified without running out of stack', (t) => {
  const points = Array.from({ length: 300_000 }, (_, i) => offset(START, Math.sin(i / 5000) * 3000, i));
  const body = directionsBody([[legOf([{ name: 'Long', points }])]], [], { ...OPTIONS, steps: false, overview: 'simplified' });
  const simplified = pointsOf(body.routes[0]!.geometry);
  t.true(simplified.length > 2 && simplified.length < 30_000);
});

const typesAndNames = (steps: OsrmStep[]) =>
  steps.map((s) => `${s.maneuver.type}${s.maneuver.modifier ? ` ${s.maneuver.modifier}` : ''}:${s.name}`);

test('a first or last piece of at most 1 m (a waypoint on a junction) makes no step, as OSRM trimShortSegments', (t) => {
  const start = offset(corner, 0, 0.5);
  const first = legOf([
    { name: 'Rue B', points: [start, corner] },
    { name: 'Rue A', points: [START] },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[first]], [], OPTIONS).routes[0]!.legs[0]!.steps), ['depart:Rue A', 'arrive:Rue A']);
  const steps = directionsBody([[first]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.is(steps[0]!.duration + steps[1]!.duration, Math.round(first.duration * 10) / 10, 'the dropped piece keeps its seconds');
  const last = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Bac', travel: 'ferry', points: [offset(corner, 0, 400)] },
    { name: 'Quai', points: [offset(corner, 0, 400.6)] },
  ]);
  const lastSteps = directionsBody([[last]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.deepEqual(typesAndNames(lastSteps), ['depart:Rue A', 'notification straight:Bac', 'arrive:Bac']);
  t.deepEqual(
    lastSteps.map((s) => s.mode),
    ['driving', 'ferry', 'ferry'],
  );
  const longer = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Bac', travel: 'ferry', points: [offset(corner, 0, 400)] },
    { name: 'Quai', points: [offset(corner, 0, 402)] },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[longer]], [], OPTIONS).routes[0]!.legs[0]!.steps).at(-1), 'arrive:Quai', '2 m is not trimmed');
});

test('a new name followed for less than 105 m is not told, as OSRM suppressShortNameSegments; the arrival keeps its name', (t) => {
  const leg = (metres: number) =>
    legOf([
      { name: 'Rue A', points: [START, corner] },
      { name: 'Rue B', points: [offset(corner, 0, metres)] },
    ]);
  t.deepEqual(typesAndNames(directionsBody([[leg(100)]], [], OPTIONS).routes[0]!.legs[0]!.steps), ['depart:Rue A', 'arrive:Rue B']);
  t.deepEqual(typesAndNames(directionsBody([[leg(110)]], [], OPTIONS).routes[0]!.legs[0]!.steps), [
    'depart:Rue A',
    'new name straight:Rue B',
    'arrive:Rue B',
  ]);
  // Two short name changes in a row both join the first step.
  const two = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Rue B', points: [offset(corner, 0, 90)] },
    { name: 'Rue C', points: [offset(corner, 0, 180)] },
  ]);
  const steps = directionsBody([[two]], [], OPTIONS).routes[0]!.legs[0]!.steps;
  t.deepEqual(typesAndNames(steps), ['depart:Rue A', 'arrive:Rue C']);
  t.is(steps[0]!.distance, Math.round(two.distance * 10) / 10);
  // A turn onto a short road is still told.
  const turn = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Rue B', points: [offset(corner, 50, 0)] },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[turn]], [], OPTIONS).routes[0]!.legs[0]!.steps), [
    'depart:Rue A',
    'turn right:Rue B',
    'arrive:Rue B',
  ]);
});

test("a name that only gains a profile's suffix or a tail is the same road, as OSRM requiresNameAnnounced", (t) => {
  const leg = (from: string, to: string) =>
    legOf([
      { name: from, points: [START, corner] },
      { name: to, points: [offset(corner, 0, 300)] },
    ]);
  const types = (from: string, to: string, mode: DirectionsOptions['mode']) =>
    typesAndNames(directionsBody([[leg(from, to)]], [], { ...OPTIONS, mode }).routes[0]!.legs[0]!.steps).join(',');
  t.is(types('Main Street', 'Main Street Extension', 'driving'), 'depart:Main Street,arrive:Main Street Extension');
  t.is(types('Main', 'North Main', 'driving'), 'depart:Main,arrive:North Main', "'north' is in car.lua's suffix_list");
  t.is(types('Main', 'Ea Main', 'walking'), 'depart:Main,new name straight:Ea Main,arrive:Ea Main', "foot.lua's list lacks 'ea'");
  t.is(types('sj', 'nj', 'cycling'), 'depart:sj,new name straight:nj,arrive:nj', 'bicycle.lua has no suffix_list');
  t.is(types('sj', 'nj', 'driving'), 'depart:sj,arrive:nj');
  t.is(types('Main', 'Elm', 'driving'), 'depart:Main,new name straight:Elm,arrive:Elm');
});

test('a change of name:pronunciation alone is told, as OSRM requiresNameAnnounced', (t) => {
  const steps = (pronunciation: string) =>
    typesAndNames(
      directionsBody(
        [
          [
            legOf([
              { name: 'Houston St', pronunciation: 'hew-stun', points: [START, corner] },
              { name: 'Houston St', pronunciation, junctionRoads: 3, points: [offset(corner, 200, 0)] },
            ]),
          ],
        ],
        [],
        OPTIONS,
      ).routes[0]!.legs[0]!.steps,
    );
  t.deepEqual(steps('how-stun'), ['depart:Houston St', 'turn right:Houston St', 'arrive:Houston St']);
  t.deepEqual(steps('hew-stun'), ['depart:Houston St', 'continue right:Houston St', 'arrive:Houston St']);
});

test('where only two roads meet, a new name is told whatever the angle and a bend of one road is no step (OSRM getInstructionForObvious)', (t) => {
  const leg = (name: string, junctionRoads: number) =>
    legOf([
      { name: 'Rue A', points: [START, corner] },
      { name, junctionRoads, points: [offset(corner, 200, 0)] },
    ]);
  const steps = (name: string, junctionRoads: number) =>
    typesAndNames(directionsBody([[leg(name, junctionRoads)]], [], OPTIONS).routes[0]!.legs[0]!.steps);
  t.deepEqual(steps('Rue B', 2), ['depart:Rue A', 'new name right:Rue B', 'arrive:Rue B']);
  t.deepEqual(steps('Rue B', 3), ['depart:Rue A', 'turn right:Rue B', 'arrive:Rue B']);
  t.deepEqual(steps('Rue A', 2), ['depart:Rue A', 'arrive:Rue A']);
  t.deepEqual(steps('Rue A', 3), ['depart:Rue A', 'continue right:Rue A', 'arrive:Rue A']);
});

test('onto a motorway or trunk link: on ramp from another road, even where only two roads meet; off ramp from a motorway; nothing new leaving it', (t) => {
  const steps = (from: number, junctionRoads: number) =>
    typesAndNames(
      directionsBody(
        [
          [
            legOf([
              { name: 'Route A', guidance: from, points: [START, corner] },
              { name: 'Bretelle', guidance: GUIDANCE_RAMP, junctionRoads, points: [offset(corner, 200, 0)] },
              { name: 'Rue B', junctionRoads: 2, points: [offset(corner, 200, 200)] },
            ]),
          ],
        ],
        [],
        OPTIONS,
      ).routes[0]!.legs[0]!.steps,
    );
  // car/classes.feature:48: a primary, a motorway_link, a primary, each meeting the next alone.
  t.deepEqual(steps(0, 2), ['depart:Route A', 'on ramp right:Bretelle', 'new name left:Rue B', 'arrive:Rue B']);
  t.deepEqual(steps(0, 3), ['depart:Route A', 'on ramp right:Bretelle', 'new name left:Rue B', 'arrive:Rue B']);
  t.deepEqual(steps(GUIDANCE_MOTORWAY, 3), ['depart:Route A', 'off ramp right:Bretelle', 'new name left:Rue B', 'arrive:Rue B']);
  t.deepEqual(
    steps(GUIDANCE_RAMP, 3),
    ['depart:Route A', 'turn right:Bretelle', 'new name left:Rue B', 'arrive:Rue B'],
    'from one link onto another',
  );
});

test("straight on from a road onto a way of no road class where three roads meet is a turn, as OSRM's findObviousTurn never takes such a way as the obvious one", (t) => {
  const steps = (from: number, onto: number, junctionRoads: number) =>
    typesAndNames(
      directionsBody(
        [
          [
            legOf([
              { name: 'Route A', guidance: from, points: [START, corner] },
              { name: 'Parking', guidance: onto, junctionRoads, points: [offset(corner, 0, 300)] },
            ]),
          ],
        ],
        [],
        OPTIONS,
      ).routes[0]!.legs[0]!.steps,
    );
  // bicycle/area.feature:58: a primary straight on onto a car park's outline, which goes on to the right.
  t.deepEqual(steps(0, GUIDANCE_LOW_PRIORITY, 3), ['depart:Route A', 'turn straight:Parking', 'arrive:Parking']);
  t.deepEqual(steps(0, 0, 3), ['depart:Route A', 'new name straight:Parking', 'arrive:Parking'], 'onto a road class');
  t.deepEqual(
    steps(GUIDANCE_LOW_PRIORITY, GUIDANCE_LOW_PRIORITY, 3),
    ['depart:Route A', 'new name straight:Parking', 'arrive:Parking'],
    'from one such way',
  );
  t.deepEqual(
    steps(0, GUIDANCE_LOW_PRIORITY, 2),
    ['depart:Route A', 'new name straight:Parking', 'arrive:Parking'],
    'where only two roads meet',
  );
});

test('at a T after a junction passed, the turn is an end of road (OSRM handleThreeWayTurn, buildIntersections)', (t) => {
  const east = offset(corner, 10, 0);
  const west = offset(corner, -10, 0);
  const ahead = offset(corner, 0, 10);
  const steps = (exits: LonLat[], passed: number, name = 'Rue B') =>
    typesAndNames(
      directionsBody(
        [
          [
            legOf([
              { name: 'Rue A', junctionsPassed: passed, points: [START, corner] },
              { name, junctionRoads: 3, junctionExits: exits, points: [offset(corner, 200, 0)] },
            ]),
          ],
        ],
        [],
        OPTIONS,
      ).routes[0]!.legs[0]!.steps,
    )[1];
  t.is(steps([east, west], 1), 'end of road right:Rue B');
  t.is(steps([west, east], 1), 'end of road right:Rue B', 'whatever order the roads come in');
  t.is(steps([east, west], 0), 'turn right:Rue B', 'no junction passed since the last maneuver');
  t.is(steps([east, ahead], 1), 'turn right:Rue B', 'the road goes on ahead: no T');
  t.is(steps([east, west], 1, 'Rue A'), 'continue right:Rue A', 'the road arrived on goes on to the right: the obvious way');
});

test('a turn followed within 30 m by a change of name is one turn onto the later road, as OSRM maneuverSucceededByNameChange', (t) => {
  const steps = (link: number, junctionRoads = 3) =>
    typesAndNames(
      directionsBody(
        [
          [
            legOf([
              { name: 'Rue A', points: [START, corner] },
              { name: 'Lien', junctionRoads: 3, points: [offset(corner, link, 0)] },
              { name: 'Rue B', junctionRoads, points: [offset(corner, link + 200, 0)] },
            ]),
          ],
        ],
        [],
        OPTIONS,
      ).routes[0]!.legs[0]!.steps,
    );
  t.deepEqual(steps(25), ['depart:Rue A', 'turn right:Rue B', 'arrive:Rue B']);
  t.deepEqual(steps(60), ['depart:Rue A', 'turn right:Lien', 'new name straight:Rue B', 'arrive:Rue B'], 'too far apart');
  t.deepEqual(steps(40), ['depart:Rue A', 'turn right:Rue B', 'arrive:Rue B'], 'a straight name change may come up to 45 m after');
  // Onto the road arrived on: the turn becomes a continue.
  const back = legOf([
    { name: 'Rue A', points: [START, corner] },
    { name: 'Lien', junctionRoads: 3, points: [offset(corner, 20, 0)] },
    { name: 'Rue A', junctionRoads: 3, points: [offset(corner, 220, 0)] },
  ]);
  t.deepEqual(typesAndNames(directionsBody([[back]], [], OPTIONS).routes[0]!.legs[0]!.steps), [
    'depart:Rue A',
    'continue right:Rue A',
    'arrive:Rue A',
  ]);
});
