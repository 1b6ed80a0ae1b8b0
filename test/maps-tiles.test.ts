/** Maps (issue 3): vector tiles and TileJSON through the gateway — encodings, ETag, errors, metering. */
import { VectorTile } from '@mapbox/vector-tile';
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import { EMPTY_TILE, writeTestDataset, type TestDataset } from './helpers/dataset.js';
import { customer, serve } from './helpers/fixtures.js';
import { assertError, call, rateLimit } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let dataset: TestDataset;
let dataDir: string;

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-tiles-'));
  dataset = await writeTestDataset(dataDir);
  server = await startTestServer({ dataDir });
});

test.after.always(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const tileUrl = (z: number | string, x: number | string, y: number | string, key: string, tileset = 'shortbread') =>
  `${server.url}/api/v1/tiles/${tileset}/${z}/${x}/${y}.pbf?key=${key}`;

const mapsUsed = async (cookie: string): Promise<number> =>
  (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie } })).body.services.maps.used;

test('a tile is sent gzipped when the client accepts gzip, with type, ETag and Cache-Control', async (t) => {
  const { key } = await customer(server);
  const stored = dataset.tiles[1]!;
  // Node's fetch inflates transparently, so the raw bytes are checked through a Content-Encoding check.
  const res = await fetch(tileUrl(stored.z, stored.x, stored.y, key.value), { headers: { 'accept-encoding': 'gzip, br' } });
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/x-protobuf');
  t.is(res.headers.get('content-encoding'), 'gzip');
  t.is(res.headers.get('etag'), `"${stored.id}"`);
  t.is(res.headers.get('cache-control'), 'public, max-age=86400');
  t.is(res.headers.get('vary'), 'Accept-Encoding');
  const tile = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())));
  t.deepEqual(Object.keys(tile.layers).sort(), ['buildings', 'streets']);
  t.is(tile.layers.streets!.feature(0).properties.name, 'Boulevard Albert 1er');
});

test('a tile is inflated for a client that does not accept gzip', async (t) => {
  const { key } = await customer(server);
  const stored = dataset.tiles[0]!;
  for (const acceptEncoding of ['identity', 'br', 'gzip;q=0, br']) {
    const res = await fetch(tileUrl(stored.z, stored.x, stored.y, key.value), { headers: { 'accept-encoding': acceptEncoding } });
    t.is(res.status, 200, acceptEncoding);
    t.is(res.headers.get('content-encoding'), null, acceptEncoding);
    t.deepEqual(Buffer.from(await res.arrayBuffer()), stored.raw, acceptEncoding);
  }
});

test('If-None-Match with the ETag gives 304, which counts as one maps unit', async (t) => {
  const { account, key } = await customer(server);
  const stored = dataset.tiles[0]!;
  const res = await fetch(tileUrl(stored.z, stored.x, stored.y, key.value), { headers: { 'if-none-match': `"${stored.id}"` } });
  t.is(res.status, 304);
  t.is(res.headers.get('etag'), `"${stored.id}"`);
  t.is(await mapsUsed(account.cookie), 1);
  const changed = await fetch(tileUrl(stored.z, stored.x, stored.y, key.value), { headers: { 'if-none-match': '"something-else"' } });
  t.is(changed.status, 200);
});

test('an empty tile inside the pyramid is 200 with an empty body, and costs one unit', async (t) => {
  const { account, key } = await customer(server);
  const res = await fetch(tileUrl(EMPTY_TILE.z, EMPTY_TILE.x, EMPTY_TILE.y, key.value));
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/x-protobuf');
  t.is((await res.arrayBuffer()).byteLength, 0);
  const etag = res.headers.get('etag')!;
  t.truthy(etag);
  const again = await fetch(tileUrl(EMPTY_TILE.z, EMPTY_TILE.x, EMPTY_TILE.y, key.value), { headers: { 'if-none-match': etag } });
  t.is(again.status, 304);
  t.is(await mapsUsed(account.cookie), 2);
});

test('a tile costs one maps unit and carries the rate-limit headers; /v1 serves the same', async (t) => {
  const { account, key } = await customer(server);
  const first = await call(tileUrl(0, 0, 0, key.value));
  t.is(first.status, 200);
  t.deepEqual(rateLimit(first.headers), { limit: '10000', remaining: '9999', reset: '2026-12-01T00:00:00.000Z' });
  const viaV1 = await call(`${server.url}/v1/tiles/shortbread/0/0/0.pbf`, { headers: { authorization: `Bearer ${key.value}` } });
  t.is(viaV1.status, 200);
  t.is(await mapsUsed(account.cookie), 2);
});

