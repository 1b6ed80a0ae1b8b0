/**
 * The elevation API (issue 28) through the real server, on a DEM-only import of the shared SRTM
 * tiles: Google's body; a sample answers itself, between samples the four around bound the
 * answer, null outside the coverage; paths sampled evenly, as points or an encoded polyline; 512
 * points in a 10 KB URL, 16 KB at most; the same query as a POST form or JSON body; one `maps`
 * unit per request and none for a refusal; 400s naming the parameter, 415 for another body, 503
 * without elevation; a seeded fuzz of the parameters.
 */
import polyline from '@mapbox/polyline';
import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metresBetween } from '../core/geo/distance.js';
import type { ElevationStore } from '../core/terrain/elevation-store.js';
import { customer, serve, tempDataDir } from './helpers/fixtures.js';
import { ANDORRA_DEM, MONACO_DEM, startDemServer, unzippedTile, type DemServer } from './helpers/dem.js';
import { writeTestDataset } from './helpers/dataset.js';
import { assertError, call, errorBodyFault, hostileJsonValue, hostileUrlValue, pick, rawRequest, seededRandom } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';
import { dataTest } from './helpers/shared-data.js';

const DEMS = [MONACO_DEM, ANDORRA_DEM];
let server: TestServer;
let store: ElevationStore;
let dem: DemServer | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'waymark-elevation-api-'));

test.before(async () => {
  if (!DEMS.every((file) => existsSync(file))) return;
  dem = await startDemServer(scratch, DEMS);
  ({ server, store } = dem);
});

test.after.always(async () => {
  await dem?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const elevation = (query: string, key: string, init?: RequestInit) => call(`${server.url}/api/v1/elevation?${query}&key=${key}`, init);
const mapsUsed = async (cookie: string): Promise<number> =>
  (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie } })).body.services.maps.used;
const latLngOf = ([lon, lat]: [number, number]) => `${lat},${lon}`;

/** Monaco: the Rocher, the casino, the sea off the port; then Andorra la Vella; then nowhere with data. */
const CASINO: [number, number] = [7.4275, 43.7399];
const SEA: [number, number] = [7.45, 43.72];
const ANDORRA: [number, number] = [1.5218, 42.5063];
const NOWHERE: [number, number] = [4, 43];

dataTest(
  "locations: Google's body; a sample answers itself, between samples the four around bound it, null outside; one maps unit",
  DEMS,
  async (t) => {
    const { account, key } = await customer(server);
    const monaco = unzippedTile(MONACO_DEM, scratch, [7, 43]);
    // A sample (row 300, column 500 of N43E007: 43.75°N 7.4167°E, above Monaco) and a point between four samples.
    const onSample = monaco.position(300, 500);
    const between: [number, number] = [7 + 500.25 / 1200, 44 - 300.6 / 1200];
    const points = [onSample, between, CASINO, SEA, ANDORRA, NOWHERE];
    const answer = await elevation(`locations=${points.map(latLngOf).join('|')}`, key.value);
    t.is(answer.status, 200, answer.text);
    t.regex(answer.headers.get('content-type') ?? '', /^application\/json/);
    t.deepEqual(Object.keys(answer.body), ['results', 'status']);
    t.is(answer.body.status, 'OK');
    const results = answer.body.results as {
      elevation: number | null;
      location: { lat: number; lng: number };
      resolution: number | null;
    }[];
    t.deepEqual(
      results.map((result) => result.location),
      points.map(([lng, lat]) => ({ lat, lng })),
    );
    for (const result of results) t.deepEqual(Object.keys(result), ['elevation', 'location', 'resolution']);
    t.is(results[0]!.elevation, monaco.at(300, 500));
    t.is(results[0]!.elevation, 360);
    const around = [monaco.at(300, 500), monaco.at(300, 501), monaco.at(301, 500), monaco.at(301, 501)];
    t.true(
      results[1]!.elevation! >= Math.min(...around) && results[1]!.elevation! <= Math.max(...around),
      `${results[1]!.elevation} within ${around}`,
    );
    t.is(results[2]!.elevation, Math.round(store.elevationAt(...CASINO)! * 100) / 100);
    t.true(results[2]!.elevation! > 20 && results[2]!.elevation! < 80, 'the casino stands some 40 m above the sea');
    t.is(results[3]!.elevation, 0, 'the sea');
    t.true(results[4]!.elevation! > 1000, 'Andorra la Vella is over 1,000 m up');
    t.like(results[5], { elevation: null, resolution: null });
    // SRTM 3″: the diagonal of a cell, 92.66 m north-south by 92.66 m × cos(latitude) east-west.
    t.is(results[0]!.resolution, 114.31);
    t.is(results[4]!.resolution, 115.12);
    t.is(answer.headers.get('x-ratelimit-limit'), '10000');
    t.is(await mapsUsed(account.cookie), 1, 'one maps unit, whatever the number of points');
    t.is(
      (await elevation(`locations=${latLngOf(CASINO)}&format=pbf`, key.value)).headers.get('content-type'),
      'application/x-protobuf; messageType=waymark.ElevationResponse',
    );
    t.regex(
      (await call(`${server.url}/attribution`)).text,
      /NASA Shuttle Radar Topography Mission \(SRTM\), elevation<\/a> — public domain/,
    );
  },
);

