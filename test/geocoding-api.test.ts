// The geocoding endpoints through the real server: Pelias bodies, scope and metering, every 400
// of PRODUCT.md with the uniform error body, fuzzed parameters that never give a 500, and 503
// for a dataset without an index. The index is built from the hand-written town of the OSM fixtures.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { writeTestDataset } from './helpers/dataset.js';
import { GEOCODING_PARAMETERS } from '../src/geocoding/sanitize/endpoints.js';
import { assertError, call, junk, seededRandom } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const TOWN = join(process.cwd(), 'test', 'fixtures', 'osm', 'geocoding-town.osm');
const ADDRESSES = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID\n8.0071,48.0036,11,Hauptstraße,,Testdorf,,,12345,a1\n';

let server: TestServer;
let key: string;
let mapsOnly: string;
let dataDir: string;

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-api-'));
  const dataset = await writeTestDataset(dataDir);
  const oa = join(dataDir, 'town.csv');
  writeFileSync(oa, ADDRESSES);
  await buildGeocoderIndex({ osmFiles: [TOWN], wofDirs: [], oaFiles: [oa], geonames: false }, paths.geocoder(dataset.dir), () => {});
  writeFileSync(paths.manifest(dataset.dir), JSON.stringify({ ...dataset.manifest, inputs: ['osm:geocoding-town.osm', 'oa:town.csv'] }));
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  // Enterprise: no per-minute limit, for the fuzz's hundreds of searches a minute (the test clock stands still).
  await server.store.setTier(account.orgId, 'enterprise');
  key = (await server.createKey(account)).value;
  mapsOnly = (await server.createKey(account, { scopes: ['maps'] })).value;
});

test.after.always(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, apiKey = key) => call(`${server.url}${path}${path.includes('?') ? '&' : '?'}key=${apiKey}`);

test('search answers a Pelias FeatureCollection with the query echo, parse and features', async (t) => {
  const res = await get('/api/v1/geocoding/search?text=Café%20Sonne');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.is(res.body.type, 'FeatureCollection');
  t.like(res.body.geocoding, { version: '0.2', query: { text: 'Café Sonne', size: 10, parser: 'pelias' }, engine: { name: 'Waymark' } });
  t.regex(res.body.geocoding.attribution, /^http:\/\/127\.0\.0\.1:\d+\/attribution$/);
  const [first] = res.body.features;
  t.like(first, { type: 'Feature', geometry: { type: 'Point', coordinates: [8.002, 48.002] } });
  t.like(first.properties, {
    gid: 'openstreetmap:venue:node/1',
    layer: 'venue',
    source: 'openstreetmap',
    source_id: 'node/1',
    name: 'Café Sonne',
    match_type: 'exact',
    accuracy: 'point',
  });
  t.deepEqual(res.body.bbox, [8.002, 48.002, 8.002, 48.002]);
});

test('the /v1 prefix, the /geocode?q= alias and autocomplete answer too', async (t) => {
  t.is((await get('/v1/geocoding/search?text=Testdorf')).body.features[0].properties.name, 'Testdorf');
  const alias = await get('/api/v1/geocode?q=Hauptstraße%207');
  t.is(alias.body.features[0].properties.gid, 'openstreetmap:address:node/3');
  t.is(alias.body.geocoding.query.text, 'Hauptstraße 7');
  const typing = await get('/api/v1/geocoding/autocomplete?text=Stadtmu');
  t.is(typing.body.features[0].properties.name, 'Stadtmuseum');
});

test('an OpenAddresses address, and lang picks the name in that language', async (t) => {
  t.is(
    (await get('/api/v1/geocoding/search?text=11%20Hauptstraße&sources=oa')).body.features[0].properties.gid,
    'openaddresses:address:town:a1',
  );
  t.is((await get('/api/v1/geocoding/search?text=Café%20Sonne&lang=fr')).body.features[0].properties.name, 'Café Soleil');
});

