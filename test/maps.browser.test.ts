/**
 * The maps product in a real browser: MapLibre GL JS in headless Chromium, driven through the
 * dashboard's map playground with a key of the account, loads every style from the running server
 * and renders Monaco at zoom 15 and the world at zoom 2 — with no error event, every tile, glyph
 * and sprite request answered 200, and a picture that is not blank; with no position in its URL,
 * the playground opens on the style's view, wholly inside the dataset's bounds. Beyond zoom 7 the world backdrop
 * fills what the extract does not cover — sea, land, borders and places in vector tiles, raster
 * tiles, static maps and MapLibre's picture — and leaves the tiles inside the extract as stored.
 * Screenshots go to test-artifacts/maps/.
 */
import type { ExecutionContext } from 'ava';
import test from 'ava';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { paths, TILESET_ID, type DatasetManifest } from '../core/dataset-layout.js';
import { runImport } from '../data-pipeline/index.js';
import { STYLES } from '../core/maps/style-catalog.js';
import { MbtilesReader } from '../core/maps/mbtiles.js';
import {
  browserTest,
  playgroundAccount,
  playgroundIdleAfter,
  playgroundIdleStatus,
  policyViolations,
  showInPlayground,
  signedInContext,
} from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { decodeTile, featuresOf, polygonsCover, tileAt } from './helpers/vector-tiles.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'maps');
const VIEWS = [
  { name: 'monaco-z15', position: '15/43.7384/7.4246' },
  { name: 'world-z2', position: '2/30/10' },
];
/** Requests the map makes to Waymark's maps API, whose every answer must be 200. */
const MAP_ASSET = /\/api\/v1\/(tiles|fonts|sprites)\//;
/** The playground asks for the terrain TileJSON to say why a style has no 3D terrain: this dataset has no DEM, so it is a 503 by design. */
const TERRAIN_PROBE = /\/api\/v1\/tiles\/terrain\.json\?/;

let server: TestServer | undefined;
let key = '';
let sessionCookie = '';
let dataDir = '';