dataTest('a request with no point in the coverage is a 400 naming it, and the swap when the points were given lng,lat', DEMS, async (t) => {
  const { account, key } = await customer(server);
  const coverage = "is outside the data's coverage, lat,lng 42,1 to 44,8 \\(south-west to north-east corner\\)";
  const swapped = assertError(t, await elevation(`locations=${CASINO[0]},${CASINO[1]}`, key.value), 400);
  t.regex(
    swapped,
    new RegExp(
      `^invalid parameter 'locations': no point has elevation data; 7.4275,43.7399 ${coverage}; did you mean 43.7399,7.4275\\? positions here are latitude first$`,
    ),
  );
  const far = assertError(t, await elevation('path=10,10|11,11&samples=3', key.value), 400);
  t.regex(far, new RegExp(`^invalid parameter 'path': no point has elevation data; 10,10 ${coverage}$`));
  t.is(await mapsUsed(account.cookie), 0);
  // One point inside is enough: the others answer null, as Google's.
  const mixed = await elevation(`locations=${CASINO[0]},${CASINO[1]}|${latLngOf(CASINO)}`, key.value);
  t.is(mixed.status, 200, mixed.text);
  t.is(mixed.body.results[0].elevation, null);
});

dataTest(
  'a path is sampled evenly along its great circles, first and last points included, as points or an encoded polyline',
  DEMS,
  async (t) => {
    const { key } = await customer(server);
    const path: [number, number][] = [
      [7.41, 43.725],
      [7.43, 43.74],
      [7.44, 43.75],
    ];
    const plain = await elevation(`path=${path.map(latLngOf).join('|')}&samples=9`, key.value);
    t.is(plain.status, 200, plain.text);
    const results = plain.body.results as { elevation: number; location: { lat: number; lng: number } }[];
    t.is(results.length, 9);
    t.deepEqual(results[0]!.location, { lat: 43.725, lng: 7.41 });
    t.deepEqual(results[8]!.location, { lat: 43.75, lng: 7.44 });
    // Each sample lies its share of the length along the path: on the first leg from its start, on the second from the corner.
    const first = metresBetween(7.41, 43.725, 7.43, 43.74);
    const total = first + metresBetween(7.43, 43.74, 7.44, 43.75);
    results.forEach(({ location: { lat, lng } }, i) => {
      const share = (i * total) / 8;
      const along = share <= first ? metresBetween(7.41, 43.725, lng, lat) : first + metresBetween(7.43, 43.74, lng, lat);
      t.true(Math.abs(along - share) < 0.05, `sample ${i}: ${along} m along, not ${share}`);
    });
    for (const result of results)
      t.is(result.elevation, Math.round(store.elevationAt(result.location.lng, result.location.lat)! * 100) / 100);
    const encoded = polyline.encode(path.map(([lon, lat]) => [lat, lon]));
    const fromPolyline = await elevation(`path=enc:${encodeURIComponent(encoded)}&samples=9`, key.value);
    t.deepEqual(fromPolyline.body, plain.body);
    const locations = await elevation(`locations=enc:${encodeURIComponent(encoded)}`, key.value);
    t.deepEqual(
      locations.body.results.map((result: { location: unknown }) => result.location),
      path.map(([lng, lat]) => ({ lat, lng })),
    );
    const one = await elevation(`path=${path.map(latLngOf).join('|')}&samples=1`, key.value);
    t.deepEqual(one.body.results.length, 1);
    const still = await elevation('path=43.73,7.42|43.73,7.42&samples=3', key.value);
    t.deepEqual(
      still.body.results.map((result: { location: unknown }) => result.location),
      Array(3).fill({ lat: 43.73, lng: 7.42 }),
      'a path of no length: its point, as often as asked',
    );
  },
);

