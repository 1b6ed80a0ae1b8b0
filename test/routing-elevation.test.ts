/**
 * Routes with elevation (issue 28) through the real server, on Monaco's routing graphs and its SRTM
 * tile: `elevation=true` on /directions, /match and /optimize adds per route `ascent`, `descent` and
 * an elevation profile, one [metres along, elevation] pair per point of the geometry, each the
 * store's elevation there; ascent − descent is the climb from start to end; a route up the hill
 * climbs and the way back down descends; `elevation` other than true/false is a 400; a dataset
 * without DEMs answers 503. The hysteresis that keeps SRTM's noise out of ascent is checked on
 * made-up surfaces.
 */
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { ElevationStore } from '../core/terrain/elevation-store.js';
import { buildElevationStore, planElevation } from '../data-pipeline/terrain/build.js';
import { routeElevation } from '../workers/routing/response/route-elevation.js';
import { MONACO_DEM } from './helpers/dem.js';
import { assertError, call } from './helpers/http.js';
import { decodeGeometry, haversine, latLng, writeRoutingDataset } from './helpers/routing.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const MONACO_BOUNDS: [number, number, number, number] = [7.349, 43.7148, 7.491, 43.77];
/** Port Hercule's quay, a few metres above the sea, and the Jardin Exotique, some 100 m up the cliff. */
const PORT: LonLat = [7.4251594, 43.7352572];
const JARDIN_EXOTIQUE: LonLat = [7.4153, 43.7315];
const CASINO: LonLat = [7.4275372, 43.7399476];

let server: TestServer;
let flatServer: TestServer;
let key: string;
let flatKey: string;
let store: ElevationStore;
const scratch = mkdtempSync(join(tmpdir(), 'waymark-routing-elevation-'));

test.before(async () => {
  if (!existsSync(MONACO) || !existsSync(MONACO_DEM)) return;
  const dataDir = join(scratch, 'hilly');
  const dir = await writeRoutingDataset(dataDir, [MONACO], ['driving', 'walking', 'cycling'], MONACO_BOUNDS);
  const elevation = await buildElevationStore(await planElevation([MONACO_DEM]), paths.elevation(dir), () => {});
  const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8'));
  writeFileSync(paths.manifest(dir), JSON.stringify({ ...manifest, elevation }));
  store = ElevationStore.open(paths.elevation(dir));
  server = await startTestServer({ dataDir });
  key = (await server.createKey(await server.signUp())).value;
  const flatDir = join(scratch, 'flat');
  await writeRoutingDataset(flatDir, [MONACO], ['walking'], MONACO_BOUNDS);
  flatServer = await startTestServer({ dataDir: flatDir });
  flatKey = (await flatServer.createKey(await flatServer.signUp())).value;
});

