// Routing on real OSM extracts (../shared/data/osm): Monaco and Andorra in one dataset with the
// three modes, Heidelberg in another with driving only (its walking and cycling graphs take ~30 s
// each to contract). Each is served by a real server: routes between named places exist with sane
// lengths, oneways are respected by cars and not by walkers, waypoints are visited in order,
// isochrone contours nest and grow, the OSRM body is checked field by field, and random pairs
// inside each region answer 200 or a documented 422 — never a 500 — both through HTTP and, in
// bulk, on the engine directly, where a plain Dijkstra on the uncontracted graph checks that each
// route is the fastest and each NoRoute is true.
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import type { TravelMode } from '../core/routing/network.js';
import { snap } from '../workers/routing/graph/snap.js';
import { call, errorBodyFault, inParallel, seededRandom, type Answer } from './helpers/http.js';
import {
  decodeGeometry,
  directionsOn,
  haversine,
  inPolygons,
  isochroneOn,
  latLng,
  metresToBoundary,
  metresToLine,
  polygonsArea,
  polygonsOf,
  referenceDeciseconds,
  signedArea,
} from './helpers/routing.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const FILES = [MONACO, ANDORRA, HEIDELBERG];
const MODES: TravelMode[] = ['driving', 'walking', 'cycling'];

// Named places, [lon, lat], read from the extracts with osmium (bus stops, station and place nodes).
const PLACES = {
  casino: [7.4275372, 43.7399476], // Place du Casino (Casino de Monte-Carlo)
  stade: [7.4142063, 43.7271149], // Stade Louis II bus stop
  // Port Hercule, Quai Albert 1er (restaurant Le Nautic): the marina's own node lies in the water, 107 m
  // from the quays, beside only the Bateau Bus ferry, and no route starts or ends on a ferry (as OSRM).
  port: [7.4219845, 43.7350028],
  palais: [7.4213, 43.7311], // Place du Palais (Palais princier)
  jardin: [7.4135343, 43.7318676], // Jardin Exotique bus stop
  andorraLaVella: [1.5212467, 42.5069391],
  escaldes: [1.5404067, 42.5090019],
  laMassana: [1.5163754, 42.5442014],
  ordino: [1.5334945, 42.55615],
  santJulia: [1.4920555, 42.4666593],
  bismarckplatz: [8.6932299, 49.4095652],
  hauptbahnhof: [8.6754223, 49.4034737],
  altstadt: [8.7208818, 49.4152352], // Heidelberg-Altstadt station
  weststadt: [8.6882373, 49.398247], // Heidelberg-Weststadt/Südstadt station
  pfaffengrund: [8.641526, 49.4119316], // Heidelberg-Pfaffengrund/Wieblingen station
  kirchheim: [8.6753555, 49.3793639], // Heidelberg-Kirchheim/Rohrbach station
} satisfies Record<string, LonLat>;
type Place = keyof typeof PLACES;

/** Bounds ([west, south, east, north]) the random points are drawn in. */
const REGIONS = {
  monaco: [7.349, 43.7148, 7.491, 43.77], // the extract's bounds: Monaco, its French neighbours and the sea
  andorra: [1.41, 42.43, 1.79, 42.66], // the country (the extract's bounds are widened by a few stray nodes)
  heidelberg: [8.6, 49.36, 8.78, 49.45], // the city (the extract reaches Kaiserslautern)
} satisfies Record<string, [number, number, number, number]>;
type Region = keyof typeof REGIONS;

type Served = ServedRouting;
let main: Served; // Monaco + Andorra, every mode
let heidelberg: Served; // Heidelberg, driving