/** `count` points in Monaco with 6 decimals, `lat,lng|…`. */
const manyPoints = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${(43.72 + (i % 40) * 0.0007).toFixed(6)},${(7.41 + Math.floor(i / 40) * 0.0011).toFixed(6)}`,
  ).join('|');

dataTest(
  '512 points in a 10 KB URL answer, or in a POST body arriving in pieces; 513 points, 0 or 513 samples are 400s; a URL over 16 KB is a 414; none is metered',
  DEMS,
  async (t) => {
    const { account, key } = await customer(server);
    const query = `locations=${manyPoints(512)}&key=${key.value}`;
    t.true(query.length > 9000 && query.length < 16_000, String(query.length));
    const whole = await elevation(`locations=${manyPoints(512)}`, key.value);
    t.is(whole.status, 200, whole.text.slice(0, 200));
    t.is(whole.body.results.length, 512);
    t.true(whole.body.results.every((result: { elevation: number | null }) => typeof result.elevation === 'number'));
    // uWS closes a connection whose request head is over 4 KB and comes in several reads (docs/API.md): across a
    // network, a long query goes in a POST body, which may arrive in any number of pieces.
    const body = Buffer.from(query);
    const head = `POST /api/v1/elevation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const inPieces = await rawRequest(server.port, [
      Buffer.from(head),
      body.subarray(0, 3000),
      body.subarray(3000, 7000),
      body.subarray(7000),
    ]);
    t.is(inPieces.status, 200, inPieces.statusLine);
    t.deepEqual(JSON.parse(inPieces.body), whole.body);
    t.is(await mapsUsed(account.cookie), 2);
    const over = await elevation(`locations=${manyPoints(513)}`, key.value);
    t.regex(assertError(t, over, 400), /invalid parameter 'locations': at most 512 values/);
    for (const samples of ['0', '513']) {
      t.regex(
        assertError(t, await elevation(`path=43.7,7.4|43.8,7.5&samples=${samples}`, key.value), 400),
        /'samples': it must be between 1 and 512/,
      );
    }
    const long = await elevation(`locations=${manyPoints(512)}&padding=${'x'.repeat(7000)}`, key.value);
    t.regex(assertError(t, long, 414), /longer than 16384 characters/);
    const elsewhere = await call(`${server.url}/api/v1/usage/current?key=${key.value}&padding=${'x'.repeat(9000)}`);
    t.regex(assertError(t, elsewhere, 414), /longer than 8192 characters/, 'other routes keep 8,192');
    t.is(await mapsUsed(account.cookie), 2);
  },
);

