/**
 * Terrain tiles (issue 28) through the real server, on a DEM-only import of the shared SRTM tiles
 * of Monaco and Andorra: PNG and WebP tiles decode back to the elevation store's values at their
 * pixel centres (to the encoding's 0.1 m), 0 m where a tile reaches beyond the coverage, a 404
 * outside it; overzoomed tiles; ETag, caches, one `maps` unit per tile; 400s for bad paths, 503
 * without elevation; the TileJSON MapLibre's raster-dem source reads; the styles drawing hillshade
 * and contours from it (valid MapLibre styles), and leaving them out without elevation.
 */
import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElevationStore } from '../core/terrain/elevation-store.js';
import { tileAxes } from '../core/terrain/sample-axes.js';
import { writeTestDataset } from './helpers/dataset.js';
import { ANDORRA_DEM, MONACO_DEM, startDemServer, type DemServer } from './helpers/dem.js';
import { customer } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';
import { dataTest } from './helpers/shared-data.js';
import { startTestServer } from './helpers/server.js';
import { decodeTerrainTile } from './helpers/terrain-tiles.js';
import { within } from './helpers/waits.js';

const DEMS = [MONACO_DEM, ANDORRA_DEM];
let server: TestServer;
let store: ElevationStore;
let datasetDir: string;
let dem: DemServer | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'waymark-terrain-tiles-'));

test.before(async () => {
  if (!DEMS.every((file) => existsSync(file))) return;
  dem = await startDemServer(scratch, DEMS);
  ({ server, store, datasetDir } = dem);
});

test.after.always(async () => {
  await dem?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const tileUrl = (path: string, key: string) => `${server.url}/api/v1/tiles/terrain/${path}?key=${key}`;
const mapsUsed = async (cookie: string): Promise<number> =>
  (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie } })).body.services.maps.used;

/** Web-mercator tile x, y of a point at zoom z. */
function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const y = (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2;
  return [Math.floor(((lon + 180) / 360) * n), Math.floor(y * n)];
}

/** The largest difference between a tile's decoded pixels and the store at their centres (NaN counting as 0 m), and how many pixels have no data. */
async function compareWithStore(bytes: Uint8Array, z: number, x: number, y: number) {
  const tile = await decodeTerrainTile(bytes);
  const { lons, lats } = tileAxes(z, x, y, 512);
  const expected = store.sampleGrid(lons, lats);
  let worst = 0;
  let noData = 0;
  for (let i = 0; i < expected.length; i++) {
    const value = expected[i]!;
    if (Number.isNaN(value)) noData++;
    worst = Math.max(worst, Math.abs(tile.metres[i]! - (Number.isNaN(value) ? 0 : value)));
  }
  return { tile, worst, noData };
}

const MONACO_PALACE: [number, number] = [7.4206, 43.7314];
const ANDORRA_LA_VELLA: [number, number] = [1.5218, 42.5063];

