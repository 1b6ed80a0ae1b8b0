/**
 * Raster tiles, their TileJSON and static maps through the full gateway (issue 12): metering,
 * key and scope errors, 400s naming the parameter, 404 for an unknown style, ETag/304, the memory
 * and disk caches, content types; static maps with markers and a route path from a real
 * directions answer, fitted to a bbox or to the overlays; the pool's clean 5xx on a hung or
 * crashed thread; a seeded fuzz of the static map parameters.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { ApiError } from '../src/http/errors.js';
import { staticMapView } from '../src/maps/raster/fit.js';
import type { RasterJob } from '../workers/render/task.js';
import { RasterPool } from '../src/maps/raster/pool.js';
import { sanitizeStaticMap } from '../src/maps/raster/sanitize/index.js';
import { MAX_MARKERS } from '../src/maps/raster/sanitize/overlays.js';
import { customer } from './helpers/fixtures.js';
import { assertError, call, hostileUrlValue, pick, seededRandom } from './helpers/http.js';
import { writeRoutingDataset } from './helpers/routing.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { sharedFile } from './helpers/shared-data.js';

const MONACO_BOUNDS: [number, number, number, number] = [7.4, 43.72, 7.44, 43.76];
let server: TestServer;
let dataDir: string;
let datasetDir: string;

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-raster-api-'));
  datasetDir = await writeRoutingDataset(dataDir, [sharedFile('osm', 'monaco.osm.pbf')], ['driving'], MONACO_BOUNDS);
  server = await startTestServer({ dataDir });
});

test.after.always(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, key: string, query = '') => `${server.url}/api/v1${path}?key=${key}${query}`;
const tileUrl = (name: string, key: string, style = 'light', query = '') => api(`/styles/${style}/tiles/${name}`, key, query);

const mapsUsed = async (cookie: string): Promise<number> =>
  (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie } })).body.services.maps.used;

async function picture(res: Response): Promise<{ width: number; height: number; rgba: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(await res.arrayBuffer()));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return { width: image.width, height: image.height, rgba: canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data };
}

/** Pixels close to an opaque colour. */
function countColour(rgba: Uint8ClampedArray, [r, g, b]: [number, number, number]): number {
  let count = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    if (Math.abs(rgba[i]! - r) < 12 && Math.abs(rgba[i + 1]! - g) < 12 && Math.abs(rgba[i + 2]! - b) < 12) count++;
  }
  return count;
}

/** The z14 tile of Monaco's harbour. */
const MONACO_Z14 = { z: 14, x: 8529, y: 5975 };

test('a raster tile is a 256 px PNG (512 px @2x), with ETag and Cache-Control, one unit each; webp and jpg too', async (t) => {
  const { account, key } = await customer(server);
  const { z, x, y } = MONACO_Z14;
  const cases = [
    { name: `${y}.png`, type: 'image/png', side: 256 },
    { name: `${y}@2x.png`, type: 'image/png', side: 512 },
    { name: `${y}.webp`, type: 'image/webp', side: 256 },
    { name: `${y}@2x.jpg`, type: 'image/jpeg', side: 512 },
  ];
  for (const { name, type, side } of cases) {
    const res = await fetch(tileUrl(`${z}/${x}/${name}`, key.value));
    t.is(res.status, 200, name);
    t.is(res.headers.get('content-type'), type, name);
    t.regex(res.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/, name);
    t.is(res.headers.get('cache-control'), 'public, max-age=86400', name);
    const { width, height } = await picture(res);
    t.deepEqual([width, height], [side, side], name);
  }
  t.is(await mapsUsed(account.cookie), cases.length);
});

test('the world tiles below z2 and a tile overzoomed to z20 render', async (t) => {
  const { key } = await customer(server);
  for (const path of ['0/0/0.png', '1/1/0.png', '20/545860/382445.png']) {
    const res = await fetch(tileUrl(path, key.value, 'dark'));
    t.is(res.status, 200, path);
    t.is(res.headers.get('content-type'), 'image/png', path);
  }
});

test('If-None-Match with the ETag gives 304, counted as one unit', async (t) => {
  const { account, key } = await customer(server);
  const url = tileUrl('12/2132/1493.png', key.value);
  const first = await fetch(url);
  const etag = first.headers.get('etag')!;
  const again = await fetch(url, { headers: { 'if-none-match': etag } });
  t.is(again.status, 304);
  t.is(again.headers.get('etag'), etag);
  t.is(await mapsUsed(account.cookie), 2);
});