test.before(async (t) => {
  if (!FILES.every(existsSync)) return;
  const started = Date.now();
  main = await serveRouting('routing-real', [MONACO, ANDORRA], MODES, [1.41, 42.43, 7.491, 43.77]);
  heidelberg = await serveRouting('routing-heidelberg', [HEIDELBERG], ['driving'], REGIONS.heidelberg);
  t.log(`routing graphs and servers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test.after.always(async () => {
  for (const served of [main, heidelberg]) await served?.close();
});

const servedFor = (region: Region): Served => (region === 'heidelberg' ? heidelberg : main);

function get(served: Served, path: string, query: string): Promise<Answer> {
  return call(`${served.server.url}/api/v1/${path}?${query}&key=${served.key}`);
}

/** A 422 of the routing API: the uniform error body plus the OSRM code. */
function assertUnroutable(t: ExecutionContext, answer: Answer, code: 'NoSegment' | 'NoRoute', context = ''): void {
  t.is(answer.status, 422, `${context} ${answer.text}`);
  t.is(errorBodyFault(answer), null, context);
  t.is(answer.body?.code, code, context);
}

const query = (from: LonLat, to: LonLat, mode: TravelMode, extra = '') =>
  `origin=${latLng(from)}&destination=${latLng(to)}&mode=${mode}${extra}`;

// ---------------------------------------------------------------------------------------------
// Named places

/** [region, from, to, modes, the largest route length over straight line allowed]. */
const NAMED_ROUTES: [Region, Place, Place, TravelMode[], number][] = [
  ['monaco', 'casino', 'stade', MODES, 3],
  ['monaco', 'casino', 'port', MODES, 3],
  ['monaco', 'casino', 'palais', MODES, 3],
  ['monaco', 'jardin', 'casino', MODES, 3],
  ['andorra', 'andorraLaVella', 'escaldes', MODES, 3],
  ['andorra', 'andorraLaVella', 'laMassana', MODES, 3],
  ['andorra', 'escaldes', 'ordino', MODES, 3],
  ['andorra', 'andorraLaVella', 'santJulia', ['driving', 'cycling'], 3],
  ['heidelberg', 'bismarckplatz', 'hauptbahnhof', ['driving'], 3],
  ['heidelberg', 'hauptbahnhof', 'altstadt', ['driving'], 3],
  ['heidelberg', 'bismarckplatz', 'altstadt', ['driving'], 3],
  ['heidelberg', 'weststadt', 'pfaffengrund', ['driving'], 3],
  ['heidelberg', 'kirchheim', 'bismarckplatz', ['driving'], 3],
];

dataTest('named places: routes both ways in each mode, longer than the straight line and at most 3× it', FILES, async (t) => {
  for (const [region, a, b, modes, factor] of NAMED_ROUTES) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const mode of modes) {
        const context = `${region} ${from} → ${to} ${mode}`;
        const res = await get(servedFor(region), 'directions', query(PLACES[from], PLACES[to], mode, '&overview=false&steps=false'));
        if (res.status !== 200) {
          t.fail(`${context}: ${res.status} ${res.text}`);
          continue;
        }
        const [origin, destination] = res.body.waypoints as { location: LonLat; distance: number }[];
        t.true(origin!.distance < 100 && destination!.distance < 100, `${context}: snapped far away`);
        const line = haversine(origin!.location, destination!.location);
        const { distance, duration } = res.body.routes[0];
        t.true(distance >= line - 1, `${context}: ${distance} m < straight line ${line.toFixed(1)} m`);
        t.true(distance <= factor * line, `${context}: ${distance} m > ${factor} × straight line ${line.toFixed(1)} m`);
        t.true(duration > 0, context);
        // Plausible average speeds: walking 2–6 km/h (steps are slower), cycling and driving below 100 km/h.
        const kmh = (distance / duration) * 3.6;
        if (mode === 'walking') t.true(kmh > 2 && kmh <= 5.01, `${context}: ${kmh.toFixed(1)} km/h`);
        else t.true(kmh > 3 && kmh < 100, `${context}: ${kmh.toFixed(1)} km/h`);
      }
    }
  }
});

dataTest('named places: walkers may not take the CG-1 (foot=no) to Sant Julià de Lòria, a documented 422 NoRoute', FILES, async (t) => {
  assertUnroutable(t, await get(main, 'directions', query(PLACES.andorraLaVella, PLACES.santJulia, 'walking')), 'NoRoute');
});

dataTest('a point far out at sea is NoSegment; Monaco to Andorra (one dataset, two networks) is NoRoute', FILES, async (t) => {
  const sea: LonLat = [7.45, 43.69];
  assertUnroutable(t, await get(main, 'directions', query(sea, PLACES.casino, 'driving')), 'NoSegment');
  const noSegment = await get(main, 'directions', query(PLACES.casino, PLACES.stade, 'walking', `&waypoints=${latLng(sea)}`));
  assertUnroutable(t, noSegment, 'NoSegment');
  t.regex(noSegment.body.message, /waypoints\[0\]/);
  assertUnroutable(t, await get(main, 'isochrone', `center=${latLng(sea)}&time=5`), 'NoSegment');
  for (const mode of MODES) {
    assertUnroutable(t, await get(main, 'directions', query(PLACES.casino, PLACES.andorraLaVella, mode)), 'NoRoute', mode);
  }
});

// ---------------------------------------------------------------------------------------------
// Oneways: [region, street, a point near its start, one near its end (in the oneway's direction)]

const ONEWAYS: [Region, string, LonLat, LonLat][] = [
  ['monaco', 'Avenue du Carnier', [7.424382, 43.7437], [7.422516, 43.742656]], // way 165597363
  ['monaco', 'Rue Pasteur', [7.417597, 43.739389], [7.419067, 43.739317]], // way 164338239
  ['heidelberg', 'Mittermaierstraße', [8.676846, 49.408481], [8.676849, 49.409358]], // way 229361270
];

/** Initial bearing from p to q, degrees. */
function bearing(p: LonLat, q: LonLat): number {
  const rad = Math.PI / 180;
  const y = Math.sin((q[0] - p[0]) * rad) * Math.cos(q[1] * rad);
  const x = Math.cos(p[1] * rad) * Math.sin(q[1] * rad) - Math.sin(p[1] * rad) * Math.cos(q[1] * rad) * Math.cos((q[0] - p[0]) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}
const angleBetween = (x: number, y: number) => Math.min(Math.abs(x - y), 360 - Math.abs(x - y));

dataTest('oneways: cars drive them only one way, walkers both', FILES, async (t) => {
  for (const [region, street, a, b] of ONEWAYS) {
    const served = servedFor(region);
    const line = haversine(a, b);
    const along = await get(served, 'directions', query(a, b, 'driving'));
    t.is(along.status, 200, street);
    t.true(
      along.body.routes[0].distance < 1.3 * line + 10,
      `${street}: along the oneway ${along.body.routes[0].distance} m for ${line.toFixed(0)} m`,
    );
    t.true(
      along.body.routes[0].legs[0].steps.some((step: { name: string }) => step.name === street),
      `${street}: the route along it uses it`,
    );
    const against = await get(served, 'directions', query(b, a, 'driving'));
    t.is(against.status, 200, street);
    t.true(
      against.body.routes[0].distance > 4 * along.body.routes[0].distance,
      `${street}: against the oneway only ${against.body.routes[0].distance} m`,
    );
    // The way back comes round and arrives at the start of the street driving in its direction
    // (Mittermaierstraße is one carriageway of two: the way back goes down the other one).
    const back = (against.body.routes[0].legs[0].steps as { geometry: string }[]).flatMap((step) =>
      decodeGeometry(step.geometry, 'polyline'),
    );
    const last = back.findLast((p) => haversine(p, a) > 5)!;
    t.true(angleBetween(bearing(last, a), bearing(a, b)) < 45, `${street}: the way back arrives against the oneway`);
    if (!served.graphs.walking) continue;
    const walkBack = await get(served, 'directions', query(b, a, 'walking'));
    t.is(walkBack.status, 200, street);
    t.true(walkBack.body.routes[0].distance < 1.3 * line + 10, `${street}: walking back ${walkBack.body.routes[0].distance} m`);
  }
});

// ---------------------------------------------------------------------------------------------
// Waypoints

dataTest('a route with waypoints has one leg per pair of points and visits the waypoints in order', FILES, async (t) => {
  const stops: Place[] = ['jardin', 'stade', 'palais', 'casino'];
  const points = stops.map((place) => PLACES[place]);
  for (const mode of MODES) {
    const waypoints = points.slice(1, -1).map(latLng).join('|');
    const res = await get(
      main,
      'directions',
      query(points[0]!, points.at(-1)!, mode, `&waypoints=${waypoints}&overview=full&geometries=geojson`),
    );
    t.is(res.status, 200, mode);
    const [route] = res.body.routes;
    t.is(res.body.routes.length, 1, 'no alternatives with waypoints');
    t.is(route.legs.length, 3, mode);
    t.is(res.body.waypoints.length, 4, mode);
    // Snapped locations in request order, each near its own input.
    res.body.waypoints.forEach((w: { location: LonLat; distance: number }, i: number) => {
      t.true(haversine(w.location, points[i]!) <= w.distance + 1, `${mode} waypoint ${i}`);
      t.true(w.distance < 50, `${mode} waypoint ${i} snapped ${w.distance} m away`);
    });
    // Each leg starts and ends at its points; the geometry passes them in order.
    const line = route.geometry.coordinates as LonLat[];
    let from = 0;
    for (const [i, w] of (res.body.waypoints as { location: LonLat }[]).entries()) {
      const at = line.findIndex((p, j) => j >= from && haversine(p, w.location) < 1);
      t.true(at >= from, `${mode}: the geometry does not pass waypoint ${i} after the previous one`);
      from = Math.max(at, from);
      if (i > 0) t.deepEqual(route.legs[i - 1].steps.at(-1).maneuver.location, w.location, `${mode} leg ${i - 1} arrives at waypoint ${i}`);
      if (i < 3) t.deepEqual(route.legs[i].steps[0].maneuver.location, w.location, `${mode} leg ${i} departs from waypoint ${i}`);
    }
    t.regex(route.legs[0].steps.at(-1).maneuver.instruction, /1st destination/);
    t.regex(route.legs[1].steps.at(-1).maneuver.instruction, /2nd destination/);
    t.regex(route.legs[2].steps.at(-1).maneuver.instruction, /You have arrived at your destination/);
    // Walking and cycling, each leg is the route between its two points on its own; a car keeps
    // going at a via point (continue_straight), so its legs together are never shorter than those.
    let aloneSum = 0;
    for (let i = 0; i < 3; i++) {
      const alone = await get(main, 'directions', query(points[i]!, points[i + 1]!, mode, '&overview=false&steps=false'));
      aloneSum += alone.body.routes[0].distance;
      if (mode === 'driving') continue;
      t.true(
        Math.abs(alone.body.routes[0].distance - route.legs[i].distance) <= 1,
        `${mode} leg ${i}: ${route.legs[i].distance} m, alone ${alone.body.routes[0].distance} m`,
      );
    }
    if (mode === 'driving') t.true(route.distance >= aloneSum - 1, `driving: ${route.distance} m < ${aloneSum} m`);
    const sum = route.legs.reduce((total: number, leg: { distance: number }) => total + leg.distance, 0);
    t.true(Math.abs(sum - route.distance) <= 1, mode);
  }
});

// ---------------------------------------------------------------------------------------------
// Isochrones

/** [region, centre, mode, generalize (metres, 0 for none)] */
const ISOCHRONES: [Region, Place, TravelMode, number][] = [
  ['monaco', 'casino', 'driving', 0],
  ['monaco', 'casino', 'walking', 0],
  ['monaco', 'casino', 'cycling', 0],
  ['monaco', 'stade', 'walking', 50],
  ['andorra', 'escaldes', 'driving', 0],
  ['heidelberg', 'bismarckplatz', 'driving', 0],
  ['heidelberg', 'hauptbahnhof', 'driving', 100],
];

/**
 * Three contours, largest first: each a closed polygon with RFC 7946 winding containing the
 * centre, areas growing with time (strictly, unless the reach is a small island), every vertex of
 * a shorter contour inside the longer one or within `generalize` (+1 m) of its edge.
 */
function checkIsochrone(
  t: ExecutionContext,
  body: any,
  centre: LonLat,
  mode: TravelMode,
  contours: number[],
  generalize: number,
  strict: boolean,
  context: string,
): void {
  t.is(body.type, 'FeatureCollection', context);
  const features = body.features as {
    type: string;
    properties: { contour: number; mode: string };
    geometry: { type: string; coordinates: unknown };
  }[];
  t.deepEqual(
    features.map((f) => f.properties),
    contours.map((contour) => ({ contour, mode })),
    context,
  );
  const polygons = features.map((f) => polygonsOf(f.geometry));
  for (const [i, shape] of polygons.entries()) {
    t.true(inPolygons(centre, shape), `${context}: the ${features[i]!.properties.contour} min contour misses the centre`);
    for (const [outer, ...holes] of shape) {
      t.true(signedArea(outer!) > 0, `${context}: exterior not anticlockwise`);
      for (const hole of holes) t.true(signedArea(hole) < 0, `${context}: hole not clockwise`);
      for (const ring of [outer!, ...holes]) t.deepEqual(ring[0], ring.at(-1), `${context}: ring not closed`);
    }
  }
  const areas = polygons.map(polygonsArea);
  t.true(
    areas[2]! > 0 && (strict ? areas[0]! > areas[1]! && areas[1]! > areas[2]! : areas[0]! >= areas[1]! && areas[1]! >= areas[2]!),
    `${context}: areas ${areas.join(', ')}`,
  );
  // Shorter inside longer: every vertex of the shorter contour inside the longer one or on its
  // edge (the contours are cut from one time field); with generalize, within that many metres.
  const tolerance = generalize + 1;
  for (const [inner, outer] of [
    [2, 1],
    [1, 0],
  ] as const) {
    let outside = 0;
    let worst = 0;
    for (const polygon of polygons[inner]!) {
      for (const vertex of polygon[0]!) {
        if (inPolygons(vertex, polygons[outer]!)) continue;
        const off = metresToBoundary(vertex, polygons[outer]!);
        worst = Math.max(worst, off);
        if (off > tolerance) outside++;
      }
    }
    t.is(
      outside,
      0,
      `${context}: ${outside} vertices of the ${features[inner]!.properties.contour} min contour outside the ${features[outer]!.properties.contour} min one (worst ${worst.toFixed(1)} m)`,
    );
  }
}

dataTest('isochrones: largest first, each contains the centre, 5 min inside 10 inside 15, areas grow', FILES, async (t) => {
  for (const [region, place, mode, generalize] of ISOCHRONES) {
    const context = `${region} ${place} ${mode} generalize=${generalize}`;
    const centre = PLACES[place];
    const res = await get(
      servedFor(region),
      'isochrone',
      `center=${latLng(centre)}&time=5,15,10&mode=${mode}${generalize ? `&generalize=${generalize}` : ''}`,
    );
    t.is(res.status, 200, context);
    checkIsochrone(t, res.body, centre, mode, [15, 10, 5], generalize, true, context);
  }
});

dataTest('isochrones: polygons=false gives the same rings as lines', FILES, async (t) => {
  const centre = latLng(PLACES.casino);
  const areas = await get(main, 'isochrone', `center=${centre}&time=10&mode=walking`);
  const lines = await get(main, 'isochrone', `center=${centre}&time=10&mode=walking&polygons=false`);
  t.is(lines.status, 200);
  const [polygon] = areas.body.features;
  const [outline] = lines.body.features;
  t.deepEqual(outline.properties, polygon.properties);
  const rings = polygonsOf(polygon.geometry).flat();
  if (outline.geometry.type === 'LineString') t.deepEqual([outline.geometry.coordinates], rings);
  else {
    t.is(outline.geometry.type, 'MultiLineString');
    t.deepEqual(outline.geometry.coordinates, rings);
  }
});

// ---------------------------------------------------------------------------------------------
// The OSRM body, field by field

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPosition = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 2 && value.every(isNumber) && value.every((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6);
const isBearing = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 360;

function checkBody(
  t: ExecutionContext,
  body: any,
  mode: TravelMode,
  geometries: 'polyline' | 'polyline6' | 'geojson',
  context: string,
  { steps: withSteps = true, overview = true } = {},
): void {
  t.deepEqual(Object.keys(body).sort(), ['code', 'routes', 'waypoints'], context);
  t.is(body.code, 'Ok', context);
  for (const w of body.waypoints) {
    t.deepEqual(Object.keys(w).sort(), ['distance', 'location', 'name'], `${context}: waypoint keys (no hint)`);
    t.is(typeof w.name, 'string', context);
    t.true(isPosition(w.location), `${context}: waypoint location ${w.location}`);
    t.true(isNumber(w.distance) && w.distance >= 0, context);
  }
  for (const route of body.routes) {
    t.deepEqual(
      Object.keys(route).sort(),
      ['distance', 'duration', ...(overview ? ['geometry'] : []), 'legs', 'weight', 'weight_name'],
      context,
    );
    t.true(isNumber(route.distance) && route.distance >= 0 && isNumber(route.duration) && route.duration >= 0, context);
    t.is(route.weight_name, 'duration', context);
    t.is(route.weight, route.duration, context);
    if (overview) {
      const line = decodeGeometry(route.geometry, geometries);
      t.true(line.length >= 2, context);
      t.true(haversine(line[0]!, body.waypoints[0].location) < 1.5, `${context}: route geometry starts at the origin`);
      t.true(haversine(line.at(-1)!, body.waypoints.at(-1).location) < 1.5, `${context}: route geometry ends at the destination`);
    }
    t.is(route.legs.length, body.waypoints.length - 1, context);
    let legSum = 0;
    for (const leg of route.legs) {
      t.deepEqual(Object.keys(leg).sort(), ['distance', 'duration', 'steps', 'summary', 'weight'], context);
      t.is(typeof leg.summary, 'string', context);
      t.is(leg.weight, leg.duration, context);
      legSum += leg.distance;
      const steps = leg.steps as any[];
      if (!withSteps) {
        t.deepEqual(steps, [], context);
        continue;
      }
      t.true(steps.length >= 2, context);
      t.is(steps[0].maneuver.type, 'depart', context);
      t.is(steps.at(-1).maneuver.type, 'arrive', context);
      t.is(steps.at(-1).distance, 0, context);
      t.true(
        Math.abs(steps.reduce((sum, step) => sum + step.distance, 0) - leg.distance) <= 1,
        `${context}: leg distance is the sum of its steps`,
      );
      t.true(
        Math.abs(steps.reduce((sum, step) => sum + step.duration, 0) - leg.duration) <= 1,
        `${context}: leg duration is the sum of its steps`,
      );
      let previousEnd: LonLat | undefined;
      for (const [i, step] of steps.entries()) {
        const keys = Object.keys(step)
          .filter((key) => key !== 'ref')
          .sort();
        t.deepEqual(
          keys,
          ['distance', 'driving_side', 'duration', 'geometry', 'intersections', 'maneuver', 'mode', 'name', 'weight'],
          `${context} step ${i}`,
        );
        if ('ref' in step) t.true(typeof step.ref === 'string' && step.ref.length > 0, context);
        t.true(isNumber(step.distance) && step.distance >= 0 && isNumber(step.duration) && step.duration >= 0, context);
        t.is(step.weight, step.duration, context);
        t.is(typeof step.name, 'string', context);
        t.true([mode, 'ferry', ...(mode === 'cycling' ? ['pushing bike'] : [])].includes(step.mode), `${context}: step mode ${step.mode}`);
        t.is(step.driving_side, 'right', context);
        const { maneuver } = step;
        const maneuverKeys = Object.keys(maneuver)
          .filter((key) => key !== 'modifier' && key !== 'exit')
          .sort();
        t.deepEqual(maneuverKeys, ['bearing_after', 'bearing_before', 'instruction', 'location', 'type'], `${context} step ${i} maneuver`);
        t.true(
          [
            'depart',
            'arrive',
            'turn',
            'new name',
            'continue',
            'on ramp',
            'off ramp',
            'end of road',
            'roundabout',
            'exit roundabout',
            'notification',
          ].includes(maneuver.type),
          `${context}: ${maneuver.type}`,
        );
        if ('modifier' in maneuver)
          t.true(
            ['uturn', 'sharp right', 'right', 'slight right', 'straight', 'slight left', 'left', 'sharp left'].includes(maneuver.modifier),
            `${context}: ${maneuver.modifier}`,
          );
        t.true(isPosition(maneuver.location), context);
        t.true(
          isBearing(maneuver.bearing_before) && isBearing(maneuver.bearing_after),
          `${context}: bearings ${maneuver.bearing_before} ${maneuver.bearing_after}`,
        );
        t.true(typeof maneuver.instruction === 'string' && maneuver.instruction.length > 0, context);
        const points = decodeGeometry(step.geometry, geometries);
        t.true(points.length >= 2, `${context} step ${i}: geometry of ${points.length} points`);
        t.true(haversine(points[0]!, maneuver.location) < 1.5, `${context} step ${i}: geometry starts at its maneuver`);
        if (previousEnd) t.true(haversine(points[0]!, previousEnd) < 1.5, `${context} step ${i}: starts where the step before ended`);
        previousEnd = points.at(-1);
        t.true(Array.isArray(step.intersections) && step.intersections.length >= 1, context);
        for (const x of step.intersections) {
          t.true(isPosition(x.location), context);
          t.true(Array.isArray(x.bearings) && x.bearings.every(isBearing), context);
          t.true(
            Array.isArray(x.entry) && x.entry.length === x.bearings.length && x.entry.every((e: unknown) => typeof e === 'boolean'),
            context,
          );
          if ('in' in x) t.true(Number.isInteger(x.in) && x.in >= 0 && x.in < x.bearings.length, context);
          if ('out' in x) t.true(Number.isInteger(x.out) && x.out >= 0 && x.out < x.bearings.length, context);
        }
        t.deepEqual(step.intersections[0].location, maneuver.location, `${context} step ${i}: first intersection at the maneuver`);
      }
    }
    t.true(Math.abs(legSum - route.distance) <= 1, `${context}: route distance is the sum of its legs`);
  }
}

dataTest('the OSRM body, field by field, for each mode and geometry kind', FILES, async (t) => {
  for (const mode of MODES) {
    for (const geometries of ['polyline', 'polyline6', 'geojson'] as const) {
      const res = await get(main, 'directions', query(PLACES.jardin, PLACES.casino, mode, `&geometries=${geometries}`));
      t.is(res.status, 200);
      t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
      checkBody(t, res.body, mode, geometries, `${mode} ${geometries}`);
    }
  }
  const heidelbergRoute = await get(heidelberg, 'directions', query(PLACES.bismarckplatz, PLACES.altstadt, 'driving', '&alternatives=2'));
  checkBody(t, heidelbergRoute.body, 'driving', 'polyline', 'heidelberg');
});

dataTest('geometries decode to the same line; overview=false and steps=false; alternatives; lang=de', FILES, async (t) => {
  const ask = (extra: string) => get(main, 'directions', query(PLACES.casino, PLACES.stade, 'driving', extra));
  const geojson = (await ask('&geometries=geojson&overview=full')).body.routes[0];
  t.is(geojson.geometry.type, 'LineString');
  const full = geojson.geometry.coordinates as LonLat[];
  const six = decodeGeometry((await ask('&geometries=polyline6&overview=full')).body.routes[0].geometry, 'polyline6');
  const five = decodeGeometry((await ask('&geometries=polyline&overview=full')).body.routes[0].geometry, 'polyline');
  t.is(six.length, full.length);
  t.true(six.every((p, i) => Math.abs(p[0] - full[i]![0]) < 1.1e-6 && Math.abs(p[1] - full[i]![1]) < 1.1e-6));
  t.is(five.length, full.length);
  t.true(five.every((p, i) => Math.abs(p[0] - full[i]![0]) < 1.1e-5 && Math.abs(p[1] - full[i]![1]) < 1.1e-5));
  // The full line is every step's points; the simplified one keeps its ends and stays near it.
  const stepPoints = geojson.legs[0].steps.flatMap((step: { geometry: { coordinates: LonLat[] } }) => step.geometry.coordinates);
  t.true(full.every((p) => metresToLine(p, stepPoints) < 0.5));
  const simplified = (await ask('&geometries=geojson')).body.routes[0].geometry.coordinates as LonLat[];
  t.true(simplified.length >= 2 && simplified.length <= full.length);
  t.deepEqual(simplified[0], full[0]);
  t.deepEqual(simplified.at(-1), full.at(-1));
  t.true(
    full.every((p) => metresToLine(p, simplified) < 10),
    'the simplified line stays within a few metres of the route',
  );

  const noOverview = (await ask('&overview=false')).body.routes[0];
  t.false('geometry' in noOverview);
  t.true(noOverview.legs[0].steps.length > 2);
  const noSteps = (await ask('&steps=false')).body.routes[0];
  t.deepEqual(noSteps.legs[0].steps, []);
  t.is(noSteps.distance, noOverview.distance);

  const alternatives = (await ask('&alternatives=3')).body.routes as { duration: number }[];
  t.true(alternatives.length >= 1 && alternatives.length <= 4);
  t.true(
    alternatives.every((route) => route.duration >= alternatives[0]!.duration),
    'the best route first',
  );

  const german = (await ask('&lang=de')).body.routes[0].legs[0].steps;
  t.regex(german[0].maneuver.instruction, /^Fahren Sie Richtung/);
  t.regex(german.at(-1).maneuver.instruction, /Sie haben Ihr Ziel erreicht/);
  const english = (await ask('')).body.routes[0].legs[0].steps;
  t.deepEqual(
    german.map((step: { maneuver: { type: string } }) => step.maneuver.type),
    english.map((step: { maneuver: { type: string } }) => step.maneuver.type),
  );
});

// ---------------------------------------------------------------------------------------------
// Random pairs: 200 or a documented 422, never a 500

function randomPoint(random: () => number, [west, south, east, north]: number[]): LonLat {
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return [round(west! + random() * (east! - west!)), round(south! + random() * (north! - south!))];
}

const COMBOS: [Region, TravelMode][] = [
  ...MODES.map((mode): [Region, TravelMode] => ['monaco', mode]),
  ...MODES.map((mode): [Region, TravelMode] => ['andorra', mode]),
  ['heidelberg', 'driving'],
];

/** Every leg at least as long as the straight line between its snapped ends. */
function checkRoute(t: ExecutionContext, body: any, context: string): void {
  t.is(body.code, 'Ok', context);
  const locations = body.waypoints.map((w: { location: LonLat }) => w.location) as LonLat[];
  for (const route of body.routes) {
    route.legs.forEach((leg: { distance: number; duration: number }, i: number) => {
      const line = haversine(locations[i]!, locations[i + 1]!);
      t.true(leg.distance >= line - 1, `${context} leg ${i}: ${leg.distance} m < straight line ${line.toFixed(1)} m`);
      t.true(leg.duration >= 0 && (leg.distance < 1 || leg.duration > 0), `${context} leg ${i}: ${leg.duration} s for ${leg.distance} m`);
    });
  }
}

const HTTP_PAIRS = 70; // per region and mode: 560 requests
const DIRECT_PAIRS = 300; // per region and mode: 2400 on the engine
const REFERENCE_PAIRS = 40; // of those, checked against a plain Dijkstra, per region and mode

dataTest(
  `random pairs through HTTP: ${HTTP_PAIRS} per region and mode, random options, 200 or 422 NoSegment/NoRoute, never a 500`,
  FILES,
  async (t) => {
    const random = seededRandom(20261115);
    const statuses = new Map<string, number>();
    const jobs: (() => Promise<void>)[] = [];
    for (const [region, mode] of COMBOS) {
      for (let i = 0; i < HTTP_PAIRS; i++) {
        const points = Array.from({ length: 2 + (random() < 0.2 ? 1 + Math.floor(random() * 2) : 0) }, () =>
          randomPoint(random, REGIONS[region]),
        );
        const steps = random() < 0.5;
        const geometries = (['polyline', 'polyline6', 'geojson'] as const)[Math.floor(random() * 3)]!;
        const overview = (['simplified', 'full', 'false'] as const)[Math.floor(random() * 3)]!;
        const options = [
          `&steps=${steps}&geometries=${geometries}&overview=${overview}`,
          random() < 0.3 ? `&alternatives=${1 + Math.floor(random() * 3)}` : '',
          random() < 0.1 ? '&lang=fr' : '',
        ].join('');
        const waypoints = points.length > 2 ? `&waypoints=${points.slice(1, -1).map(latLng).join('|')}` : '';
        const q = query(points[0]!, points.at(-1)!, mode, `${waypoints}${options}`);
        jobs.push(async () => {
          const res = await get(servedFor(region), 'directions', q);
          const context = `${region} ${mode} ${q}`;
          const key = res.status === 422 ? `422 ${res.body?.code}` : String(res.status);
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (res.status === 200) {
            checkRoute(t, res.body, context);
            t.true(
              res.body.routes.every((route: { duration: number }) => route.duration >= res.body.routes[0].duration),
              `${context}: the best route first`,
            );
            checkBody(t, res.body, mode, geometries, context, { steps, overview: overview !== 'false' });
          } else if (res.status === 422 && res.body?.code === 'NoRoute') assertUnroutable(t, res, 'NoRoute', context);
          else assertUnroutable(t, res, 'NoSegment', context);
        });
      }
    }
    // Random isochrones too.
    for (let i = 0; i < 40; i++) {
      const region = (['monaco', 'andorra', 'heidelberg'] as const)[i % 3]!;
      const mode = region === 'heidelberg' ? 'driving' : MODES[Math.floor(random() * 3)]!;
      const q = `center=${latLng(randomPoint(random, REGIONS[region]))}&mode=${mode}&time=${1 + Math.floor(random() * 20)}${random() < 0.3 ? '&generalize=80' : ''}`;
      jobs.push(async () => {
        const res = await get(servedFor(region), 'isochrone', q);
        const key = `isochrone ${res.status === 422 ? `422 ${res.body?.code}` : res.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (res.status === 200) t.is(res.body.features.length, 1, q);
        else assertUnroutable(t, res, 'NoSegment', q);
      });
    }
    await inParallel(jobs.length, 4, (i) => jobs[i]!());
    t.log(Object.fromEntries([...statuses].sort()));
    t.false(statuses.has('500'), 'a 500 came back');
    t.true((statuses.get('200') ?? 0) > jobs.length / 3, 'most random pairs are routable');
    // No worker crashed: both servers still answer.
    t.is((await get(main, 'directions', query(PLACES.casino, PLACES.stade, 'walking'))).status, 200);
    t.is((await get(heidelberg, 'directions', query(PLACES.bismarckplatz, PLACES.hauptbahnhof, 'driving'))).status, 200);
  },
);

