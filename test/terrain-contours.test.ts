/**
 * Contour tiles (issue 28): marching squares on surfaces of known shape (closed rings round a
 * peak, lines ending at the grid's border and at the data's edge); then through the real server
 * on the shared SRTM tiles of Monaco and Andorra: layer `contour`, `ele` a multiple of the zoom's
 * interval and `level` major on multiples of the major one, every line closed or ending on the
 * tile's clip box, each line crossing a tile edge continuing in the neighbour tile at the same
 * point; empty tiles below z9 and outside the coverage, 400s, metering, the TileJSON.
 */
import { VectorTile } from '@mapbox/vector-tile';
import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import { CONTOUR_CLIP_BUFFER, CONTOUR_EXTENT, contourInterval } from '../core/terrain/contour-tile.js';
import { isolines, type Point } from '../core/terrain/isolines.js';
import { writeTestDataset } from './helpers/dataset.js';
import { ANDORRA_DEM, MONACO_DEM, startDemServer, type DemServer } from './helpers/dem.js';
import { customer } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest } from './helpers/shared-data.js';
import { tileAt } from './helpers/vector-tiles.js';

const DEMS = [MONACO_DEM, ANDORRA_DEM];
let server: TestServer;
let dem: DemServer | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'waymark-terrain-contours-'));

test.before(async () => {
  if (!DEMS.every((file) => existsSync(file))) return;
  dem = await startDemServer(scratch, DEMS);
  ({ server } = dem);
});

test.after.always(async () => {
  await dem?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];

test('marching squares: closed rings round a peak, lines ending at the border and at a gap in the data', (t) => {
  const side = 41;
  // A cone falling 2 m a cell from 100 m at (20.3, 19.6), between samples: level L is the circle of radius (100 − L) / 2.
  const distance = (x: number, y: number) => Math.hypot(x - 20.3, y - 19.6);
  const cone = Float64Array.from({ length: side * side }, (_, i) => 100 - 2 * distance(i % side, Math.floor(i / side)));
  const rings = isolines(cone, side, side, 10);
  t.deepEqual([...rings.keys()], [50, 60, 70, 80, 90]);
  for (const [level, lines] of rings) {
    const radius = (100 - level) / 2;
    for (const line of lines)
      for (const [x, y] of line) t.true(Math.abs(distance(x, y) - radius) < 0.25, `${level}: (${x}, ${y}) on its circle`);
  }
  for (const level of [70, 80, 90]) {
    const lines = rings.get(level)!;
    t.is(lines.length, 1, `one ring at ${level}`);
    t.true(same(lines[0]![0]!, lines[0]!.at(-1)!), `the ring at ${level} is closed`);
  }
  // The widest circle leaves the grid: open lines, ending on its border.
  for (const line of rings.get(50)!) {
    t.false(same(line[0]!, line.at(-1)!));
    for (const end of [line[0]!, line.at(-1)!])
      t.true(
        end.some((v) => v === 0 || v === side - 1),
        `${end} on the border`,
      );
  }
  // A column of NaN through the peak cuts a ring into two lines ending beside it.
  const gap = cone.map((value, i) => (i % side === 20 ? Number.NaN : value));
  const cut = isolines(gap, side, side, 10).get(90)!;
  t.is(cut.length, 2);
  for (const line of cut) {
    t.false(same(line[0]!, line.at(-1)!));
    for (const end of [line[0]!, line.at(-1)!]) t.true(end[0] === 19 || end[0] === 21, `${end} beside the gap`);
  }
});

test('intervals by zoom: none below 9, 200/1000 m at 9–10, 100/500 at 11, 20/100 at 12–13, 10/50 from 14', (t) => {
  t.is(contourInterval(8), null);
  t.like(contourInterval(9), { minor: 200, major: 1000 });
  t.like(contourInterval(10), { minor: 200, major: 1000 });
  t.like(contourInterval(11), { minor: 100, major: 500 });
  t.like(contourInterval(12), { minor: 20, major: 100 });
  t.like(contourInterval(13), { minor: 20, major: 100 });
  t.like(contourInterval(14), { minor: 10, major: 50 });
});

interface Contour {
  ele: number;
  level: string;
  lines: Point[][];
}

async function contours(z: number, x: number, y: number, key: string): Promise<Contour[]> {
  const res = await fetch(`${server.url}/api/v1/tiles/contours/${z}/${x}/${y}.pbf?key=${key}`);
  if (res.status !== 200) throw new Error(`${z}/${x}/${y}: ${res.status} ${await res.text()}`);
  const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers.contour;
  if (layer === undefined) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    return {
      ele: feature.properties.ele as number,
      level: feature.properties.level as string,
      lines: feature.loadGeometry().map((line) => line.map(({ x: px, y: py }): Point => [px, py])),
    };
  });
}

