// Pelias structured search (`/geocoding/search/structured`) through the real server, on a geocoder
// index of the shared data (OSM Monaco, WOF mc, OpenAddresses Kodiak and Banff): addresses found
// by their fields, the layer an admin field asks for, the same answer as /search for the same
// address, the `geocoding.query` echo, metering, every 400 with the uniform error body, and fuzzed
// fields that never give a 500.
import test from 'ava';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { writeTestDataset } from './helpers/dataset.js';
import { assertError, call, HOSTILE_TEXTS, junk, pick, seededRandom } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const WOF_MC = sharedFile('wof', 'mc');
const KODIAK = sharedFile('oa', 'us-ak-kodiak_island_borough.csv');
const BANFF = sharedFile('oa', 'ca-ab-banff.csv');
const INPUTS = [MONACO, WOF_MC, KODIAK, BANFF];

const GABIAN_7 = 'openstreetmap:address:node/1661205494';
const KODIAK_1400 = 'openaddresses:address:us-ak-kodiak_island_borough:8e7d4603b66771c1';
const BANFF_101 = 'openaddresses:address:ca-ab-banff:0faaef22d96aff9e';
const STRUCTURED = '/api/v1/geocoding/search/structured';

let server: TestServer | undefined;
let key = '';
let dataDir = '';

test.before(async () => {
  if (!INPUTS.every((file) => existsSync(file))) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-structured-'));
  const dataset = await writeTestDataset(dataDir);
  await buildGeocoderIndex(
    { osmFiles: [MONACO], wofDirs: [WOF_MC], oaFiles: [KODIAK, BANFF], geonames: false },
    paths.geocoder(dataset.dir),
    () => {},
  );
  writeFileSync(
    paths.manifest(dataset.dir),
    JSON.stringify({ ...dataset.manifest, inputs: ['osm:monaco.osm.pbf', 'wof:mc', 'oa:kodiak', 'oa:banff'] }),
  );
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  // Enterprise: no per-minute limit, for the fuzz's hundreds of searches a minute (the test clock stands still).
  await server.store.setTier(account.orgId, 'enterprise');
  key = (await server.createKey(account)).value;
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, apiKey = key) => call(`${server!.url}${path}${path.includes('?') ? '&' : '?'}key=${apiKey}`);
const structured = (fields: Record<string, string>) => get(`${STRUCTURED}?${new URLSearchParams(fields)}`);
const gids = (body: { features: { properties: { gid: string } }[] }) => body.features.map((feature) => feature.properties.gid);

dataTest('address and locality find the address, echoed as Pelias parses a structured query', INPUTS, async (t) => {
  const res = await structured({ address: '7 Rue du Gabian', locality: 'Monaco' });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.is(res.body.type, 'FeatureCollection');
  const [first] = res.body.features;
  t.like(first.properties, {
    gid: GABIAN_7,
    layer: 'address',
    housenumber: '7',
    street: 'Rue du Gabian',
    match_type: 'exact',
    accuracy: 'point',
  });
  t.deepEqual(
    first.geometry.coordinates.map((c: number) => Math.round(c * 1e4) / 1e4),
    [7.4149, 43.7295],
  );
  const query = res.body.geocoding.query;
  t.deepEqual(query.parsed_text, { number: '7', street: 'Rue du Gabian', city: 'Monaco' });
  t.like(query, { size: 10, private: false, querySize: 20, lang: { iso6391: 'en', defaulted: true } });
  t.false('text' in query, 'a structured query has no text');
  t.deepEqual(res.body.bbox, [...first.geometry.coordinates, ...first.geometry.coordinates]);
});

dataTest('postalcode and address (number after the street) find the same address', INPUTS, async (t) => {
  const res = await structured({ address: 'Rue du Gabian 7', postalcode: '98000' });
  t.is(gids(res.body)[0], GABIAN_7);
  t.is(res.body.features[0].properties.postalcode, '98000');
  t.deepEqual(res.body.geocoding.query.parsed_text, { number: '7', street: 'Rue du Gabian', postalcode: '98000' });
});

dataTest('an admin field alone asks for its layer: locality, region, country (ISO code), neighbourhood', INPUTS, async (t) => {
  t.is(gids((await structured({ locality: 'Monaco' })).body)[0], 'whosonfirst:locality:101831917');
  t.is(gids((await structured({ region: 'Monaco' })).body)[0], 'whosonfirst:region:85686311');
  const country = await structured({ country: 'mc' });
  t.is(gids(country.body)[0], 'whosonfirst:country:85633285');
  t.deepEqual(country.body.geocoding.query.parsed_text, { country: 'MCO' }, 'an alpha-2 code is echoed as alpha-3, as Pelias');
  const quarter = await structured({ neighbourhood: 'Monaco-Ville', country: 'Monaco' });
  t.is(quarter.body.features[0].properties.layer, 'neighbourhood');
  t.is(quarter.body.features[0].properties.name, 'Monaco-Ville');
});

dataTest('OpenAddresses addresses, with a locality and region the data lacks', INPUTS, async (t) => {
  const kodiak = await structured({ address: '1400 Abercrombie Drive', locality: 'Kodiak', region: 'AK' });
  t.is(gids(kodiak.body)[0], KODIAK_1400);
  t.deepEqual(kodiak.body.features[0].geometry.coordinates, [-152.3612998, 57.8315401]);
  t.deepEqual(kodiak.body.geocoding.query.parsed_text, { number: '1400', street: 'Abercrombie Drive', city: 'Kodiak', state: 'AK' });
  t.is(gids((await structured({ address: '101 Banff Avenue', locality: 'Banff', country: 'CA' })).body)[0], BANFF_101);
});

dataTest('a street without a house number is a street result', INPUTS, async (t) => {
  const res = await structured({ address: 'Boulevard Princesse Charlotte', locality: 'Monaco' });
  t.like(res.body.features[0].properties, { layer: 'street', name: 'Boulevard Princesse Charlotte' });
  t.deepEqual(res.body.geocoding.query.parsed_text, { street: 'Boulevard Princesse Charlotte', city: 'Monaco' });
});

dataTest('structured search agrees with /search on the same address', INPUTS, async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ address: '7 Rue du Gabian', locality: 'Monaco' }, '7 Rue du Gabian, Monaco'],
    [{ address: '24 Av. de Fontvieille', country: 'Monaco' }, '24 Av. de Fontvieille, Monaco'],
    [{ address: '1400 Abercrombie Drive', locality: 'Kodiak' }, '1400 Abercrombie Drive, Kodiak'],
    [{ address: '101 Banff Avenue', locality: 'Banff' }, '101 Banff Avenue, Banff'],
  ];
  for (const [fields, text] of cases) {
    const [byFields, byText] = await Promise.all([structured(fields), get(`/api/v1/geocoding/search?${new URLSearchParams({ text })}`)]);
    t.is(byFields.body.features[0].properties.gid, byText.body.features[0].properties.gid, text);
    t.deepEqual(byFields.body.features[0].geometry, byText.body.features[0].geometry, text);
    t.is(byFields.body.features[0].properties.match_type, 'exact', text);
  }
});

