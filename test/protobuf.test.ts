// Protobuf bodies on real data (Monaco: a driving graph and a geocoder index built from the OSM
// extract, an elevation store from its SRTM tile), through the real server: every endpoint answers the same request as JSON and as
// protobuf; the protobuf is decoded with protobufjs from the schemas the server publishes (not the
// local files), mapped back to JSON as docs/API.md describes, and must equal the JSON answer.
// Both cost one unit; `format` other than json/pbf is a 400; errors stay JSON.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { paths } from '../core/dataset-layout.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { buildElevationStore, planElevation } from '../data-pipeline/terrain/build.js';
import { MONACO_DEM } from './helpers/dem.js';
import { call, errorBodyFault } from './helpers/http.js';
import { latLng, writeRoutingDataset } from './helpers/routing.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const CASINO: LonLat = [7.4275372, 43.7399476];
const STADE: LonLat = [7.4142063, 43.7271149];
const PORT: LonLat = [7.4251594, 43.7352572];
const PROTOBUF = 'application/x-protobuf';

let server: TestServer;
let key: string;
let dataDir: string;
let schemas: protobuf.Root;

/** The published schemas in one protobufjs root: each file fetched, `google/protobuf/*` from protobufjs' copies. */
async function fetchSchemas(base: string): Promise<protobuf.Root> {
  const listing = (await call(`${base}/api/v1/schemas/`)).body as { schemas: { name: string; url: string }[] };
  const root = new protobuf.Root();
  const published = new Set(listing.schemas.map((s) => s.name));
  for (const { url } of listing.schemas) {
    const parsed = protobuf.parse(await (await fetch(`${base}${url}`)).text(), root, { keepCase: true });
    for (const imported of parsed.imports ?? []) {
      const common = protobuf.common.get(imported);
      if (common) root.addJSON(common.nested!);
      else if (!published.has(imported)) throw new Error(`schema import ${imported} is not published`);
    }
  }
  root.resolveAll();
  return root;
}