test.after.always(async () => {
  store?.close();
  await server?.close();
  await flatServer?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const api = (path: string, query: string) => call(`${server.url}/api/v1${path}?${query}&key=${key}`);

interface ClimbingRoute {
  distance: number;
  geometry: unknown;
  ascent: number | null;
  descent: number | null;
  elevation_profile: [number, number | null][];
}

/** The profile is the store's elevation at each point of the geometry, at metres along it that grow from 0 to the route's length. */
function checkProfile(t: import('ava').ExecutionContext, route: ClimbingRoute, points: LonLat[], tolerance: number): void {
  const profile = route.elevation_profile;
  t.is(profile.length, points.length, 'one pair per point of the geometry');
  t.is(profile[0]![0], 0);
  for (let i = 1; i < profile.length; i++) t.true(profile[i]![0] >= profile[i - 1]![0], `distances grow at ${i}`);
  t.true(Math.abs(profile.at(-1)![0] - route.distance) <= 0.01 * route.distance + 1, `${profile.at(-1)![0]} m of ${route.distance} m`);
  points.forEach((point, i) => {
    const expected = store.elevationAt(...point)!;
    t.true(Math.abs(profile[i]![1]! - expected) <= tolerance, `point ${i}: ${profile[i]![1]} against the store's ${expected}`);
  });
  // ascent − descent is the last elevation minus the first (each to 0.1 m).
  const climb = profile.at(-1)![1]! - profile[0]![1]!;
  t.true(Math.abs(route.ascent! - route.descent! - climb) <= 0.3, `${route.ascent} − ${route.descent} against ${climb}`);
}

dataTest(
  '/directions elevation=true: ascent and descent, a profile point for point equal to the store; up the hill climbs, down descends',
  [MONACO, MONACO_DEM],
  async (t) => {
    const up = await api(
      '/directions',
      `origin=${latLng(PORT)}&destination=${latLng(JARDIN_EXOTIQUE)}&mode=walking&elevation=true&geometries=geojson&overview=full`,
    );
    t.is(up.status, 200, up.text);
    const route = up.body.routes[0] as ClimbingRoute;
    t.deepEqual(Object.keys(route).slice(-3), ['ascent', 'descent', 'elevation_profile']);
    checkProfile(t, route, (route.geometry as { coordinates: LonLat[] }).coordinates, 0.1);
    t.true(route.elevation_profile.at(-1)![1]! - route.elevation_profile[0]![1]! > 50, 'the Jardin Exotique is high above the port');
    t.true(route.ascent! > 50, `ascent ${route.ascent}`);
    const down = await api('/directions', `origin=${latLng(JARDIN_EXOTIQUE)}&destination=${latLng(PORT)}&mode=walking&elevation=true`);
    const back = down.body.routes[0] as ClimbingRoute;
    t.true(back.descent! > 50 && back.descent! > back.ascent!, `down: ascent ${back.ascent}, descent ${back.descent}`);
    // The simplified polyline: a profile point per point it keeps.
    checkProfile(t, back, decodeGeometry(back.geometry, 'polyline'), 1.5);
    // Alternatives and via points: every route has its own.
    const several = await api(
      '/directions',
      `origin=${latLng(PORT)}&destination=${latLng(CASINO)}&waypoints=${latLng(JARDIN_EXOTIQUE)}&mode=driving&elevation=true&overview=false`,
    );
    t.is(several.status, 200, several.text);
    const loop = several.body.routes[0] as ClimbingRoute;
    t.is(loop.geometry, undefined);
    t.true(loop.ascent! > 50 && loop.descent! > 20, `${loop.ascent} up, ${loop.descent} down`);
    t.true(loop.elevation_profile.length > 10, 'overview=false: the profile of the whole line');
    const plain = await api('/directions', `origin=${latLng(PORT)}&destination=${latLng(CASINO)}&elevation=false`);
    t.false('ascent' in plain.body.routes[0], 'no elevation unless asked');
  },
);

dataTest('/match and /optimize take elevation=true too', [MONACO, MONACO_DEM], async (t) => {
  const line = (
    await api('/directions', `origin=${latLng(PORT)}&destination=${latLng(JARDIN_EXOTIQUE)}&mode=walking&overview=full&geometries=geojson`)
  ).body.routes[0].geometry.coordinates as LonLat[];
  const trace = [0, 0.25, 0.5, 0.75, 1].map((share) => line[Math.round(share * (line.length - 1))]!);
  const matched = await api('/match', `points=${trace.map(latLng).join('|')}&mode=walking&elevation=true&geometries=geojson&overview=full`);
  t.is(matched.status, 200, matched.text);
  const matching = matched.body.matchings[0] as ClimbingRoute;
  checkProfile(t, matching, (matching.geometry as { coordinates: LonLat[] }).coordinates, 0.1);
  t.true(matching.ascent! > 50);
  const trip = await api('/optimize', `points=${[PORT, JARDIN_EXOTIQUE, CASINO].map(latLng).join('|')}&mode=walking&elevation=true`);
  t.is(trip.status, 200, trip.text);
  const round = trip.body.routes[0] as ClimbingRoute;
  // A round trip ends where it started: what it climbs it descends.
  t.true(round.ascent! > 50);
  t.true(Math.abs(round.ascent! - round.descent!) <= 0.3, `${round.ascent} up, ${round.descent} down`);
});

dataTest('elevation: a bad value is a 400 naming it; a dataset without DEMs answers 503', [MONACO, MONACO_DEM], async (t) => {
  const query = `origin=${latLng(PORT)}&destination=${latLng(CASINO)}`;
  for (const [path, base] of [
    ['/directions', query],
    ['/match', `points=${latLng(PORT)}|${latLng(CASINO)}`],
    ['/optimize', `points=${latLng(PORT)}|${latLng(CASINO)}`],
  ] as const) {
    const bad = await api(path, `${base}&elevation=yes`);
    t.is(assertError(t, bad, 400), "invalid parameter 'elevation': 'yes' is not true or false");
    const twice = await api(path, `${base}&elevation=true&elevation=true`);
    assertError(t, twice, 400);
    const none = await call(`${flatServer.url}/api/v1${path}?${base}&mode=walking&elevation=true&key=${flatKey}`);
    t.is(
      assertError(t, none, 503),
      'elevation=true: the served dataset has no elevation data: the operator must import DEMs (waymark import --dem FILE_OR_DIR)',
    );
    const without = await call(`${flatServer.url}/api/v1${path}?${base}&mode=walking&key=${flatKey}`);
    t.not(without.status, 503, 'without elevation=true, the same request is answered (a trace this sparse may not match: 422)');
  }
});

/** A made-up surface along a west–east line at the equator: elevation as a function of metres east. */
function surface(ofMetres: (metres: number) => number | null) {
  const metresPerDegree = haversine([0, 0], [1, 0]);
  return { elevationAt: (lon: number) => ofMetres(lon * metresPerDegree) };
}
const lineOf = (metres: number, points: number): LonLat[] => {
  const degrees = metres / haversine([0, 0], [1, 0]);
  return Array.from({ length: points }, (_, i) => [(degrees * i) / (points - 1), 0]);
};

test('ascent and descent: noise below the threshold adds nothing, a climb counts whole, between the points too', (t) => {
  // Flat ground with ±2 m of noise every 10 m: nothing climbed.
  const noisy = surface((m) => 100 + (Math.round(m / 10) % 2 === 0 ? 2 : -2));
  const flat = routeElevation(lineOf(2000, 201), [0, 200], noisy);
  t.deepEqual([flat.ascent, flat.descent], [0, 0]);
  // Up 80 m and down 30 m with the same noise: counted whole, the noise not.
  const hill = surface((m) => 100 + (m < 1000 ? 0.08 * m : 80 - 0.03 * (m - 1000)) + (Math.round(m / 10) % 2 === 0 ? 2 : -2));
  const climbed = routeElevation(lineOf(2000, 201), [0, 100, 200], hill);
  t.true(climbed.ascent! >= 80 && climbed.ascent! <= 84, `${climbed.ascent} up`);
  t.true(climbed.descent! >= 30 && climbed.descent! <= 34, `${climbed.descent} down`);
  const [first, last] = [climbed.elevation_profile[0]![1]!, climbed.elevation_profile[2]![1]!];
  t.is(Math.round((climbed.ascent! - climbed.descent!) * 10), Math.round((last - first) * 10), 'ascent − descent: last − first');
  t.deepEqual(
    climbed.elevation_profile.map(([metres]) => Math.round(metres)),
    [0, 1000, 2000],
  );
  // A valley between two far points of the line is sampled (every 20 m at most).
  const valley = surface((m) => 50 - 40 * Math.sin((Math.PI * m) / 1000));
  const across = routeElevation(lineOf(1000, 2), [0, 1], valley);
  t.true(Math.abs(across.descent! - 40) < 0.5 && Math.abs(across.ascent! - 40) < 0.5, `${across.descent} down, ${across.ascent} up`);
  // No elevation anywhere: null, and null in the profile; partly covered: the covered part counts.
  const nowhere = routeElevation(
    lineOf(100, 3),
    [0, 1, 2],
    surface(() => null),
  );
  t.deepEqual(nowhere, {
    ascent: null,
    descent: null,
    elevation_profile: [
      [0, null],
      [50, null],
      [100, null],
    ],
  });
  const half = routeElevation(
    lineOf(1000, 3),
    [0, 1, 2],
    surface((m) => (m <= 610 ? m / 10 : null)),
  );
  t.deepEqual([half.ascent, half.descent], [60, 0]);
});