dataTest(
  `random pairs on the engine: ${DIRECT_PAIRS} per region and mode; the first ${REFERENCE_PAIRS} routable or not checked against a plain Dijkstra`,
  FILES,
  (t) => {
    const random = seededRandom(7);
    const counts: Record<string, number> = {};
    let mismatches = 0;
    for (const [region, mode] of COMBOS) {
      const graph = servedFor(region).graphs[mode]!;
      let referenced = 0;
      for (let i = 0; i < DIRECT_PAIRS; i++) {
        const [from, to] = [randomPoint(random, REGIONS[region]), randomPoint(random, REGIONS[region])];
        const extra = i % 3 === 0 ? '' : '&steps=false&overview=false';
        const q = query(from, to, mode, extra);
        const context = `${region} ${mode} ${q}`;
        let answer: ReturnType<typeof directionsOn>;
        try {
          answer = directionsOn(graph, q);
        } catch (error) {
          t.fail(`${context}: threw ${(error as Error).stack}`);
          continue;
        }
        const key = `${region} ${mode} ${answer.ok ? 'Ok' : answer.code}`;
        counts[key] = (counts[key] ?? 0) + 1;
        const snaps = [snap(graph, from[0], from[1], 2000), snap(graph, to[0], to[1], 2000)];
        if (!answer.ok) {
          t.true(answer.code === 'NoSegment' || answer.code === 'NoRoute', context);
          t.is(
            answer.code === 'NoSegment',
            snaps.includes(null),
            `${context}: ${answer.code} but the snaps are ${JSON.stringify(snaps.map((s) => s?.distance ?? null))}`,
          );
        } else {
          checkRoute(t, answer.body, context);
          const full = extra === '';
          checkBody(t, answer.body, mode, 'polyline', context, { steps: full, overview: full });
          if (mode === 'walking') {
            // Walkers have no oneways here and no turn restrictions: the way back takes as long.
            const back = directionsOn(graph, query(to, from, mode, '&steps=false&overview=false'));
            const there = answer.body.routes[0].duration;
            t.true(
              back.ok && Math.abs(back.body.routes[0].duration - there) <= 0.2 + 0.001 * there,
              `${context}: ${there} s there, ${back.ok ? back.body.routes[0].duration : back.code} back`,
            );
          }
        }
        if (referenced >= REFERENCE_PAIRS || snaps.includes(null)) continue;
        referenced++;
        const reference = referenceDeciseconds(graph, snaps[0]!, snaps[1]!);
        if (!answer.ok) {
          if (reference !== Infinity) mismatches++;
          t.is(reference, Infinity, `${context}: NoRoute but a plain Dijkstra finds ${reference / 10} s`);
          continue;
        }
        const duration = answer.body.routes[0].duration * 10;
        const ok = Math.abs(duration - reference) <= 2 + 0.002 * reference;
        if (!ok) mismatches++;
        t.true(ok, `${context}: ${duration / 10} s, a plain Dijkstra on the uncontracted graph finds ${reference / 10} s`);
      }
    }
    t.log(counts);
    t.is(mismatches, 0);
  },
);

