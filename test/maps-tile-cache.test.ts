/**
 * The in-memory tile cache (issue 12): bounded by bytes with CLOCK eviction, emptied when the
 * dataset switches, and answers from it identical to answers from the MBTiles — ETag/304,
 * gzip/identity, metering and scope checks included.
 */
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { unlinkSync } from 'node:fs';
import { paths } from '../core/dataset-layout.js';
import { DEFAULT_TILE_CACHE_MB, setting } from '../core/config.js';
import { datasetTileCache, ENTRY_OVERHEAD_BYTES, TileCache } from '../src/maps/tile-cache.js';
import { EMPTY_TILE, writeTestDataset, type TestDataset } from './helpers/dataset.js';
import { customer, serve, tempDataDir } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

// ---- the cache class ----

const KB = 1024;

test('the cache holds entries up to its byte bound, each charged its bytes plus the entry overhead', (t) => {
  const cache = new TileCache<string>(4 * (KB + ENTRY_OVERHEAD_BYTES));
  for (let i = 0; i < 4; i++) cache.set(`k${i}`, `v${i}`, KB);
  t.is(cache.size, 4);
  t.is(cache.bytes, 4 * (KB + ENTRY_OVERHEAD_BYTES));
  cache.set('k4', 'v4', KB);
  t.is(cache.size, 4);
  t.true(cache.bytes <= cache.maxBytes);
  t.is(cache.get('k0'), undefined, 'the oldest unused entry went');
  t.is(cache.get('k4'), 'v4');
});

test('an entry used since it was stored gets a second chance before the unused ones', (t) => {
  const cache = new TileCache<string>(3 * (KB + ENTRY_OVERHEAD_BYTES));
  for (const key of ['a', 'b', 'c']) cache.set(key, key, KB);
  t.is(cache.get('a'), 'a');
  cache.set('d', 'd', KB);
  t.deepEqual(
    ['a', 'b', 'c', 'd'].map((key) => cache.get(key)),
    ['a', undefined, 'c', 'd'],
  );
});

test('one large entry evicts as many as it needs; one larger than the bound is not stored', (t) => {
  const cache = new TileCache<string>(4 * (KB + ENTRY_OVERHEAD_BYTES));
  for (let i = 0; i < 4; i++) cache.set(`k${i}`, `v${i}`, KB);
  cache.set('big', 'big', 3 * KB);
  t.is(cache.get('big'), 'big');
  t.true(cache.bytes <= cache.maxBytes);
  t.is(cache.size, 2);
  cache.set('huge', 'huge', cache.maxBytes);
  t.is(cache.get('huge'), undefined);
  t.is(cache.get('big'), 'big', 'a refused value evicts nothing');
});

test('storing a key again replaces its value and its charge; clear empties the cache', (t) => {
  const cache = new TileCache<string>(10 * KB);
  cache.set('k', 'small', 100);
  cache.set('k', 'large', 2 * KB);
  t.is(cache.get('k'), 'large');
  t.is(cache.bytes, 2 * KB + ENTRY_OVERHEAD_BYTES);
  cache.delete('k');
  t.is(cache.bytes, 0);
  cache.set('k', 'again', 100);
  cache.clear();
  t.is(cache.size, 0);
  t.is(cache.bytes, 0);
});

test('WAYMARK_TILE_CACHE_MB sets the bound; 0 turns the cache off; other values are refused', (t) => {
  t.is(setting('tileCacheMb', { WAYMARK_TILE_CACHE_MB: '16' }), 16);
  t.is(setting('tileCacheMb', { WAYMARK_TILE_CACHE_MB: '0' }), 0);
  t.is(setting('tileCacheMb', {}), DEFAULT_TILE_CACHE_MB);
  t.throws(() => setting('tileCacheMb', { WAYMARK_TILE_CACHE_MB: 'lots' }), { message: /WAYMARK_TILE_CACHE_MB must be a whole number/ });
});

// ---- through the server ----

const tileUrl = (server: TestServer, z: number, x: number, y: number, key: string) =>
  `${server.url}/api/v1/tiles/shortbread/${z}/${x}/${y}.pbf?key=${key}`;

async function servedDataset(t: ExecutionContext): Promise<{ server: TestServer; dataset: TestDataset }> {
  const dataDir = tempDataDir(t);
  const dataset = await writeTestDataset(dataDir);
  return { server: await serve(t, { dataDir }), dataset };
}

const cacheOf = (server: TestServer) => datasetTileCache<unknown>(server.datasets)!;