test.before(async () => {
  if (!existsSync(MONACO)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-browser-'));
  await runImport({ dataDir, osm: [MONACO], world: true }, () => {});
  server = await startTestServer({ dataDir });
  ({ key, cookie: sessionCookie } = await playgroundAccount(server));
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Share of pixels not in the picture's most common colour (coarsely quantized). */
async function colourVariety(png: Buffer): Promise<{ colours: number; nonDominantShare: number }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const colour = ((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const pixels = data.length / 4;
  return { colours: counts.size, nonDominantShare: 1 - Math.max(...counts.values()) / pixels };
}

/** Software rendering on a busy 2-core machine can be slow; the status says when the map is idle. */
const IDLE_TIMEOUT_MS = 150_000;

/** Shows the style in the playground with the account's key; the status once the map is idle (or failed). */
async function showMap(page: Page, style: string): Promise<string> {
  await showInPlayground(page, key, style);
  return playgroundIdleStatus(page, IDLE_TIMEOUT_MS);
}

/**
 * The style in one page at every view, in turn: the first from the page's URL, the others by the
 * URL's `map=` part, which the map follows (one page: software WebGL compiles its shaders per page).
 */
async function renderViews(t: ExecutionContext, browser: Browser, style: string): Promise<void> {
  const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const failures: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const refused = policyViolations(page);
  page.on('response', (response) => {
    if (MAP_ASSET.test(response.url()) && !TERRAIN_PROBE.test(response.url()) && response.status() !== 200)
      failures.push(`${response.status()} ${response.url()}`);
  });
  try {
    const first = VIEWS[0]!;
    await page.goto(`${server!.url}/dashboard/#playground&map=${first.position}`);
    for (const view of VIEWS) {
      const statusText =
        view === first
          ? await showMap(page, style)
          : await playgroundIdleAfter(
              page,
              () => page.evaluate(`location.hash = ${JSON.stringify(`#playground&map=${view.position}`)}`),
              IDLE_TIMEOUT_MS,
            );
      t.true(page.url().includes(`map=${view.position}`), `${style} ${view.name}: the map is at ${page.url()}`);
      const png = await page.locator('#playground-map').screenshot();
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `${style}-${view.name}.png`), png);
      const variety = await colourVariety(png);
      t.regex(statusText, /^Showing/, `${style} ${view.name}: ${statusText}`);
      t.true(variety.colours >= 4 && variety.nonDominantShare > 0.02, `${style} ${view.name} looks blank: ${JSON.stringify(variety)}`);
    }
    t.deepEqual(failures, [], `${style}: map requests not answered 200`);
    t.deepEqual(errors, [], `${style}: page errors`);
    t.deepEqual(refused, [], `${style}: refused by the Content-Security-Policy`);
  } finally {
    await context.close();
  }
}

for (const style of STYLES) {
  const title = `the ${style.slug} style renders Monaco at z15 and the world at z2 in MapLibre GL JS`;
  if (!existsSync(MONACO)) dataTest(title, [MONACO], () => {});
  else {
    browserTest(title, async (t, browser) => {
      t.timeout(360_000);
      await renderViews(t, browser, style.slug);
    });
  }
}

const OPENS_AT_CENTRE = "without a position in its URL the playground opens at the style's view, wholly inside the dataset's bounds";
if (!existsSync(MONACO)) dataTest(OPENS_AT_CENTRE, [MONACO], () => {});
else {
  browserTest(OPENS_AT_CENTRE, async (t, browser) => {
    t.timeout(180_000);
    const styleUrl = `${server!.url}/api/v1/styles/${STYLES[0]!.slug}/style.json?key=${key}`;
    const style = (await (await fetch(styleUrl)).json()) as { center: [number, number]; zoom: number };
    const { bounds } = JSON.parse(readFileSync(paths.manifest(paths.current(dataDir)), 'utf8')) as DatasetManifest;
    const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/dashboard/#playground`);
      t.regex(await showMap(page, STYLES[0]!.slug), /^Showing/);
      // MapLibre writes the position it shows into the URL: `map=zoom/latitude/longitude`.
      const position = /map=([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec(page.url());
      t.truthy(position, page.url());
      const [shownZoom, shownLatitude, shownLongitude] = position!.slice(1).map(Number) as [number, number, number];
      t.is(shownZoom, style.zoom);
      t.true(
        Math.abs(shownLatitude - style.center[1]) < 0.001 && Math.abs(shownLongitude - style.center[0]) < 0.001,
        `shown at ${position![0]}, the style's centre ${style.center.join(', ')}`,
      );
      // The bounds' corners lie at or beyond the map's: no coarse world coastline, and no seam at the box's edge, is in view.
      const { width, height } = (await page.locator('#playground-map').boundingBox())!;
      const southWest = pixelOf([bounds[0], bounds[1]], [shownLongitude, shownLatitude], shownZoom, width, height);
      const northEast = pixelOf([bounds[2], bounds[3]], [shownLongitude, shownLatitude], shownZoom, width, height);
      t.true(southWest.x <= 0.5 && southWest.y >= height - 0.5, `south-west corner at ${JSON.stringify(southWest)} of ${width}×${height}`);
      t.true(northEast.x >= width - 0.5 && northEast.y <= 0.5, `north-east corner at ${JSON.stringify(northEast)} of ${width}×${height}`);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, 'playground-opens-at-centre.png'), await page.locator('#playground-map').screenshot());
    } finally {
      await context.close();
    }
  });
}

const STATIC_MAP = 'the playground shows a static map of the current view, with its URL to copy';
if (!existsSync(MONACO)) dataTest(STATIC_MAP, [MONACO], () => {});
else {
  browserTest(STATIC_MAP, async (t, browser) => {
    t.timeout(240_000);
    const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/dashboard/#playground&map=15/43.7384/7.4246`);
      t.regex(await showMap(page, 'dark'), /^Showing/);
      await page.getByRole('button', { name: 'Static map of this view' }).click();
      const image = page.locator('#playground-static-image');
      await image.waitFor({ state: 'visible', timeout: 120_000 });
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#playground-static-image').naturalWidth > 0);
      const url = new URL(await page.locator('#playground-static .secret-value').innerText());
      t.is(url.pathname, '/api/v1/staticmap');
      t.is(url.searchParams.get('style'), 'dark');
      t.is(url.searchParams.get('key'), key);
      t.is(url.searchParams.get('zoom'), '15.00');
      t.is(url.searchParams.get('center'), '43.73840,7.42460');
      // The URL alone gives the same picture: it is what a page would put in an <img>.
      const direct = await fetch(url);
      t.is(direct.status, 200);
      t.is(direct.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await direct.arrayBuffer());
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, 'playground-static-map.png'), png);
      const variety = await colourVariety(png);
      t.true(variety.colours >= 4 && variety.nonDominantShare > 0.02, `static map looks blank: ${JSON.stringify(variety)}`);
    } finally {
      await context.close();
    }
  });
}