// Serial tests: the metering checks read the organization's one quota counter.
test.before(async () => {
  if (!existsSync(MONACO)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-protobuf-'));
  const dir = await writeRoutingDataset(dataDir, [MONACO], ['driving'], [7.349, 43.7148, 7.491, 43.77]);
  await buildGeocoderIndex({ osmFiles: [MONACO], wofDirs: [], oaFiles: [], geonames: false }, paths.geocoder(dir), () => {});
  const elevation = existsSync(MONACO_DEM)
    ? await buildElevationStore(await planElevation([MONACO_DEM]), paths.elevation(dir), () => {})
    : undefined;
  const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8'));
  writeFileSync(paths.manifest(dir), JSON.stringify({ ...manifest, inputs: ['osm:monaco.osm.pbf'], elevation }));
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'pro');
  key = (await server.createKey(account)).value;
  schemas = await fetchSchemas(server.url);
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The documented mapping back to JSON (docs/API.md, "Protobuf bodies"), written from the docs.

/** waymark.Geometry → GeoJSON geometry. */
function geoJson(g: { type: string; coordinates: number[]; lengths: number[]; parts: number[] }): unknown {
  const positions: number[][] = [];
  for (let i = 0; i < g.coordinates.length; i += 2) positions.push([g.coordinates[i]!, g.coordinates[i + 1]!]);
  let next = 0;
  const take = <T>(list: T[], count: number) => list.slice(next, (next += count));
  const lines = () => g.lengths.map((length) => take(positions, length));
  switch (g.type) {
    case 'Point':
      return { type: g.type, coordinates: positions[0] };
    case 'LineString':
      return { type: g.type, coordinates: positions };
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: lines() };
    case 'MultiPolygon': {
      const rings = lines();
      next = 0;
      return { type: g.type, coordinates: g.parts.map((count) => take(rings, count)) };
    }
  }
  throw new Error(`unknown geometry type ${g.type}`);
}

/** google.protobuf.Value → JSON. */
function valueJson(v: any): unknown {
  if ('nullValue' in v) return null;
  if ('numberValue' in v) return v.numberValue;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('listValue' in v) return (v.listValue.values ?? []).map(valueJson);
  return structJson(v.structValue);
}
const structJson = (s: any): unknown => Object.fromEntries(Object.entries(s.fields ?? {}).map(([k, v]) => [k, valueJson(v)]));

/** Repeated fields the JSON leaves out when empty. */
const OMITTED_WHEN_EMPTY = new Set(['warnings', 'bbox', 'category']);

/** A decoded message (toObject with defaults) → the JSON answer it stands for. */
function toJson(type: protobuf.Type, object: any): any {
  switch (type.fullName) {
    case '.waymark.Geometry':
      return geoJson(object);
    case '.waymark.RouteGeometry':
      return object.polyline ?? geoJson(object.geojson);
    case '.waymark.Matrix': {
      const rows: (number | null)[][] = [];
      for (let i = 0; i < object.values.length; i += object.columns)
        rows.push(object.values.slice(i, i + object.columns).map((v: number) => (Number.isNaN(v) ? null : v)));
      return rows;
    }
    case '.google.protobuf.Struct':
      return structJson(object);
    case '.waymark.Tracepoint':
      // An unmatched trace point: the JSON's null.
      if (object.location.length === 0) return null;
      break;
    case '.waymark.ElevationProfile':
      // Two lists, NaN where the JSON's pair has null.
      return object.distances.map((distance: number, i: number) => [
        distance,
        Number.isNaN(object.elevations[i]) ? null : object.elevations[i],
      ]);
    case '.waymark.ElevationResult':
      // Outside the coverage, elevation and resolution are absent: the JSON's nulls.
      return {
        elevation: object.elevation ?? null,
        location: toJson(type.fields.location!.resolvedType as protobuf.Type, object.location),
        resolution: object.resolution ?? null,
      };
  }
  const json: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    const field = type.fields[name]!;
    if (field.repeated && OMITTED_WHEN_EMPTY.has(name) && (value as unknown[]).length === 0) continue;
    const sub = field.resolvedType;
    if (!(sub instanceof protobuf.Type)) json[name] = value;
    else json[name] = field.repeated ? (value as unknown[]).map((v) => toJson(sub, v)) : toJson(sub, value);
  }
  return json;
}

// ---------------------------------------------------------------------------------------------

const url = (path: string, query: string) => `${server.url}/api/v1${path}?${query}&key=${key}`;

interface Pair {
  json: any;
  decoded: any;
  pbfBytes: Uint8Array;
}

/** The same request as JSON and as protobuf (Accept), both checked for status, type and one unit each. */
async function fetchBoth(t: ExecutionContext, path: string, query: string, typeName: string): Promise<Pair> {
  const json = await fetch(url(path, query));
  t.is(json.status, 200, await json.clone().text());
  t.regex(json.headers.get('content-type') ?? '', /^application\/json/);
  t.is(json.headers.get('vary'), 'Accept');
  const pbf = await fetch(url(path, query), { headers: { Accept: PROTOBUF } });
  t.is(pbf.status, 200);
  t.is(pbf.headers.get('content-type'), `${PROTOBUF}; messageType=${typeName}`);
  t.is(pbf.headers.get('vary'), 'Accept');
  // Metering: one unit each, whatever the format.
  t.is(Number(json.headers.get('x-ratelimit-remaining')) - Number(pbf.headers.get('x-ratelimit-remaining')), 1);
  const pbfBytes = new Uint8Array(await pbf.arrayBuffer());
  const type = schemas.lookupType(typeName);
  const decoded = toJson(type, type.toObject(type.decode(pbfBytes), { longs: Number, defaults: true, arrays: true }));
  return { json: await json.json(), decoded, pbfBytes };
}

/** Routing answers are deterministic: equal after the mapping, and `format=pbf` gives the same bytes as Accept. */
async function routingCase(t: ExecutionContext, path: string, query: string, typeName: string): Promise<any> {
  const { json, decoded, pbfBytes } = await fetchBoth(t, path, query, typeName);
  t.deepEqual(decoded, json);
  const byParameter = await fetch(url(path, `${query}&format=pbf`));
  t.is(byParameter.headers.get('content-type'), `${PROTOBUF}; messageType=${typeName}`);
  t.deepEqual(new Uint8Array(await byParameter.arrayBuffer()), pbfBytes);
  return json;
}