dataTest("search's other parameters apply and are echoed; an empty field counts as not given", INPUTS, async (t) => {
  const res = await structured({
    address: '7 Rue du Gabian',
    locality: '',
    region: '  ',
    country: 'MC',
    size: '2',
    layers: 'address',
    sources: 'osm',
    'boundary.country': 'MC',
    'focus.point.lat': '43.73',
    'focus.point.lon': '7.41',
    lang: 'fr',
  });
  t.is(res.status, 200);
  t.true(res.body.features.length <= 2);
  t.true(
    res.body.features.every(
      (f: { properties: { layer: string; source: string } }) => f.properties.layer === 'address' && f.properties.source === 'openstreetmap',
    ),
  );
  t.is(res.body.features[0].properties.gid, GABIAN_7);
  t.like(res.body.geocoding.query, {
    parsed_text: { number: '7', street: 'Rue du Gabian', country: 'MCO' },
    size: 2,
    layers: ['address'],
    sources: ['openstreetmap'],
    'boundary.country': 'MCO',
    'focus.point.lat': 43.73,
    'focus.point.lon': 7.41,
    lang: { iso6391: 'fr', defaulted: false },
    querySize: 4,
  });
  const clamped = await structured({ locality: 'Monaco', size: '100' });
  t.deepEqual(clamped.body.geocoding.warnings, ["invalid parameter 'size': maximum value is 40, used 40"]);
  t.is(clamped.body.geocoding.query.size, 40);
});