dataTest('the style list names every style the browser tests render', [MONACO], async (t) => {
  const res = await fetch(`${server!.url}/api/v1/styles?key=${key}`);
  const { styles } = (await res.json()) as { styles: { slug: string }[] };
  t.deepEqual(
    styles.map((s) => s.slug),
    STYLES.map((s) => s.slug),
  );
});

/*
 * The world backdrop around Monaco's extract (its box: 7.349–7.491 E, 43.71–43.77 N). The points lie
 * outside the box, away from its edge and its corners.
 */
const OPEN_SEA: [number, number] = [7.42, 43.68];
const SEA_EAST: [number, number] = [7.55, 43.72];
const INLAND: [number, number] = [7.0, 44.3];
const LAND_WEST: [number, number] = [7.3, 43.8];
const INSIDE_MONACO: [number, number] = [7.42, 43.735];
/** The light style's sea and land (its background) colours. */
const SEA_COLOUR: [number, number, number] = [191, 217, 242];
const LAND_COLOUR: [number, number, number] = [248, 244, 240];

async function servedTile(z: number, x: number, y: number): Promise<Response> {
  return fetch(`${server!.url}/api/v1/tiles/${TILESET_ID}/${z}/${x}/${y}.pbf?key=${key}`, { headers: { 'accept-encoding': 'gzip' } });
}

async function vectorTileAt([lon, lat]: [number, number], z: number) {
  const at = tileAt(lon, lat, z);
  const res = await servedTile(at.z, at.x, at.y);
  return { at, tile: decodeTile(Buffer.from(await res.arrayBuffer())) };
}

/** Whether a fill feature of the layer covers the point (each feature on its own: the backdrop's pieces may overlap). */
async function covered(point: [number, number], z: number, layer: string): Promise<boolean> {
  const { at, tile } = await vectorTileAt(point, z);
  return featuresOf(tile, layer).some((feature) => polygonsCover([feature], at.px, at.py));
}

dataTest(
  'beyond zoom 7, vector tiles outside the extract carry the world: sea off Monaco, land, borders and places inland',
  [MONACO],
  async (t) => {
    for (let z = 10; z <= 14; z++) {
      t.true(await covered(OPEN_SEA, z, 'ocean'), `open sea south of Monaco at z${z}`);
      t.true(await covered(SEA_EAST, z, 'ocean'), `open sea off Menton at z${z}`);
      t.false(await covered(INLAND, z, 'ocean'), `inland France at z${z}`);
    }
    const { at, tile } = await vectorTileAt([7.6, 44.1], 10);
    t.true(featuresOf(tile, 'place_labels').length > 0, 'places inland at z10');
    // A vertex of the French–Italian border, followed down to z14.
    const border = featuresOf(tile, 'boundaries').find((feature) => feature.properties.admin_level === 2);
    t.truthy(border, 'the border at z10');
    const line = border!.toGeoJSON(at.x, at.y, at.z).geometry as GeoJSON.LineString | GeoJSON.MultiLineString;
    const vertices = (line.type === 'LineString' ? [line.coordinates] : line.coordinates).flat();
    const vertex = vertices[Math.floor(vertices.length / 2)]! as [number, number];
    for (let z = 11; z <= 14; z++) {
      t.true(featuresOf((await vectorTileAt(vertex, z)).tile, 'boundaries').length > 0, `the border at ${vertex.join(', ')} at z${z}`);
    }
  },
);