dataTest('POST: the query as a form or a JSON body answers as the GET, the key in the body or a header; one unit each', DEMS, async (t) => {
  const { account, key } = await customer(server);
  const points = manyPoints(300);
  const get = await elevation(`locations=${points}`, key.value);
  const post = (body: string, type: string, headers: Record<string, string> = {}) =>
    call(`${server.url}/v1/elevation`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  const form = await post(`locations=${encodeURIComponent(points)}&key=${key.value}`, 'application/x-www-form-urlencoded');
  t.is(form.status, 200, form.text);
  t.deepEqual(form.body, get.body);
  const latLngs = points.split('|').map((point) => ({ lat: Number(point.split(',')[0]), lng: Number(point.split(',')[1]) }));
  const asJson = await post(JSON.stringify({ locations: latLngs }), 'application/json; charset=utf-8', { 'x-api-key': key.value });
  t.deepEqual(asJson.body, get.body);
  const pathJson = await post(JSON.stringify({ path: latLngs.slice(0, 2), samples: 4, key: key.value }), 'application/json');
  t.deepEqual(pathJson.body, (await elevation(`path=${points.split('|').slice(0, 2).join('|')}&samples=4`, key.value)).body);
  t.is(await mapsUsed(account.cookie), 5);
  t.is(form.headers.get('x-ratelimit-remaining'), String(10000 - 2));
  // A URL's parameters and the body's together, as one query: the key in the URL.
  t.is(
    (
      await call(`${server.url}/v1/elevation?key=${key.value}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'locations=43.73,7.42',
      })
    ).status,
    200,
  );

  const refusals: [string, string, number, RegExp][] = [
    [
      'locations=43.73,7.42',
      'text/plain',
      415,
      /form \(Content-Type: application\/x-www-form-urlencoded\) or as JSON \(application\/json\), not text\/plain/,
    ],
    ['{"locations": "43.73,7.42"', 'application/json', 400, /the body is not JSON/],
    ['["43.73,7.42"]', 'application/json', 400, /a JSON object/],
    ['{"locations": {"lat": 43.73}}', 'application/json', 400, /'locations': the values of a JSON body are strings or numbers/],
    [
      '{"locations": [{"lat": 43.73, "lon": 7.42}]}',
      'application/json',
      400,
      /'locations\[0\]': a point of a JSON body is \{"lat": number, "lng": number\}/,
    ],
    ['{"locations": [[43.73, 7.42]]}', 'application/json', 400, /'locations\[0\]'/],
    ['{"locations": "43.73,7.42", "samples": 3}', 'application/json', 400, /'samples': it goes with 'path'/],
    ['locations=43.73,7.42&locations=43.74,7.42', 'application/x-www-form-urlencoded', 400, /'locations': it can only be given once/],
  ];
  for (const [body, type, status, message] of refusals)
    t.regex(assertError(t, await post(body, type, { 'x-api-key': key.value }), status), message, body);
  const noType = await call(`${server.url}/v1/elevation?key=${key.value}`, { method: 'POST', body: new Uint8Array([1, 2, 3]) });
  t.regex(assertError(t, noType, 415), /not without a Content-Type/);
  t.is(await mapsUsed(account.cookie), 6, 'refusals cost nothing');

  const preflight = await fetch(`${server.url}/api/v1/elevation`, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
  t.is((await fetch(`${server.url}/api/v1/directions`, { method: 'OPTIONS' })).headers.get('access-control-allow-methods'), 'GET, OPTIONS');
  t.regex(assertError(t, await call(`${server.url}/api/v1/elevation`, { method: 'PUT' }), 405), /use GET, POST/);
});

dataTest('every bad parameter is a 400 naming it, and costs nothing; keys and scopes as on every maps route', DEMS, async (t) => {
  const { account, key } = await customer(server);
  const cases: [string, RegExp][] = [
    ['', /missing parameter 'locations' or 'path'/],
    ['locations=43.7,7.4&path=43.7,7.4|43.8,7.5&samples=2', /'locations' and 'path': give only one of them/],
    ['locations=', /'locations': it must not be empty/],
    ['locations=91,7.4', /'locations\[0\] latitude': it must be between -90 and 90/],
    ['locations=43.7,7.4|43.7,181', /'locations\[1\] longitude': it must be between -180 and 180/],
    ['locations=43.7,7.4,1', /'locations\[0\]': '43\.7,7\.4,1' is not a position lat,lng/],
    ['locations=north,east', /'locations\[0\] latitude': 'north' is not a decimal number/],
    ['locations=43.7,7.4|', /'locations\[1\]'/],
    ['locations=enc:', /'locations': the encoded polyline after 'enc:' cannot be decoded/],
    ['locations=enc:%20%21', /cannot be decoded/],
    ['locations=43.7,7.4&samples=3', /'samples': it goes with 'path', not with 'locations'/],
    ['path=43.7,7.4|43.8,7.5', /missing parameter 'samples': 'path' needs 'samples' too/],
    ['path=43.7,7.4&samples=3', /'path': it needs at least 2 points/],
    ['path=43.7,7.4|43.8,7.5&samples=two', /'samples': 'two' is not a whole number/],
    ['path=43.7,7.4|43.8,7.5&samples=1.5', /'samples': '1\.5' is not a whole number/],
    ['samples=3', /missing parameter 'locations' or 'path'/],
    ['locations=43.7,7.4&locations=43.8,7.4', /'locations': it can only be given once/],
    ['locations=43.7,7.4&format=xml', /format must be one of json, pbf/],
  ];
  for (const [query, message] of cases) t.regex(assertError(t, await elevation(query, key.value), 400), message, query);
  t.is(await mapsUsed(account.cookie), 0);
  assertError(t, await call(`${server.url}/api/v1/elevation?locations=43.7,7.4`), 401);
  const { key: routingOnly } = await customer(server, ['routing']);
  t.regex(assertError(t, await elevation('locations=43.7,7.4', routingOnly.value), 403), /lacks the "maps" scope/);
});

test('a dataset without elevation answers 503 saying how to import it, and costs nothing', async (t) => {
  const dir = tempDataDir(t);
  await writeTestDataset(dir);
  const plain = await serve(t, { dataDir: dir });
  const { account, key } = await customer(plain);
  const answer = await call(`${plain.url}/api/v1/elevation?locations=43.7,7.4&key=${key.value}`);
  t.regex(assertError(t, answer, 503), /no elevation data: the operator must import DEMs \(waymark import --dem FILE_OR_DIR\)/);
  t.is((await call(`${plain.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } })).body.services.maps.used, 0);
  // The checks of the parameters come first.
  assertError(t, await call(`${plain.url}/api/v1/elevation?locations=x&key=${key.value}`), 400);
});