test('the attribution page the responses link to credits the sources of the dataset', async (t) => {
  const page = await call(`${server.url}/attribution`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.text, /© OpenStreetMap contributors.*Open Database License/);
  t.regex(page.text, /OpenAddresses/);
  t.notRegex(page.text, /Who's On First|GeoNames/);
});

test('reverse and place', async (t) => {
  const near = await get('/api/v1/geocoding/reverse?point.lat=48.0021&point.lon=8.0021&size=3');
  t.is(near.status, 200);
  t.is(near.body.features[0].properties.gid, 'openstreetmap:venue:node/1');
  t.true(near.body.features[0].properties.distance < 0.05);
  t.like(near.body.geocoding.query, { 'point.lat': 48.0021, 'point.lon': 8.0021, size: 3 });
  const looked = await get('/api/v1/geocoding/place?ids=osm:locality:node/6,openstreetmap:venue:node/404,osm:venue:node/1');
  t.deepEqual(
    looked.body.features.map((f: { properties: { gid: string } }) => f.properties.gid),
    ['openstreetmap:locality:node/6', 'openstreetmap:venue:node/1'],
  );
});

test('geocoding needs the geocoding scope and costs one unit per request', async (t) => {
  // An organization of its own: the other tests of this file run at the same time.
  const geocodingOnly = (await server.createKey(await server.signUp(), { scopes: ['geocoding'] })).value;
  assertError(t, await get('/api/v1/geocoding/search?text=Testdorf', mapsOnly), 403);
  const before = await get('/api/v1/usage/current', geocodingOnly);
  await get('/api/v1/geocoding/search?text=Testdorf', geocodingOnly);
  await get('/api/v1/geocoding/reverse?point.lat=48&point.lon=8', geocodingOnly);
  assertError(t, await get('/api/v1/geocoding/search?size=3', geocodingOnly), 400);
  const after = await get('/api/v1/usage/current', geocodingOnly);
  t.is(after.body.services.geocoding.used - before.body.services.geocoding.used, 2);
  t.is(
    (await get('/api/v1/geocoding/search?text=Testdorf', geocodingOnly)).headers.get('x-ratelimit-limit'),
    String(after.body.services.geocoding.limit),
  );
});

const BAD_REQUESTS: [string, RegExp][] = [
  ['/api/v1/geocoding/search', /'text'.*required/],
  ['/api/v1/geocoding/search?text=', /'text'/],
  ['/api/v1/geocoding/search?text=a&text=b', /'text': it can only be given once/],
  ['/api/v1/geocoding/search?text=a&size=0', /'size'/],
  ['/api/v1/geocoding/search?text=a&size=ten', /'size'/],
  ['/api/v1/geocoding/search?text=a&layers=city', /'layers'/],
  ['/api/v1/geocoding/search?text=a&sources=google', /'sources'/],
  ['/api/v1/geocoding/search?text=a&focus.point.lat=48', /'focus.point.lon'/],
  ['/api/v1/geocoding/search?text=a&focus.point.lat=91&focus.point.lon=8', /'focus.point.lat'/],
  ['/api/v1/geocoding/search?text=a&boundary.country=XX', /'boundary.country'/],
  ['/api/v1/geocoding/search?text=a&lang=xx', /'lang'/],
  ['/api/v1/geocoding/autocomplete?size=2', /'text'/],
  ['/api/v1/geocode?text=a', /'q'/],
  ['/api/v1/geocoding/reverse?point.lat=48', /'point.lon'/],
  ['/api/v1/geocoding/reverse?point.lat=48&point.lon=181', /'point.lon'/],
  ['/api/v1/geocoding/reverse?point.lat=1e1&point.lon=8', /'point.lat'/],
  ['/api/v1/geocoding/place', /'ids'/],
  ['/api/v1/geocoding/place?ids=node/1', /'ids'/],
  ['/api/v1/geocoding/place?ids=osm:town:1', /'ids'/],
];

for (const [path, message] of BAD_REQUESTS) {
  test(`400 naming the parameter: ${path}`, async (t) => {
    t.regex(assertError(t, await get(path), 400), message);
  });
}

test('FTS5 syntax and JavaScript member names as text are searched as words (200) or, with no word, refused like empty text (400)', async (t) => {
  const noWords = ['[]', '(', '"', '*', '^', '-', ':', "'", ';', '--', '{}', '"*"', '()[]'];
  const words = [
    'AND',
    'NOT',
    'NEAR(',
    'a OR b',
    'col:x',
    'NEAR(Testdorf',
    '"Testdorf"',
    'Testdorf*',
    '^Testdorf',
    'name:Testdorf AND (Sonne',
    'Test\u19b0dorf',
    'constructor',
    'Hauptstraße __proto__',
  ];
  for (const [endpoint, name] of [
    ['/api/v1/geocoding/search', 'text'],
    ['/api/v1/geocoding/autocomplete', 'text'],
    ['/api/v1/geocode', 'q'],
  ] as const) {
    for (const text of noWords) {
      t.regex(
        assertError(t, await get(`${endpoint}?${name}=${encodeURIComponent(text)}`), 400),
        new RegExp(`'${name}': it must not be empty`),
        text,
      );
    }
    for (const text of words) t.is((await get(`${endpoint}?${name}=${encodeURIComponent(text)}`)).status, 200, `${endpoint} ${text}`);
  }
  t.is((await get('/api/v1/geocoding/search?text=%22Testdorf%22')).body.features[0].properties.name, 'Testdorf');
});

test('size above 40 is clamped with a warning', async (t) => {
  const res = await get('/api/v1/geocoding/search?text=Hauptstraße&size=100');
  t.is(res.status, 200);
  t.is(res.body.geocoding.query.size, 40);
  t.deepEqual(res.body.geocoding.warnings, ["invalid parameter 'size': maximum value is 40, used 40"]);
});

test('boundary.rect, boundary.circle, boundary.gid and categories: echoed, filtering, and a 400 with the uniform body when bad', async (t) => {
  const rect = 'boundary.rect.min_lat=48.001&boundary.rect.max_lat=48.003&boundary.rect.min_lon=8.001&boundary.rect.max_lon=8.003';
  const inside = await get(`/api/v1/geocoding/search?text=Café%20Sonne&${rect}&categories=food`);
  t.is(inside.status, 200);
  t.like(inside.body.geocoding.query, { 'boundary.rect.min_lat': 48.001, 'boundary.rect.max_lon': 8.003, categories: ['food'] });
  t.like(inside.body.features[0]?.properties, { gid: 'openstreetmap:venue:node/1', category: ['food', 'retail', 'food:coffee_shop'] });
  const elsewhere = rect.replace('min_lon=8.001', 'min_lon=8.1').replace('max_lon=8.003', 'max_lon=8.11');
  t.deepEqual((await get(`/api/v1/geocoding/search?text=Café%20Sonne&${elsewhere}`)).body.features, []);
  t.deepEqual((await get('/api/v1/geocoding/autocomplete?text=Café&categories=health')).body.features, []);
  const near = await get('/api/v1/geocoding/reverse?point.lat=48.002&point.lon=8.002&boundary.circle.radius=0.01&layers=venue');
  t.deepEqual(near.body.geocoding.query['boundary.circle.radius'], 0.01);
  t.deepEqual(
    near.body.features.map((f: { properties: { gid: string } }) => f.properties.gid),
    ['openstreetmap:venue:node/1'],
  );
  const cases: [string, RegExp][] = [
    ['/api/v1/geocoding/search?text=a&boundary.rect.min_lat=1', /'boundary.rect.max_lat': parameters .* must all be specified/],
    ['/api/v1/geocoding/autocomplete?text=a&boundary.circle.radius=2', /missing parameter 'boundary.circle.lat'/],
    ['/api/v1/geocoding/search/structured?locality=a&boundary.gid=locality:1', /'boundary.gid'/],
    ['/api/v1/geocoding/reverse?point.lat=1&point.lon=1&categories=cafe', /'categories': 'cafe' is not a category/],
    ['/api/v1/geocoding/search?text=a&categories=food&categories=food', /'categories': it can only be given once/],
  ];
  for (const [path, message] of cases) t.regex(assertError(t, await get(path), 400), message, path);
});

test('fuzzed parameters give 200 or 400, never a 500', async (t) => {
  const random = seededRandom(4);
  const names = GEOCODING_PARAMETERS;
  const endpoints = [
    '/api/v1/geocoding/search',
    '/api/v1/geocoding/autocomplete',
    '/api/v1/geocoding/reverse',
    '/api/v1/geocoding/place',
    '/api/v1/geocode',
    '/api/v1/geocoding/search/structured',
  ];
  for (let i = 0; i < 300; i++) {
    const query = new URLSearchParams();
    for (const name of names)
      if (random() < 0.4) query.append(name, random() < 0.5 ? junk(random, 12) : String(Math.round((random() - 0.5) * 400)));
    if (random() < 0.5) query.set(random() < 0.5 ? 'text' : 'q', junk(random, 30));
    const path = `${endpoints[i % endpoints.length]}?${query}`;
    const res = await get(path);
    if (res.status !== 200) assertError(t, res, 400);
  }
});

test('a dataset without a geocoder index answers 503', async (t) => {
  const bare = await startTestServer();
  try {
    await writeTestDataset(bare.dataDir);
    bare.datasets.reload();
    const account = await bare.signUp();
    const fresh = (await bare.createKey(account)).value;
    const res = await call(`${bare.url}/api/v1/geocoding/search?text=x&key=${fresh}`);
    t.regex(assertError(t, res, 503), /no geocoder index/);
  } finally {
    await bare.close();
  }
});