dataTest('random isochrones on the engine: 3 centres per region and mode, contours nest and contain the centre', FILES, (t) => {
  const random = seededRandom(11);
  let answered = 0;
  let insideChecks = 0;
  for (const [region, mode] of COMBOS) {
    const graph = servedFor(region).graphs[mode]!;
    for (let i = 0; i < 3; i++) {
      const centre = randomPoint(random, REGIONS[region]);
      const generalize = i === 2 ? 60 : 0;
      const q = `center=${latLng(centre)}&mode=${mode}&time=3,6,9${generalize ? `&generalize=${generalize}` : ''}`;
      const answer = isochroneOn(graph, q);
      if (!answer.ok) {
        t.is(answer.code, 'NoSegment', q);
        continue;
      }
      answered++;
      checkIsochrone(t, answer.body, centre, mode, [9, 6, 3], generalize, false, `${region} ${q}`);
      if (generalize) continue;
      // A road point the route from the centre reaches well within a contour's time lies inside it.
      const shapes = (answer.body.features as { geometry: { type: string; coordinates: unknown } }[]).map((f) => polygonsOf(f.geometry));
      for (let j = 0; j < 20; j++) {
        const [lon, lat] = centre;
        const target = randomPoint(random, [lon - 0.02, lat - 0.015, lon + 0.02, lat + 0.015]);
        const route = directionsOn(graph, query(centre, target, mode, '&steps=false&overview=false'));
        if (!route.ok) continue;
        const reached = route.body.waypoints[1].location as LonLat;
        const seconds = route.body.routes[0].duration;
        [9, 6, 3].forEach((minutes, k) => {
          if (seconds > 0.9 * minutes * 60) return;
          insideChecks++;
          t.true(
            inPolygons(reached, shapes[k]!),
            `${region} ${q}: ${latLng(reached)} is reached in ${seconds} s but lies outside the ${minutes} min contour`,
          );
        });
      }
    }
  }
  t.true(answered >= 12, `only ${answered} random centres answered`);
  t.log(`${answered} isochrones, ${insideChecks} reached points checked inside their contours`);
  t.true(insideChecks >= 50);
});