dataTest('tiles inside the extract and up to zoom 7 are served as stored', [MONACO], async (t) => {
  const archive = new MbtilesReader(paths.tiles(paths.current(dataDir)));
  try {
    for (const z of [5, 7, 14]) {
      const { x, y } = tileAt(INSIDE_MONACO[0], INSIDE_MONACO[1], z);
      if (z === 14) t.truthy(archive.tile(z, x, y), `a stored tile at z${z}`);
      const stored = archive.tile(z, x, y)!;
      const res = await servedTile(z, x, y);
      t.is(res.headers.get('etag'), `"${stored.id}"`, `z${z}`);
      t.deepEqual(decodeTile(Buffer.from(await res.arrayBuffer())).layers, decodeTile(stored.data).layers, `z${z}`);
    }
  } finally {
    archive.close();
  }
});

/** The RGBA pixels of a PNG. */
async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: context.getImageData(0, 0, image.width, image.height).data };
}

/** Share of the 9 × 9 pixels around (x, y) within a few levels of a colour (a label may cross some). */
function shareOfColour(
  picture: { width: number; data: Uint8ClampedArray },
  x: number,
  y: number,
  [r, g, b]: [number, number, number],
): number {
  let matching = 0;
  for (let dy = -4; dy <= 4; dy++) {
    for (let dx = -4; dx <= 4; dx++) {
      const i = ((Math.round(y) + dy) * picture.width + Math.round(x) + dx) * 4;
      const close =
        Math.abs(picture.data[i]! - r) <= 6 && Math.abs(picture.data[i + 1]! - g) <= 6 && Math.abs(picture.data[i + 2]! - b) <= 6;
      if (close) matching++;
    }
  }
  return matching / 81;
}

const worldPixels = (zoom: number) => 512 * 2 ** zoom;
const mercatorX = (lon: number) => (lon + 180) / 360;
const mercatorY = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
};
/** Where a point is drawn in a picture of `width` × `height` centred on `center` at `zoom` (MapLibre's zoom, 512-px world). */
function pixelOf([lon, lat]: [number, number], [centerLon, centerLat]: [number, number], zoom: number, width: number, height: number) {
  return {
    x: width / 2 + (mercatorX(lon) - mercatorX(centerLon)) * worldPixels(zoom),
    y: height / 2 + (mercatorY(lat) - mercatorY(centerLat)) * worldPixels(zoom),
  };
}

/** A picture of Monaco at zoom 11 centred on `center` shows the sea off the coast and the land inland in their colours, outside the extract. */
async function expectSeaAndLand(t: ExecutionContext, png: Buffer, center: [number, number], what: string): Promise<void> {
  const picture = await pixels(png);
  for (const [point, colour, where] of [
    [OPEN_SEA, SEA_COLOUR, 'open sea'],
    [SEA_EAST, SEA_COLOUR, 'sea off Menton'],
    [LAND_WEST, LAND_COLOUR, 'the hills above Nice'],
  ] as const) {
    const { x, y } = pixelOf(point, center, 11, picture.width, picture.height);
    const share = shareOfColour(picture, x, y, colour);
    t.true(share > 0.5, `${what}: ${where} in its colour at (${Math.round(x)}, ${Math.round(y)}): ${share}`);
  }
}

dataTest('raster tiles and static maps outside the extract draw the sea in sea colour and the land in land colour', [MONACO], async (t) => {
  for (const [point, colour, what] of [
    [OPEN_SEA, SEA_COLOUR, 'open sea'],
    [INLAND, LAND_COLOUR, 'inland France'],
  ] as const) {
    // A 256-px raster tile z/x/y is tile z drawn at zoom z − 1.
    const at = tileAt(point[0], point[1], 11);
    const res = await fetch(`${server!.url}/api/v1/styles/light/tiles/11/${at.x}/${at.y}.png?key=${key}`);
    t.is(res.status, 200);
    const picture = await pixels(Buffer.from(await res.arrayBuffer()));
    const share = shareOfColour(picture, (at.px / 4096) * 256, (at.py / 4096) * 256, colour);
    t.true(share > 0.5, `raster tile: ${what} in its colour (${share})`);
  }
  const center: [number, number] = [7.4246, 43.7384];
  const res = await fetch(`${server!.url}/api/v1/staticmap?key=${key}&style=light&center=${center[1]},${center[0]}&zoom=11&size=800x600`);
  t.is(res.status, 200);
  const png = Buffer.from(await res.arrayBuffer());
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'world-backdrop-static-z11.png'), png);
  await expectSeaAndLand(t, png, center, 'static map');

  // At zoom 10 the world's sea meets the extract's box in open sea: the pieces around the box and
  // the extract's own sea must fill as one sea (they once cancelled out where two pieces of opposite
  // winding overlapped, leaving a land-coloured block south-east of the box).
  const z10 = await fetch(`${server!.url}/api/v1/staticmap?key=${key}&style=light&center=43.70,7.42&zoom=10&size=600x400`);
  t.is(z10.status, 200);
  const picture = await pixels(Buffer.from(await z10.arrayBuffer()));
  t.true(shareOfColour(picture, 500, 300, SEA_COLOUR) > 0.5, 'zoom 10: the sea south-east of the box is sea');
  // The box's south edge crosses the open sea around y = 180 between x = 245 and 400.
  for (let x = 260; x <= 380; x += 10) {
    for (const y of [172, 180, 188]) t.is(shareOfColour(picture, x, y, SEA_COLOUR), 1, `zoom 10: no seam along the box at (${x}, ${y})`);
  }
});