test('a metatile renders once into the disk and memory caches; its tiles are then served from them', async (t) => {
  const { key } = await customer(server, ['maps']);
  // The four tiles of one z13 metatile, asked for at once: they share one job.
  const tiles = [
    [4264, 2986],
    [4265, 2986],
    [4264, 2987],
    [4265, 2987],
  ] as const;
  const started = performance.now();
  const answers = await Promise.all(tiles.map(([x, y]) => fetch(tileUrl(`13/${x}/${y}.png`, key.value, 'gray', '&lang=en'))));
  const cold = performance.now() - started;
  t.deepEqual(
    answers.map((res) => res.status),
    [200, 200, 200, 200],
  );
  // The disk cache is written after the answer: wait for its files a little.
  const file = (x: number, y: number) => join(datasetDir, 'raster-cache', 'gray', 'en', '13', String(x), `${y}@1x.png`);
  for (let i = 0; i < 100 && !tiles.every(([x, y]) => existsSync(file(x, y))); i++) await new Promise((done) => setTimeout(done, 20));
  for (const [x, y] of tiles) t.true(existsSync(file(x, y)), `${x}/${y} on disk`);

  // Without its file, a tile still comes from the memory cache, unchanged and at once.
  const [x, y] = tiles[0];
  unlinkSync(file(x, y));
  const warmStart = performance.now();
  const warm = await fetch(tileUrl(`13/${x}/${y}.png`, key.value, 'gray', '&lang=en'));
  const warmMs = performance.now() - warmStart;
  t.is(warm.status, 200);
  t.is(warm.headers.get('etag'), answers[0]!.headers.get('etag'));
  t.true(warmMs < cold, `cached ${warmMs.toFixed(1)} ms, cold ${cold.toFixed(1)} ms`);
});

test('tile errors: 404 unknown style, 400 naming z, x, y, extension and lang, not metered', async (t) => {
  const { account, key } = await customer(server);
  t.regex(assertError(t, await call(tileUrl('1/0/0.png', key.value, 'neon')), 404), /unknown style "neon".*light/);
  const bad: [string, RegExp, string?][] = [
    ['21/0/0.png', /^z must be an integer from 0 to 20/],
    ['1/2/0.png', /^x must be an integer from 0 to 1 at zoom 1/],
    ['1/0/2.png', /^y must be an integer from 0 to 1 at zoom 1/],
    ['1/0/-1.png', /\{y\}@2x/],
    ['1/0/0@3x.png', /\{y\}@2x/],
    ['1/0/0.gif', /extension must be one of png, webp, jpg/],
    ['1/0/0.png', /invalid parameter 'lang'/, '&lang=%3Cscript%3E'],
  ];
  for (const [path, message, query] of bad)
    t.regex(assertError(t, await call(tileUrl(path, key.value, 'light', query ?? '')), 400), message, path);
  t.is(await mapsUsed(account.cookie), 0);
});

test('keys and scopes: 401 without a key, 403 without the maps scope, on tiles, TileJSON and static maps', async (t) => {
  const { key } = await customer(server, ['geocoding']);
  for (const path of ['/styles/light/tiles/1/0/0.png', '/styles/light/tiles.json', '/staticmap']) {
    assertError(t, await call(`${server.url}/api/v1${path}`), 401);
    t.regex(assertError(t, await call(api(path, key.value)), 403), /"maps" scope/, path);
  }
});

test('the raster TileJSON gives the tile URL with the key, @2x and the format asked for, unmetered', async (t) => {
  const { account, key } = await customer(server);
  const plain = await call(api('/styles/natural/tiles.json', key.value));
  t.is(plain.status, 200);
  t.is(plain.body.tilejson, '3.0.0');
  t.deepEqual(plain.body.tiles, [`${server.url}/api/v1/styles/natural/tiles/{z}/{x}/{y}.png?key=${key.value}`]);
  t.is(plain.body.tileSize, 256);
  t.is(plain.body.maxzoom, 20);
  t.truthy(plain.body.attribution);
  const retina = await call(api('/styles/dark/tiles.json', key.value, '&scale=2&format=jpg&lang=de'));
  t.deepEqual(retina.body.tiles, [`${server.url}/api/v1/styles/dark/tiles/{z}/{x}/{y}@2x.jpg?key=${key.value}&lang=de`]);
  t.regex(assertError(t, await call(api('/styles/dark/tiles.json', key.value, '&scale=3')), 400), /'scale'/);
  assertError(t, await call(api('/styles/neon/tiles.json', key.value)), 404);
  t.is(await mapsUsed(account.cookie), 0);
});