test('coordinates outside the pyramid or not integers are 400s naming the parameter, and cost nothing', async (t) => {
  const { account, key } = await customer(server);
  const cases: [string | number, string | number, string | number, string][] = [
    [15, 0, 0, 'z'],
    [-1, 0, 0, 'z'],
    ['a', 0, 0, 'z'],
    [1.5, 0, 0, 'z'],
    [2, 4, 0, 'x'],
    [2, 0, 4, 'y'],
    [3, -1, 0, 'x'],
    [3, 0, '1e2', 'y'],
    [3, '0x1', 0, 'x'],
    [14, 16384, 0, 'x'],
    [0, '', 0, ''],
  ];
  for (const [z, x, y, name] of cases) {
    const answer = await call(tileUrl(z, x, y, key.value));
    if (name === '') {
      t.is(answer.status, 404, `${z}/${x}/${y}`);
      continue;
    }
    const message = assertError(t, answer, 400);
    t.true(message.startsWith(`${name} must be an integer`), `${z}/${x}/${y}: ${message}`);
  }
  t.is((await call(tileUrl(14, 16383, 16383, key.value))).status, 200);
  t.is(await mapsUsed(account.cookie), 1);
});

test('an unknown tileset is a 404 naming the valid one', async (t) => {
  const { key } = await customer(server);
  t.regex(assertError(t, await call(tileUrl(0, 0, 0, key.value, 'openmaptiles')), 404), /"shortbread"/);
  t.regex(assertError(t, await call(`${server.url}/api/v1/tiles/satellite.json?key=${key.value}`), 404), /"shortbread"/);
});

test('tiles need a key with the maps scope', async (t) => {
  const { key } = await customer(server, ['geocoding']);
  t.regex(assertError(t, await call(tileUrl(0, 0, 0, key.value)), 403), /"maps" scope/);
  assertError(t, await call(`${server.url}/api/v1/tiles/shortbread/0/0/0.pbf`), 401);
});

test('TileJSON 3.0.0 describes the dataset, its tile URL absolute and carrying the key; not metered', async (t) => {
  const { account, key } = await customer(server);
  const answer = await call(`${server.url}/api/v1/tiles/shortbread.json`, { headers: { 'x-api-key': key.value } });
  t.is(answer.status, 200);
  const body = answer.body;
  t.is(body.tilejson, '3.0.0');
  t.deepEqual(body.tiles, [`${server.url}/api/v1/tiles/shortbread/{z}/{x}/{y}.pbf?key=${key.value}`]);
  t.is(typeof body.name, 'string');
  t.regex(body.attribution, /^© OpenStreetMap contributors/);
  t.is(body.attribution, dataset.manifest.attribution);
  t.deepEqual(body.bounds, [-180, -85.051129, 180, 85.051129]);
  t.deepEqual(body.center, dataset.manifest.center);
  t.is(body.minzoom, 0);
  t.is(body.maxzoom, 14);
  // The dataset's layers as its manifest describes them, then every other Shortbread layer the styles draw.
  t.deepEqual(body.vector_layers.slice(0, dataset.manifest.vectorLayers.length), dataset.manifest.vectorLayers);
  const listed = new Set(body.vector_layers.map((layer: { id: string }) => layer.id));
  const style = (await call(`${server.url}/api/v1/styles/light/style.json?key=${key.value}`)).body;
  for (const layer of style.layers) if (layer['source-layer']) t.true(listed.has(layer['source-layer']), layer['source-layer']);
  t.is(body.scheme, 'xyz');
  t.is(body.format, 'pbf');
  t.is(await mapsUsed(account.cookie), 0);
  t.is(rateLimit(answer.headers).limit, null);
});

test('with no dataset imported, tiles, TileJSON, fonts and sprites answer 503 telling the operator to run waymark import; styles still answer', async (t) => {
  const empty = await serve(t);
  const { account, key } = await customer(empty);
  for (const path of [
    '/tiles/shortbread/0/0/0.pbf',
    '/tiles/shortbread.json',
    '/fonts/noto_sans_regular/0-255.pbf',
    '/sprites/base.json',
  ]) {
    const message = assertError(t, await call(`${empty.url}/api/v1${path}?key=${key.value}`), 503);
    t.regex(message, /waymark import/, path);
  }
  // Styles do not depend on the dataset.
  t.is((await call(`${empty.url}/api/v1/styles/light/style.json?key=${key.value}`)).status, 200);
  const usage = await call(`${empty.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(usage.body.services.maps.used, 0);
});