/**
 * Straight lines of a faint other colour across the sea: rows (and columns) where at least 50
 * pixels differ from the sea colour by a little while the pixels two above and below (left and
 * right) are sea. A coast's detail never lines up so; a seam between two fills does.
 */
function seamsInSea(picture: { width: number; height: number; data: Uint8ClampedArray }): string[] {
  const [r, g, b] = SEA_COLOUR;
  const at = (x: number, y: number) => (y * picture.width + x) * 4;
  const isSea = (i: number) => picture.data[i] === r && picture.data[i + 1] === g && picture.data[i + 2] === b;
  const faint = (i: number) =>
    !isSea(i) && Math.abs(picture.data[i]! - r) + Math.abs(picture.data[i + 1]! - g) + Math.abs(picture.data[i + 2]! - b) < 60;
  const rows = new Map<number, number>();
  const columns = new Map<number, number>();
  for (let y = 2; y < picture.height - 2; y++) {
    for (let x = 2; x < picture.width - 2; x++) {
      if (!faint(at(x, y))) continue;
      if (isSea(at(x, y - 2)) && isSea(at(x, y + 2))) rows.set(y, (rows.get(y) ?? 0) + 1);
      if (isSea(at(x - 2, y)) && isSea(at(x + 2, y))) columns.set(x, (columns.get(x) ?? 0) + 1);
    }
  }
  const lines = (kind: string, counts: Map<number, number>) =>
    [...counts].filter(([, count]) => count >= 50).map(([line, count]) => `${kind} ${line} (${count} px)`);
  return [...lines('row', rows), ...lines('column', columns)];
}

dataTest(
  "static maps draw the open sea without a seam: across the tiles' edges and the world sea's pieces around the extract",
  [MONACO],
  async (t) => {
    // Zoom 12: the edges of zoom-12 tiles cross the sea south of Monaco at row 238 and columns 183 and
    // 695, once each a line of 20 % land colour (each tile's clip anti-aliased inside one pixel).
    // Zoom 10: the world's sea north of the box's top edge (row 159) once showed its edge east of the box.
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const view of ['center=43.70,7.42&zoom=12', 'center=43.70,7.42&zoom=10']) {
      const res = await fetch(`${server!.url}/api/v1/staticmap?key=${key}&style=light&${view}&size=800x600`);
      t.is(res.status, 200);
      const png = Buffer.from(await res.arrayBuffer());
      writeFileSync(join(ARTIFACTS, `sea-without-seams-${view.replace(/\W+/g, '-')}.png`), png);
      t.deepEqual(seamsInSea(await pixels(png)), [], view);
    }
  },
);

const WORLD_AT_Z11 = 'MapLibre draws the sea around Monaco at zoom 11 where the extract ends, not the land colour';
if (!existsSync(MONACO)) dataTest(WORLD_AT_Z11, [MONACO], () => {});
else {
  browserTest(WORLD_AT_Z11, async (t, browser) => {
    t.timeout(240_000);
    const center: [number, number] = [7.4246, 43.7384];
    const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/dashboard/#playground&map=11/${center[1]}/${center[0]}`);
      t.regex(await showMap(page, 'light'), /^Showing/);
      const png = await page.locator('#playground-map').screenshot();
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, 'world-backdrop-maplibre-z11.png'), png);
      await expectSeaAndLand(t, png, center, 'MapLibre');
    } finally {
      await context.close();
    }
  });
}