test('a static map of a real route: the path from a directions answer and two markers, one unit', async (t) => {
  const { account, key } = await customer(server);
  const origin = '43.7311,7.4197'; // Fontvieille
  const destination = '43.7470,7.4318'; // Larvotto
  const directions = await call(api('/directions', key.value, `&origin=${origin}&destination=${destination}`));
  t.is(directions.status, 200);
  const encoded = directions.body.routes[0].geometry as string;
  const query =
    `&style=light&size=400x300&scale=2&markers=color:0x00ff00|label:A|${origin}&markers=color:0xff00ff|label:B|${destination}` +
    `&path=color:0x0000ffff|width:5|enc:${encodeURIComponent(encoded)}`;
  const res = await fetch(api('/staticmap', key.value, query));
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'image/png');
  const { width, height, rgba } = await picture(res);
  t.deepEqual([width, height], [800, 600]);
  // Fitted to the route: the pins and the route line are in the picture.
  t.true(countColour(rgba, [0, 255, 0]) > 100, 'pin A');
  t.true(countColour(rgba, [255, 0, 255]) > 100, 'pin B');
  t.true(countColour(rgba, [0, 0, 255]) > 500, 'route');
  t.is(await mapsUsed(account.cookie), 1); // the directions call is a routing unit
});

test('a static map fitted to a bbox, or at a center and zoom, in each format; 304 with its ETag', async (t) => {
  const { key } = await customer(server);
  const bbox = await fetch(api('/staticmap', key.value, `&style=dark&size=300x200&format=webp&bbox=${MONACO_BOUNDS.join(',')}`));
  t.is(bbox.status, 200);
  t.is(bbox.headers.get('content-type'), 'image/webp');
  const fitted = await picture(bbox);
  t.deepEqual([fitted.width, fitted.height], [300, 200]);
  const centered = api('/staticmap', key.value, '&style=gray&size=120x80&format=jpg&center=43.7384,7.4246&zoom=13.5');
  const jpg = await fetch(centered);
  t.is(jpg.status, 200);
  t.is(jpg.headers.get('content-type'), 'image/jpeg');
  const { width, height } = await picture(jpg);
  t.deepEqual([width, height], [120, 80]);
  const again = await fetch(centered, { headers: { 'if-none-match': jpg.headers.get('etag')! } });
  t.is(again.status, 304);
});

test('fitting: a bbox fills the picture; overlays are fitted with a padding, a lone point not closer than z16', (t) => {
  const fitted = staticMapView({ kind: 'bbox', bounds: [-180, -85.051129, 180, 85.051129] }, 512, 512, [], []);
  t.is(fitted.zoom, 0);
  t.true(Math.abs(fitted.center[0]) < 1e-9 && Math.abs(fitted.center[1]) < 1e-6);
  const half = staticMapView({ kind: 'bbox', bounds: [0, 0, 90, 66.51326] }, 256, 256, [], []);
  t.true(Math.abs(half.zoom - 1) < 1e-4, String(half.zoom));
  const lone = staticMapView({ kind: 'fit' }, 400, 300, [{ lon: 7.42, lat: 43.73, color: '#ff0000' }], []);
  t.is(lone.zoom, 16);
  t.deepEqual(
    lone.center.map((v) => Number(v.toFixed(6))),
    [7.42, 43.73],
  );
  const padded = staticMapView(
    { kind: 'fit' },
    256 + 80,
    256 + 80,
    [],
    [
      {
        points: [
          [0, 0],
          [90, 66.51326],
        ],
        color: '#000000',
        width: 2,
      },
    ],
  );
  t.true(Math.abs(padded.zoom - 1) < 1e-4, String(padded.zoom));
});