dataTest('fuzz (seeded): every query and body is answered 200 with a result per point, or a uniform 4xx', DEMS, async (t) => {
  const { account, key } = await customer(server);
  await server.store.setTier(account.orgId, 'enterprise');
  const random = seededRandom(2806);
  const valid: Record<string, () => string> = {
    locations: () => manyPoints(1 + Math.floor(random() * 20)),
    path: () =>
      random() < 0.5
        ? `enc:${polyline.encode([
            [43.73, 7.42],
            [43.74, 7.43],
          ])}`
        : manyPoints(2 + Math.floor(random() * 5)),
    samples: () => String(1 + Math.floor(random() * 512)),
    format: () => pick(random, ['json', 'pbf']),
  };
  const names = Object.keys(valid);
  let answered = 0;
  for (let i = 0; i < 600; i++) {
    // Points or a path, each parameter valid, hostile or missing; now and then one more, or one twice.
    const chosen = [...(random() < 0.5 ? ['locations'] : ['path', 'samples']), ...(random() < 0.3 ? ['format'] : [])];
    if (random() < 0.1) chosen.push(pick(random, names));
    const pairs: string[] = [];
    for (const name of chosen) {
      const roll = random();
      if (roll < 0.05) continue;
      const value = valid[name]!();
      pairs.push(`${name}=${roll < 0.7 ? encodeURIComponent(value) : hostileUrlValue(random, value)}`);
    }
    const asPost = random() < 0.3;
    const answer = asPost
      ? await call(`${server.url}/api/v1/elevation?key=${key.value}`, {
          method: 'POST',
          headers: { 'content-type': random() < 0.5 ? 'application/x-www-form-urlencoded' : 'application/json' },
          body:
            random() < 0.5 ? pairs.join('&') : JSON.stringify(Object.fromEntries(names.map((name) => [name, hostileJsonValue(random)]))),
        })
      : await elevation(pairs.join('&'), key.value);
    const what = `#${i} ${asPost ? 'POST' : 'GET'} ${pairs.join('&').slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 200)}`;
    if (answer.status === 200) {
      answered++;
      if (answer.headers.get('content-type')?.startsWith('application/json'))
        t.true(answer.body.status === 'OK' && answer.body.results.length >= 1 && answer.body.results.length <= 512, what);
    } else if (!(answer.status >= 400 && answer.status < 500 && errorBodyFault(answer) === null)) {
      t.fail(what);
      return;
    }
  }
  t.true(answered > 200, `${answered} of 600 answered: the valid values reach the elevations`);
});