test('a cached tile answers as a stored one: gzip or inflated, ETag and 304, empty tiles too', async (t) => {
  const { server, dataset } = await servedDataset(t);
  const { key } = await customer(server);
  const stored = dataset.tiles[1]!;
  const url = tileUrl(server, stored.z, stored.x, stored.y, key.value);
  for (let round = 0; round < 2; round++) {
    const gzipped = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    t.is(gzipped.status, 200);
    t.is(gzipped.headers.get('content-encoding'), 'gzip');
    t.is(gzipped.headers.get('content-type'), 'application/x-protobuf');
    t.is(gzipped.headers.get('etag'), `"${stored.id}"`);
    t.is(gzipped.headers.get('vary'), 'Accept-Encoding');
    t.is(gzipped.headers.get('cache-control'), 'public, max-age=86400');
    t.deepEqual(Buffer.from(await gzipped.arrayBuffer()), stored.raw, 'fetch inflates the gzip body');
    const inflated = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    t.is(inflated.headers.get('content-encoding'), null);
    t.is(inflated.headers.get('etag'), `"${stored.id}"`);
    t.deepEqual(Buffer.from(await inflated.arrayBuffer()), stored.raw);
    const revalidated = await fetch(url, { headers: { 'if-none-match': `"${stored.id}"` } });
    t.is(revalidated.status, 304);
    t.is(revalidated.headers.get('etag'), `"${stored.id}"`);
    t.is(revalidated.headers.get('content-type'), null);
    const byHeader = await fetch(`${server.url}/api/v1/tiles/shortbread/${stored.z}/${stored.x}/${stored.y}.pbf`, {
      headers: { 'x-api-key': key.value },
    });
    t.is(byHeader.headers.get('cache-control'), 'private, max-age=86400', 'Cache-Control follows each request, not the cache');
    await byHeader.arrayBuffer();
    const empty = await fetch(tileUrl(server, EMPTY_TILE.z, EMPTY_TILE.x, EMPTY_TILE.y, key.value), {
      headers: { 'accept-encoding': 'gzip' },
    });
    t.is(empty.status, 200);
    t.is(empty.headers.get('content-encoding'), null);
    t.is(empty.headers.get('etag'), '"empty"');
    t.is((await empty.arrayBuffer()).byteLength, 0);
  }
  t.is(cacheOf(server).size, 2, 'the stored tile and the empty one');
  t.true(cacheOf(server).bytes >= stored.gzipped.length);
});

test('cached tiles are metered one unit each, and still refused without the maps scope or a key', async (t) => {
  const { server } = await servedDataset(t);
  const { account, key } = await customer(server);
  for (let i = 0; i < 5; i++) t.is((await call(tileUrl(server, 0, 0, 0, key.value))).status, 200);
  const usage = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(usage.body.services.maps.used, 5);
  const stranger = await customer(server, ['geocoding']);
  t.regex(assertError(t, await call(tileUrl(server, 0, 0, 0, stranger.key.value)), 403), /"maps" scope/);
  assertError(t, await call(`${server.url}/api/v1/tiles/shortbread/0/0/0.pbf`), 401);
  const strangerUsage = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: stranger.account.cookie } });
  t.is(strangerUsage.body.services.maps.used, 0);
});

test('a dataset switch empties the cache, and the new dataset’s tiles are served', async (t) => {
  const { server, dataset } = await servedDataset(t);
  const { key } = await customer(server);
  const url = tileUrl(server, 0, 0, 0, key.value);
  t.is((await fetch(url)).headers.get('etag'), `"${dataset.tiles[0]!.id}"`);
  t.is(cacheOf(server).size, 1);

  unlinkSync(paths.current(server.dataDir));
  const next = await writeTestDataset(server.dataDir, 'test-dataset-2');
  // The same coordinates, other bytes (those of the z14 tile): what a re-import with new data gives.
  const other = next.tiles[1]!;
  const db = new Database(paths.tiles(next.dir));
  db.prepare('UPDATE map SET tile_id = ? WHERE zoom_level = 0').run(other.id);
  db.close();
  server.datasets.reload();
  t.is(server.datasets.current()!.id, 'test-dataset-2');
  t.is(cacheOf(server).size, 0);
  t.is(cacheOf(server).bytes, 0);

  const after = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  t.is(after.headers.get('etag'), `"${other.id}"`);
  t.deepEqual(Buffer.from(await after.arrayBuffer()), other.raw);
  t.is(cacheOf(server).size, 1);
});

test.serial('with WAYMARK_TILE_CACHE_MB=0 tiles are read from the MBTiles each time and answer the same', async (t) => {
  const dataDir = tempDataDir(t);
  const dataset = await writeTestDataset(dataDir);
  const saved = process.env.WAYMARK_TILE_CACHE_MB;
  process.env.WAYMARK_TILE_CACHE_MB = '0';
  // The routes read the setting while the server starts, synchronously.
  const starting = serve(t, { dataDir });
  if (saved === undefined) delete process.env.WAYMARK_TILE_CACHE_MB;
  else process.env.WAYMARK_TILE_CACHE_MB = saved;
  const server = await starting;
  const { key } = await customer(server);
  const stored = dataset.tiles[1]!;
  const res = await fetch(tileUrl(server, stored.z, stored.x, stored.y, key.value), { headers: { 'accept-encoding': 'gzip' } });
  t.is(res.headers.get('content-encoding'), 'gzip');
  t.is(res.headers.get('etag'), `"${stored.id}"`);
  t.deepEqual(Buffer.from(await res.arrayBuffer()), stored.raw);
  t.is(datasetTileCache(server.datasets), null);
});