const query = (text: string) => new URLSearchParams(text);
const refusal = (text: string): string => {
  try {
    sanitizeStaticMap(query(text));
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${text}`);
};

test('static map parameters: each bad one is a 400 naming it, all reported at once', async (t) => {
  const base = 'style=light&size=100x100&center=43.7,7.4&zoom=12';
  const cases: [string, RegExp][] = [
    ['size=100x100&center=43.7,7.4&zoom=12', /missing parameter 'style'/],
    [base.replace('light', 'neon'), /parameter 'style': 'neon' is not a style; use one of light, dark, gray, natural/],
    [base.replace('size=100x100', 'size=1281x10'), /parameter 'size'.*from 1 to 1280/],
    [base.replace('size=100x100', 'size=0x10'), /parameter 'size'/],
    [base.replace('size=100x100&', ''), /missing parameter 'size'/],
    [base.replace('zoom=12', 'zoom=20.5'), /parameter 'zoom'.*between 0 and 20/],
    [base.replace('&zoom=12', ''), /missing parameter 'zoom'/],
    [base.replace('center=43.7,7.4', 'center=95,7.4'), /center latitude/],
    [`${base}&bbox=7.4,43.7,7.5,43.8`, /'center' and 'bbox'/],
    ['style=light&size=100x100&bbox=7.5,43.7,7.4,43.8', /parameter 'bbox'/],
    ['style=light&size=100x100', /missing parameter 'center'.*markers or a path/],
    [`${base}&scale=3`, /parameter 'scale'/],
    [`${base}&format=gif`, /parameter 'format'.*png, webp, jpg/],
    [`${base}&lang=%3C%3E`, /parameter 'lang'/],
    [`${base}&markers=color:pink|43.7,7.4`, /parameter 'markers': 'pink' is not a colour/],
    [`${base}&markers=label:ABC|43.7,7.4`, /parameter 'markers': label 'ABC'/],
    [`${base}&markers=size:big|43.7,7.4`, /parameter 'markers': 'size:'/],
    [`${base}&markers=color:red`, /parameter 'markers': it needs at least 1 point/],
    [`${base}&markers=43.7,190`, /markers\[0\] longitude/],
    [`${base}&markers=89,7.4`, /'markers\[0\] latitude': it must be between -85.051129 and 85.051129/],
    [`${base}&markers=${Array.from({ length: MAX_MARKERS + 1 }, () => '43.7,7.4').join('|')}`, /'markers': at most 50 markers/],
    [`${base}&path=43.7,7.4`, /parameter 'path': it needs at least 2 points/],
    [`${base}&path=width:0|43.7,7.4|43.8,7.5`, /parameter 'path': width '0'/],
    [`${base}&path=color:0x12345|43.7,7.4|43.8,7.5`, /parameter 'path': '0x12345' is not a colour/],
    [`${base}&path=enc:%7F%7F`, /'path': the encoded polyline/],
    [`${base}&path=43.7,7.4|enc:_p~iF~ps%7CU_ulLnnqC`, /either 'enc:' or lat,lng points/],
    [`${base}&${Array.from({ length: 6 }, () => 'path=43.7,7.4|43.8,7.5').join('&')}`, /'path': at most 5 paths/],
    [`${base}&path=${Array.from({ length: 1001 }, () => '43.7,7.4').join('|')}`, /'path': at most 1000 points/],
    [`${base}&style=dark`, /'style': it can only be given once/],
  ];
  for (const [text, message] of cases) t.regex(refusal(text), message, text);
  // Everything wrong at once: every parameter is named in the one message.
  const all = refusal('style=neon&size=9999x1&center=x&zoom=99&scale=0&format=bmp&markers=color:no|1,1&path=1,1');
  for (const name of ['style', 'size', 'center', 'zoom', 'scale', 'format', 'markers', 'path']) t.true(all.includes(`'${name}'`), name);
  // And through the gateway: the error body, not metered.
  const { account, key } = await customer(server);
  const message = assertError(t, await call(api('/staticmap', key.value, '&style=light&size=2000x10&zoom=3')), 400);
  t.true(message.includes("'size'") && message.includes("'center'"), message);
  t.is(await mapsUsed(account.cookie), 0);
});

test("a static map's center in the other order is a 400 naming the coverage and the swap; one simply elsewhere renders", async (t) => {
  const { account, key } = await customer(server);
  const swapped = await call(api('/staticmap', key.value, '&style=light&size=100x100&center=7.42,43.73&zoom=14'));
  t.is(
    assertError(t, swapped, 400),
    "invalid parameter 'center': 7.42,43.73 is outside the data's coverage, lat,lng 43.72,7.4 to 43.76,7.44 (south-west to north-east corner); did you mean 43.73,7.42? positions here are latitude first",
  );
  t.is(await mapsUsed(account.cookie), 0);
  // Paris is outside Monaco's data, but no swap of it is inside: the world backdrop is drawn, as before.
  t.is((await fetch(api('/staticmap', key.value, '&style=light&size=100x100&center=48.8566,2.3522&zoom=3'))).status, 200);
  t.is((await fetch(api('/staticmap', key.value, '&style=light&size=100x100&center=43.73,7.42&zoom=14'))).status, 200);
});

test('static map parameters accept the documented grammar: named and hex colours, alpha, fill, encoded polylines', (t) => {
  const params = sanitizeStaticMap(
    query(
      'style=natural&size=1280x1280&scale=2&format=jpg&lang=de-CH' +
        '&markers=color:blue|label:a|43.73,7.42|43.74,7.43&markers=43.75,7.44' +
        '&path=color:0xff000080|width:2.5|fill:0x00ff0033|43.73,7.42|43.74,7.43|43.74,7.42|43.73,7.42' +
        `&path=enc:${encodeURIComponent('_p~iF~ps|U_ulLnnqC_mqNvxq`@')}`,
    ),
  );
  t.is(params.format, 'jpeg');
  t.is(params.scale, 2);
  t.is(params.lang, 'de');
  t.deepEqual(
    params.markers.map((m) => [m.lon, m.lat, m.color, m.label]),
    [
      [7.42, 43.73, '#2a6fdb', 'A'],
      [7.43, 43.74, '#2a6fdb', 'A'],
      [7.44, 43.75, '#e03c31', undefined],
    ],
  );
  t.is(params.paths[0]!.color, '#ff000080');
  t.is(params.paths[0]!.fill, '#00ff0033');
  t.is(params.paths[0]!.width, 2.5);
  // Google's documented example polyline, its `|` included.
  t.deepEqual(params.paths[1]!.points, [
    [-120.2, 38.5],
    [-120.95, 40.7],
    [-126.453, 43.252],
  ]);
  t.is(params.view.kind, 'fit');
});

test('fuzz (seeded): any static map query is refused with a 400 naming a parameter, or gives a coherent job', (t) => {
  const random = seededRandom(12);
  const valid: Record<string, string> = {
    style: 'light',
    size: '300x200',
    scale: '2',
    format: 'webp',
    lang: 'en',
    center: '43.7,7.4',
    zoom: '12.5',
    bbox: '7.4,43.7,7.5,43.8',
    markers: 'color:red|label:A|43.7,7.4',
    path: 'width:3|43.7,7.4|43.8,7.5',
  };
  const names = Object.keys(valid);
  for (let i = 0; i < 3000; i++) {
    const q = new URLSearchParams();
    for (const name of names) {
      const roll = random();
      if (roll < 0.3) continue;
      q.append(name, roll < 0.6 ? valid[name]! : hostileUrlValue(random, valid[name]!));
      if (random() < 0.05) q.append(pick(random, names), hostileUrlValue(random, valid[name]!));
    }
    try {
      const params = sanitizeStaticMap(q);
      const view = staticMapView(params.view, params.size.width, params.size.height, params.markers, params.paths);
      t.true(view.zoom >= 0 && view.zoom <= 20 && Math.abs(view.center[0]) <= 180 && Math.abs(view.center[1]) <= 90, q.toString());
      t.true(params.size.width >= 1 && params.size.width <= 1280 && params.size.height >= 1 && params.size.height <= 1280, q.toString());
    } catch (error) {
      t.true(
        error instanceof ApiError && error.statusCode === 400 && /parameter/.test(error.message),
        `${q.toString()}: ${(error as Error).message}`,
      );
    }
  }
});

/** A pool whose worker hangs on width 1, exits on width 2 and otherwise answers the width as its picture. */
function testPool(t: ExecutionContext, timeoutMs: number): RasterPool {
  const pool = new RasterPool(1, timeoutMs, join(PACKAGE_ROOT, 'test', 'fixtures', 'workers', 'misbehaving-raster.mjs'));
  t.teardown(() => pool.close());
  return pool;
}
const fakeJob = (width: number) => ({ kind: 'static', width }) as unknown as RasterJob;

test('the pool answers a hung job with a 503 and a crashed thread with a 500, once each, then keeps answering', async (t) => {
  // Long enough for the replacement thread to start on a loaded machine before the next jobs' time runs out.
  const pool = testPool(t, 10_000);
  const hung = await t.throwsAsync(pool.run(fakeJob(1)), { instanceOf: ApiError });
  t.is(hung!.statusCode, 503);
  t.regex(hung!.message, /took longer than 10 s/);
  const crashed = await t.throwsAsync(pool.run(fakeJob(2)), { instanceOf: ApiError });
  t.is(crashed!.statusCode, 500);
  t.deepEqual(await pool.run(fakeJob(7)), { kind: 'static', image: new Uint8Array([7]) });
});

test('the pool refuses a job with a 503 when its queue is full', async (t) => {
  const pool = testPool(t, 1500);
  // Far more jobs than one thread's queue (32) holds: the ones past it are refused at once, the others time out.
  const errors = (await Promise.all(Array.from({ length: 40 }, () => pool.run(fakeJob(1)).catch((error: unknown) => error)))) as ApiError[];
  t.true(errors.every((error) => error instanceof ApiError && error.statusCode === 503));
  const busy = errors.filter((error) => /too many maps are waiting/.test(error.message));
  t.is(busy.length, 40 - 33, `${busy.length} refused as busy`);
  t.true(busy.every((error) => error.headers['Retry-After'] === '1'));
});