dataTest('PNG and WebP tiles decode back to the store at every pixel centre, to the encoding’s 0.1 m', DEMS, async (t) => {
  const { key } = await customer(server);
  const cases: [number, number, number][] = [
    [12, ...tileOf(...MONACO_PALACE, 12)],
    [10, ...tileOf(...ANDORRA_LA_VELLA, 10)],
    [15, ...tileOf(...ANDORRA_LA_VELLA, 15)], // overzoomed: beyond the data's zoom 10
  ];
  for (const [z, x, y] of cases) {
    for (const format of ['png', 'webp']) {
      const res = await fetch(tileUrl(`${z}/${x}/${y}.${format}`, key.value));
      t.is(res.status, 200, `${z}/${x}/${y}.${format}`);
      t.is(res.headers.get('content-type'), `image/${format}`);
      t.is(res.headers.get('cache-control'), 'public, max-age=86400');
      t.regex(res.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
      const { tile, worst, noData } = await compareWithStore(new Uint8Array(await res.arrayBuffer()), z, x, y);
      t.deepEqual([tile.width, tile.height, tile.opaque], [512, 512, true]);
      t.is(noData, 0, 'these tiles lie inside the coverage');
      t.true(worst <= 0.05 + 1e-6, `${z}/${x}/${y}.${format}: off by up to ${worst} m`);
    }
  }
  const andorra = await decodeTerrainTile(
    new Uint8Array(await (await fetch(tileUrl(`10/${cases[1]![1]}/${cases[1]![2]}.png`, key.value))).arrayBuffer()),
  );
  t.true(andorra.metres.reduce((a, b) => Math.max(a, b)) > 2000, 'the Pyrenees rise above 2,000 m around Andorra la Vella');
});

dataTest('a tile reaching beyond the coverage says 0 m there; a tile wholly outside is a 404 that costs nothing', DEMS, async (t) => {
  const { account, key } = await customer(server);
  // z6: the tile holding Monaco spans some 5.6° of longitude, the DEM 1°.
  const [x, y] = tileOf(...MONACO_PALACE, 6);
  const res = await fetch(tileUrl(`6/${x}/${y}.png`, key.value));
  t.is(res.status, 200);
  const { worst, noData } = await compareWithStore(new Uint8Array(await res.arrayBuffer()), 6, x, y);
  t.true(noData > 200_000, `${noData} of 262,144 pixels lie outside the DEM`);
  t.true(worst <= 0.05 + 1e-6, `off by up to ${worst} m`);
  t.is(await mapsUsed(account.cookie), 1);
  const [farX, farY] = tileOf(-74, 40.7, 8); // New York
  t.regex(
    assertError(t, await call(tileUrl(`8/${farX}/${farY}.png`, key.value)), 404),
    /outside the elevation data, which covers \[1, 42, 8, 44\]/,
  );
  t.is(await mapsUsed(account.cookie), 1, 'the 404 is not metered');
});

dataTest('one maps unit per tile, cached or not; If-None-Match gives 304; the disk cache keeps drawn tiles', DEMS, async (t) => {
  const { account, key } = await customer(server);
  const [x, y] = tileOf(...MONACO_PALACE, 13);
  const url = tileUrl(`13/${x}/${y}.webp`, key.value);
  // Asked twice at once: both answered with the one tile drawn.
  const [first, second] = await Promise.all([fetch(url), fetch(url)]);
  const etag = first.headers.get('etag')!;
  t.is(second.headers.get('etag'), etag);
  t.deepEqual(Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer()));
  const again = await fetch(url);
  t.is(again.headers.get('etag'), etag, 'the memory cache answers with the same tile');
  const unchanged = await fetch(url, { headers: { 'if-none-match': etag } });
  t.is(unchanged.status, 304);
  t.is(await mapsUsed(account.cookie), 4);
  const cached = join(datasetDir, 'raster-cache', 'terrain', '13', String(x), `${y}.webp`);
  await within('the tile is written to the disk cache', async () => existsSync(cached) || undefined);
  t.deepEqual(readFileSync(cached), Buffer.from(await (await fetch(url)).arrayBuffer()));
});

dataTest('bad paths are 400s naming the part; a key without the maps scope is refused', DEMS, async (t) => {
  const { key } = await customer(server);
  const cases: [string, RegExp][] = [
    ['21/0/0.png', /z must be an integer from 0 to 20; got "21"/],
    ['3/8/0.png', /x must be an integer from 0 to 7 at zoom 3; got "8"/],
    ['3/0/8.png', /y must be an integer from 0 to 7 at zoom 3; got "8"/],
    ['3/-1/0.png', /x must be an integer/],
    ['3/0/0.jpg', /extension must be png or webp; got "jpg"/],
    ['3/0/0.pbf', /extension must be png or webp/],
    ['3/0/0@2x.png', /named \{y\}\.png or \{y\}\.webp/],
    ['3/0/zero.png', /named \{y\}\.png or \{y\}\.webp/],
  ];
  for (const [path, message] of cases) t.regex(assertError(t, await call(tileUrl(path, key.value)), 400), message, path);
  const geocodingOnly = await customer(server, ['geocoding']);
  t.regex(assertError(t, await call(tileUrl('0/0/0.png', geocodingOnly.key.value)), 403), /"maps" scope/);
});