/** Geocoding answers differ only in `geocoding.timestamp` between two requests. */
async function geocodingCase(t: ExecutionContext, path: string, query: string): Promise<any> {
  const { json, decoded } = await fetchBoth(t, path, query, 'waymark.GeocodeResponse');
  t.true(Math.abs(decoded.geocoding.timestamp - json.geocoding.timestamp) < 60_000);
  t.deepEqual(
    { ...decoded, geocoding: { ...decoded.geocoding, timestamp: 0 } },
    { ...json, geocoding: { ...json.geocoding, timestamp: 0 } },
  );
  t.true(json.features.length > 0, 'a case with features');
  return json;
}

const trip = `origin=${latLng(CASINO)}&destination=${latLng(STADE)}&mode=driving`;

dataTest(
  'directions: polyline with steps, GeoJSON with steps, no overview with alternatives, with elevation',
  [MONACO, MONACO_DEM],
  async (t) => {
    const steps = await routingCase(t, '/directions', `${trip}&steps=true`, 'waymark.DirectionsResponse');
    t.true(steps.routes[0].legs[0].steps.length > 2);
    const geojson = await routingCase(
      t,
      '/directions',
      `${trip}&steps=true&geometries=geojson&waypoints=${latLng(PORT)}`,
      'waymark.DirectionsResponse',
    );
    t.is(geojson.routes[0].geometry.type, 'LineString');
    t.is(geojson.routes[0].legs.length, 2);
    const bare = await routingCase(t, '/directions', `${trip}&overview=false&alternatives=true`, 'waymark.DirectionsResponse');
    t.is(bare.routes[0].geometry, undefined);
    const climbing = await routingCase(t, '/directions', `${trip}&elevation=true&alternatives=true`, 'waymark.DirectionsResponse');
    t.true(climbing.routes[0].ascent > 0);
    t.true(climbing.routes[0].elevation_profile.length > 1);
  },
  true,
);

dataTest(
  'isochrone: polygons and outlines',
  [MONACO],
  async (t) => {
    const areas = await routingCase(t, '/isochrone', `center=${latLng(CASINO)}&time=2,5&mode=driving`, 'waymark.IsochroneResponse');
    t.is(areas.features.length, 2);
    t.regex(areas.features[0].geometry.type, /Polygon/);
    const outlines = await routingCase(
      t,
      '/isochrone',
      `center=${latLng(CASINO)}&time=3&mode=driving&polygons=false`,
      'waymark.IsochroneResponse',
    );
    t.regex(outlines.features[0].geometry.type, /LineString/);
  },
  true,
);

dataTest(
  'matrix: durations and distances, and one annotation',
  [MONACO],
  async (t) => {
    const points = [CASINO, STADE, PORT].map(latLng).join('|');
    const both = await routingCase(t, '/matrix', `sources=${points}&destinations=${points}&mode=driving`, 'waymark.MatrixResponse');
    t.is(both.durations.length, 3);
    t.is(both.distances[0].length, 3);
    const one = await routingCase(
      t,
      '/matrix',
      `sources=${points}&destinations=${latLng(PORT)}&mode=driving&annotations=distance`,
      'waymark.MatrixResponse',
    );
    t.is(one.durations, undefined);
  },
  true,
);