dataTest('structured search costs one geocoding unit, under the geocoding scope, also at /v1', INPUTS, async (t) => {
  const account = await server!.signUp();
  const geocodingOnly = (await server!.createKey(account, { scopes: ['geocoding'] })).value;
  const mapsOnly = (await server!.createKey(account, { scopes: ['maps'] })).value;
  assertError(t, await get(`${STRUCTURED}?locality=Monaco`, mapsOnly), 403);
  const before = await get('/api/v1/usage/current', geocodingOnly);
  t.is((await get(`${STRUCTURED}?locality=Monaco`, geocodingOnly)).status, 200);
  t.is(
    (await get('/v1/geocoding/search/structured?address=7%20Rue%20du%20Gabian&locality=Monaco', geocodingOnly)).body.features[0].properties
      .gid,
    GABIAN_7,
  );
  assertError(t, await get(`${STRUCTURED}?postalcode=98000`, geocodingOnly), 400);
  const after = await get('/api/v1/usage/current', geocodingOnly);
  t.is(after.body.services.geocoding.used - before.body.services.geocoding.used, 2, 'two answers, the 400 not counted');
});

const BAD_REQUESTS: [string, RegExp][] = [
  ['', /at least one of the following fields is required: address, neighbourhood, borough, locality, county, region, postalcode, country/],
  ['address=&locality=%20', /at least one of the following fields is required/],
  ['size=3', /at least one of the following fields is required/],
  ['postalcode=98000', /'postalcode': postalcode-only inputs are not supported/],
  ['postalcode=98000&country=', /'postalcode': postalcode-only/],
  ['address=%2A%2A%2A&locality=Monaco', /'address': it must not be empty once punctuation and symbols are left out/],
  ['locality=-', /'locality': it must not be empty once/],
  [`region=${'x'.repeat(201)}`, /'region': at most 200 characters/],
  ['locality=Monaco&locality=Nice', /'locality': it can only be given once/],
  ['address=1%20Rue&address=2%20Rue', /'address': it can only be given once/],
  ['locality=Monaco&size=0', /'size'/],
  ['locality=Monaco&layers=city', /'layers'/],
  ['locality=Monaco&sources=google', /'sources'/],
  ['locality=Monaco&focus.point.lat=43', /'focus.point.lon'/],
  ['locality=Monaco&boundary.country=XX', /'boundary.country'/],
  ['locality=Monaco&lang=xx', /'lang'/],
];

for (const [query, message] of BAD_REQUESTS) {
  dataTest(`400 naming the problem: ?${query}`, INPUTS, async (t) => {
    t.regex(assertError(t, await get(`${STRUCTURED}?${query}`), 400), message);
  });
}

dataTest('every error is reported at once', INPUTS, async (t) => {
  const message = assertError(t, await get(`${STRUCTURED}?address=%2A&county=%2B&size=x`), 400);
  for (const name of ['address', 'county', 'size']) t.regex(message, new RegExp(`'${name}'`));
});

dataTest('fuzzed structured fields give 200 or 400, never a 500', INPUTS, async (t) => {
  const random = seededRandom(14);
  const fields = ['address', 'neighbourhood', 'borough', 'locality', 'county', 'region', 'postalcode', 'country'];
  const others = ['size', 'layers', 'sources', 'focus.point.lat', 'focus.point.lon', 'boundary.country', 'lang', 'text'];
  const values = () => {
    const r = random();
    if (r < 0.3) return junk(random, 40);
    if (r < 0.55) return pick(random, HOSTILE_TEXTS);
    if (r < 0.7) return String(Math.round((random() - 0.5) * 400));
    if (r < 0.8) return 'x'.repeat(150 + Math.floor(random() * 100));
    return pick(random, ['7 Rue du Gabian', 'Monaco', 'MC', '98000', 'Fontvieille', '1400 Abercrombie Drive', '12 A - 14', '', ' ']);
  };
  let ok = 0;
  for (let i = 0; i < 250; i++) {
    const query = new URLSearchParams();
    for (const name of [...fields, ...others]) {
      if (random() < (fields.includes(name) ? 0.35 : 0.06)) query.append(name, values());
      if (random() < 0.02) query.append(name, values());
    }
    const res = await get(`${STRUCTURED}?${query}`);
    if (res.status === 200) {
      ok++;
      t.is(res.body.type, 'FeatureCollection');
      t.false('text' in res.body.geocoding.query);
    } else {
      assertError(t, res, 400);
    }
  }
  t.true(ok > 10, `some fuzzed requests are valid (${ok})`);
});