dataTest(
  'the TileJSON is what a raster-dem source reads: encoding mapbox, 512 px, the coverage, the data zoom; not metered',
  DEMS,
  async (t) => {
    const { account, key } = await customer(server);
    const answer = await call(`${server.url}/api/v1/tiles/terrain.json`, { headers: { 'x-api-key': key.value } });
    t.is(answer.status, 200, answer.text);
    t.is(answer.headers.get('cache-control'), 'private, max-age=300');
    t.like(answer.body, {
      tilejson: '3.0.0',
      scheme: 'xyz',
      format: 'png',
      encoding: 'mapbox',
      tileSize: 512,
      minzoom: 0,
      maxzoom: 10, // SRTM 3″ samples (92.8 m) are first as fine as a pixel (76 m at the equator) at z10
      bounds: [1, 42, 8, 44],
      tiles: [`${server.url}/api/v1/tiles/terrain/{z}/{x}/{y}.png?key=${key.value}`],
    });
    t.regex(answer.body.attribution, /NASA SRTM/);
    t.is(await mapsUsed(account.cookie), 0);
  },
);

dataTest('natural and outdoors draw hillshade from the terrain source, outdoors contours too; valid styles', DEMS, async (t) => {
  const { key } = await customer(server);
  const styleOf = async (slug: string) =>
    (await call(`${server.url}/api/v1/styles/${slug}/style.json?key=${key.value}`)).body as StyleSpecification;
  const terrainSource = {
    type: 'raster-dem',
    url: `${server.url}/api/v1/tiles/terrain.json?key=${key.value}`,
    tileSize: 512,
    encoding: 'mapbox',
  };
  for (const slug of ['natural', 'outdoors']) {
    const style = await styleOf(slug);
    t.deepEqual(validateStyleMin(style), [], slug);
    t.deepEqual(style.sources.terrain, terrainSource, slug);
    t.true(
      style.layers.some((layer) => layer.type === 'hillshade' && layer.source === 'terrain'),
      slug,
    );
  }
  const outdoors = await styleOf('outdoors');
  t.deepEqual(outdoors.sources.contours, { type: 'vector', url: `${server.url}/api/v1/tiles/contours.json?key=${key.value}` });
  const contourLayers = outdoors.layers.filter((layer) => 'source-layer' in layer && layer['source-layer'] === 'contour');
  t.deepEqual(
    contourLayers.map((layer) => `${layer.id}:${layer.type}`),
    ['contour-minor:line', 'contour-major:line', 'contour-label:symbol'],
  );
  t.deepEqual((contourLayers[2]!.layout as Record<string, unknown>)['text-field'], ['concat', ['to-string', ['get', 'ele']], ' m']);
  t.false('contours' in (await styleOf('natural')).sources);
  t.false('terrain' in (await styleOf('light')).sources);
});

test('a dataset without elevation answers 503 for tiles and TileJSON, and its styles draw no terrain', async (t) => {
  const dataDir = mkdtempSync(join(scratch, 'flat-'));
  await writeTestDataset(dataDir);
  const flat = await startTestServer({ dataDir });
  t.teardown(() => flat.close());
  const { key } = await customer(flat);
  for (const path of ['tiles/terrain/0/0/0.png', 'tiles/terrain.json'])
    t.regex(assertError(t, await call(`${flat.url}/api/v1/${path}?key=${key.value}`), 503), /import DEMs \(waymark import --dem/, path);
  // Its styles leave the terrain out: its sources would fail.
  for (const slug of ['natural', 'outdoors']) {
    const style = (await call(`${flat.url}/api/v1/styles/${slug}/style.json?key=${key.value}`)).body as StyleSpecification;
    t.deepEqual(Object.keys(style.sources), ['versatiles-shortbread'], slug);
    t.false(
      style.layers.some((layer) => layer.type === 'hillshade'),
      slug,
    );
  }
});