dataTest(
  'match: matchings with their confidence, tracepoints with an unmatched one, with elevation',
  [MONACO, MONACO_DEM],
  async (t) => {
    // Points along the route from the casino to the stadium; the second 1 m from the first: tidied
    // away, so its tracepoint is null.
    const line: LonLat[] = (await call(url('/directions', `${trip}&overview=full&geometries=geojson&steps=false`))).body.routes[0].geometry
      .coordinates;
    const along = [0.3, 0.6, 1].map((share) => line[Math.round(share * (line.length - 1))]!);
    const points = [line[0]!, [line[0]![0] + 0.00001, line[0]![1]] as LonLat, ...along].map(latLng).join('|');
    const tidied = await routingCase(t, '/match', `points=${points}&tidy=true`, 'waymark.MatchResponse');
    t.is(tidied.tracepoints[1], null);
    t.is(tidied.tracepoints[4].matchings_index, 0);
    t.true(tidied.matchings[0].confidence >= 0);
    const geojson = await routingCase(
      t,
      '/match',
      `points=${points}&steps=true&geometries=geojson&overview=full&elevation=true`,
      'waymark.MatchResponse',
    );
    t.is(geojson.matchings[0].elevation_profile.length, geojson.matchings[0].geometry.coordinates.length);
    t.is(geojson.matchings[0].geometry.type, 'LineString');
    t.true(geojson.matchings[0].legs[0].steps.length > 0);
  },
  true,
);

dataTest(
  'optimize: a round trip and a one-way trip to the last point, with elevation',
  [MONACO, MONACO_DEM],
  async (t) => {
    const points = [CASINO, STADE, PORT].map(latLng).join('|');
    const round = await routingCase(t, '/optimize', `points=${points}&mode=driving`, 'waymark.OptimizeResponse');
    t.is(round.order.length, 4);
    t.is(round.routes[0].legs.length, 3);
    const oneWay = await routingCase(
      t,
      '/optimize',
      `points=${points}&roundtrip=false&destination=last&geometries=geojson&overview=false&elevation=true`,
      'waymark.OptimizeResponse',
    );
    t.is(oneWay.order.at(-1), 2);
    t.is(oneWay.routes[0].geometry, undefined);
    t.true(oneWay.routes[0].elevation_profile.length > 2, 'with overview=false, the profile of the whole line');
  },
  true,
);

dataTest(
  'geocoding: search, autocomplete, the /geocode alias, structured search, reverse and place',
  [MONACO],
  async (t) => {
    const found = await geocodingCase(t, '/geocoding/search', 'text=Casino%20de%20Monte-Carlo&lang=fr');
    await geocodingCase(t, '/geocoding/autocomplete', 'text=Stade%20Lou');
    const eateries = await geocodingCase(
      t,
      '/geocoding/search',
      'text=Cafe%20de%20Paris&categories=&boundary.circle.lat=43.74&boundary.circle.lon=7.43',
    );
    t.true(
      eateries.features.some((feature: any) => feature.properties.category?.includes('food')),
      'the category property',
    );
    await geocodingCase(t, '/geocode', 'q=Port%20Hercule');
    await geocodingCase(t, '/geocoding/search/structured', 'address=Avenue%20de%20Monte-Carlo&locality=Monaco');
    const near = await geocodingCase(t, '/geocoding/reverse', `point.lat=${CASINO[1]}&point.lon=${CASINO[0]}&size=5`);
    t.true(near.features.every((f: any) => typeof f.properties.distance === 'number'));
    await geocodingCase(
      t,
      '/geocoding/place',
      `ids=${found.features
        .map((f: any) => f.properties.gid)
        .slice(0, 3)
        .join(',')}`,
    );
  },
  true,
);

dataTest(
  "elevation: locations in and out of the coverage, and a path's samples",
  [MONACO, MONACO_DEM],
  async (t) => {
    const points = await routingCase(
      t,
      '/elevation',
      `locations=${[CASINO, STADE, [4, 43] as LonLat].map(latLng).join('|')}`,
      'waymark.ElevationResponse',
    );
    t.is(points.results[2].elevation, null);
    t.true(points.results[0].elevation > 0);
    const path = await routingCase(t, '/elevation', `path=${[CASINO, PORT].map(latLng).join('|')}&samples=5`, 'waymark.ElevationResponse');
    t.is(path.results.length, 5);
  },
  true,
);

dataTest(
  'a search with a warning and none found: warnings and an empty list survive',
  [MONACO],
  async (t) => {
    const query = 'text=zzzqqqxxnotaplace&size=100';
    const { json, decoded } = await fetchBoth(t, '/geocoding/search', query, 'waymark.GeocodeResponse');
    t.deepEqual(json.features, []);
    t.deepEqual(decoded.features, []);
    t.deepEqual(decoded.geocoding.warnings, json.geocoding.warnings);
    t.deepEqual(decoded.bbox, json.bbox);
  },
  true,
);