/** Where the lines cross the line x = `at` (y = `at` unless `alongX`): [ele, the other coordinate], sorted. */
function crossings(features: Contour[], at: number, alongX: boolean): [number, number][] {
  const found: [number, number][] = [];
  const [u, v] = alongX ? ([0, 1] as const) : ([1, 0] as const);
  for (const { ele, lines } of features) {
    for (const line of lines) {
      for (let i = 1; i < line.length; i++) {
        const a = line[i - 1]!;
        const b = line[i]!;
        if (a[u] < at === b[u] < at) continue;
        found.push([ele, a[v] + ((at - a[u]) / (b[u] - a[u])) * (b[v] - a[v])]);
      }
    }
  }
  return found.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

const MONACO: [number, number] = [7.4206, 43.7314];
const ANDORRA: [number, number] = [1.5218, 42.5063];
/** Mont Agel, above Monaco. */
const MONT_AGEL: [number, number] = [7.43, 43.775];

dataTest('ele is a multiple of the interval, level major on the major one; each line closed or ending on the clip box', DEMS, async (t) => {
  const { key } = await customer(server);
  const low = -CONTOUR_CLIP_BUFFER;
  const high = CONTOUR_EXTENT + CONTOUR_CLIP_BUFFER;
  for (const [z, [lon, lat]] of [
    [10, ANDORRA],
    [11, ANDORRA],
    [12, MONACO],
    [14, ANDORRA],
  ] as const) {
    const { x, y } = tileAt(lon, lat, z);
    const features = await contours(z, x, y, key.value);
    const { minor, major } = contourInterval(z)!;
    t.true(features.length > 2, `${z}/${x}/${y} has contours`);
    for (const { ele, level, lines } of features) {
      t.is(ele % minor, 0, `${ele} m at z${z}`);
      t.not(ele, 0);
      t.is(level, ele % major === 0 ? 'major' : 'minor', `${ele} m at z${z}`);
      for (const line of lines) {
        if (same(line[0]!, line.at(-1)!)) continue;
        for (const [ex, ey] of [line[0]!, line.at(-1)!])
          t.true(ex === low || ex === high || ey === low || ey === high, `z${z} ${ele} m: an end (${ex}, ${ey}) inside the tile`);
      }
    }
  }
});

dataTest('a contour crossing a tile edge continues in the neighbour tile at the same point', DEMS, async (t) => {
  const { key } = await customer(server);
  for (const [z, [lon, lat]] of [
    [12, MONT_AGEL],
    [13, ANDORRA],
  ] as const) {
    const { x, y } = tileAt(lon, lat, z);
    const here = await contours(z, x, y, key.value);
    const east = await contours(z, x + 1, y, key.value);
    const south = await contours(z, x, y + 1, key.value);
    for (const [mine, theirs, alongX] of [
      [crossings(here, CONTOUR_EXTENT, true), crossings(east, 0, true), true],
      [crossings(here, CONTOUR_EXTENT, false), crossings(south, 0, false), false],
    ] as const) {
      t.true(mine.length > 3, `z${z}: lines cross the ${alongX ? 'east' : 'south'} edge`);
      t.is(mine.length, theirs.length, `z${z} ${alongX ? 'east' : 'south'}: as many crossings on both sides`);
      // Both tiles round their points to whole units: a crossing moves by a unit at most.
      mine.forEach(([ele, at], i) => {
        t.is(theirs[i]?.[0], ele);
        t.true(Math.abs((theirs[i]?.[1] ?? Number.NaN) - at) <= 1.5, `z${z} ${ele} m crosses at ${at} and ${theirs[i]![1]}`);
      });
    }
  }
});

dataTest(
  'empty tiles below z9 and outside the coverage; 400 beyond z14 and for bad coordinates; one unit a tile; gzip and ETag',
  DEMS,
  async (t) => {
    const { account, key } = await customer(server);
    const url = (path: string) => `${server.url}/api/v1/tiles/contours/${path}?key=${key.value}`;
    const { x, y } = tileAt(...MONACO, 8);
    const far = tileAt(-74, 40.7, 12);
    for (const path of [`8/${x}/${y}.pbf`, `12/${far.x}/${far.y}.pbf`]) {
      const res = await fetch(url(path));
      t.is(res.status, 200, path);
      t.is((await res.arrayBuffer()).byteLength, 0, `${path} is empty`);
    }
    const tile = tileAt(...MONACO, 13);
    const res = await fetch(url(`13/${tile.x}/${tile.y}.pbf`), { headers: { 'accept-encoding': 'gzip' } });
    t.is(res.headers.get('content-type'), 'application/x-protobuf');
    t.is(res.headers.get('content-encoding'), 'gzip');
    const etag = res.headers.get('etag')!;
    t.regex(etag, /^"[0-9a-f]{32}"$/);
    t.is((await fetch(url(`13/${tile.x}/${tile.y}.pbf`), { headers: { 'if-none-match': etag } })).status, 304);
    t.regex(assertError(t, await call(url('15/0/0.pbf')), 400), /z must be an integer from 0 to 14/);
    t.regex(assertError(t, await call(url('3/8/0.pbf')), 400), /x must be an integer from 0 to 7 at zoom 3/);
    t.regex(assertError(t, await call(url('3/0/y.pbf')), 400), /y must be an integer/);
    t.is(await (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } })).body.services.maps.used, 4);
  },
);

dataTest('the contours TileJSON lists layer contour with ele and level, z9–14, the coverage; not metered', DEMS, async (t) => {
  const { key } = await customer(server);
  const answer = await call(`${server.url}/api/v1/tiles/contours.json?key=${key.value}`);
  t.is(answer.status, 200, answer.text);
  t.like(answer.body, {
    tilejson: '3.0.0',
    format: 'pbf',
    minzoom: 9,
    maxzoom: 14,
    bounds: [1, 42, 8, 44],
    tiles: [`${server.url}/api/v1/tiles/contours/{z}/{x}/{y}.pbf?key=${key.value}`],
  });
  t.deepEqual(answer.body.vector_layers, [{ id: 'contour', minzoom: 9, maxzoom: 14, fields: { ele: 'Number', level: 'String' } }]);
});

test('a dataset without elevation answers 503 for contour tiles and their TileJSON', async (t) => {
  const dataDir = mkdtempSync(join(scratch, 'flat-'));
  await writeTestDataset(dataDir);
  const flat = await startTestServer({ dataDir });
  t.teardown(() => flat.close());
  const { key } = await customer(flat);
  for (const path of ['tiles/contours/12/0/0.pbf', 'tiles/contours.json'])
    t.regex(assertError(t, await call(`${flat.url}/api/v1/${path}?key=${key.value}`), 503), /import DEMs/, path);
});