dataTest(
  'format=json and the Accept weights: JSON unless protobuf is preferred',
  [MONACO],
  async (t) => {
    const type = async (query: string, accept?: string) =>
      (await fetch(url('/directions', `${trip}${query}`), accept ? { headers: { Accept: accept } } : {})).headers.get('content-type') ?? '';
    t.regex(await type('&format=json', PROTOBUF), /^application\/json/);
    t.regex(await type('', '*/*'), /^application\/json/);
    t.regex(await type('', `application/json, ${PROTOBUF};q=0.5`), /^application\/json/);
    t.regex(await type('', `application/json;q=0.9, ${PROTOBUF}`), /^application\/x-protobuf/);
    t.regex(await type('', 'application/protobuf'), /^application\/x-protobuf/);
  },
  true,
);

dataTest(
  'format=xml, or format twice, is a 400 naming the parameter, not metered',
  [MONACO],
  async (t) => {
    for (const query of ['format=xml', 'format=pbf&format=json']) {
      const before = await fetch(url('/directions', trip));
      const bad = await call(url('/directions', `${trip}&${query}`), { headers: { Accept: PROTOBUF } });
      t.is(bad.status, 400);
      t.is(errorBodyFault(bad), null);
      t.regex(bad.body.message, /format/);
      t.is(bad.headers.get('x-ratelimit-remaining'), before.headers.get('x-ratelimit-remaining'));
    }
  },
  true,
);

dataTest(
  'errors stay JSON when protobuf is asked for',
  [MONACO],
  async (t) => {
    const headers = { Accept: PROTOBUF };
    const badParameter = await call(url('/directions', 'origin=91,0&destination=0,0&format=pbf'), { headers });
    t.is(badParameter.status, 400);
    t.regex(badParameter.headers.get('content-type') ?? '', /^application\/json/);
    t.is(errorBodyFault(badParameter), null);
    const inTheSea = await call(url('/directions', `origin=43.72,7.48&destination=${latLng(CASINO)}&mode=driving`), { headers });
    t.is(inTheSea.status, 422);
    t.regex(inTheSea.headers.get('content-type') ?? '', /^application\/json/);
    t.is(inTheSea.body.code, 'NoSegment');
    const noKey = await call(`${server.url}/api/v1/geocoding/search?text=Monaco&format=pbf`, { headers });
    t.is(noKey.status, 401);
    t.regex(noKey.headers.get('content-type') ?? '', /^application\/json/);
  },
  true,
);

dataTest(
  'the schemas are public, cacheable and list the message of each endpoint',
  [MONACO],
  async (t) => {
    const listing = await call(`${server.url}/api/v1/schemas/`);
    t.is(listing.status, 200);
    t.regex(listing.headers.get('cache-control') ?? '', /public, max-age=\d+/);
    t.deepEqual(
      listing.body.schemas.map((s: any) => s.name),
      ['elevation.proto', 'geocoding.proto', 'geometry.proto', 'routing.proto'],
    );
    t.is(listing.body.messages['/api/v1/matrix'], 'waymark.MatrixResponse');
    t.is(listing.body.messages['/api/v1/match'], 'waymark.MatchResponse');
    t.is(listing.body.messages['/api/v1/optimize'], 'waymark.OptimizeResponse');
    t.is(listing.body.messages['/api/v1/elevation'], 'waymark.ElevationResponse');
    for (const type of Object.values(listing.body.messages) as string[]) t.truthy(schemas.lookupType(type));
    const file = await fetch(`${server.url}/v1/schemas/routing.proto`);
    t.is(file.status, 200);
    t.regex(file.headers.get('content-type') ?? '', /^text\/plain/);
    t.regex(await file.text(), /message DirectionsResponse/);
    const again = await fetch(`${server.url}/api/v1/schemas/routing.proto`, { headers: { 'If-None-Match': file.headers.get('etag')! } });
    t.is(again.status, 304);
    t.is((await fetch(`${server.url}/api/v1/schemas/secret.proto`)).status, 404);
  },
  true,
);
