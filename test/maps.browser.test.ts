/**
 * The maps product in a real browser: MapLibre GL JS in headless Chromium, driven through the
 * dashboard's map playground with a key of the account, loads every style from the running server
 * and renders Monaco at zoom 15 and the world at zoom 2 — with no error event, every tile, glyph
 * and sprite request answered 200, and a picture that is not blank; with no position in its URL,
 * the playground opens where the dataset's TileJSON centre is. Screenshots go to test-artifacts/maps/.
 */
import type { ExecutionContext } from 'ava';
import test from 'ava';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TILESET_ID } from '../core/dataset-layout.js';
import { runImport } from '../data-pipeline/index.js';
import { STYLES } from '../core/maps/style-catalog.js';
import { browserTest, signedInContext } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'maps');
const VIEWS = [
  { name: 'monaco-z15', position: '15/43.7384/7.4246' },
  { name: 'world-z2', position: '2/30/10' },
];
/** Requests the map makes to Waymark's maps API, whose every answer must be 200. */
const MAP_ASSET = /\/api\/v1\/(tiles|fonts|sprites)\//;

let server: TestServer | undefined;
let key = '';
let sessionCookie = '';
let dataDir = '';

test.before(async () => {
  if (!existsSync(MONACO)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-browser-'));
  await runImport({ dataDir, osm: [MONACO], world: true }, () => {});
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'enterprise');
  key = (await server.createKey(account, { name: 'playground', scopes: ['maps'] })).value;
  sessionCookie = account.cookie;
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

/** Shows the style in the playground with the account's key; the status once the map is idle (or failed). */
async function showMap(page: Page, style: string): Promise<string> {
  await page.locator('#playground-key').fill(key);
  await page.locator('#playground-key').press('Tab'); // a changed key fills the style menu
  await page.locator(`#playground-style option[value="${style}"]`).waitFor({ state: 'attached' });
  await page.locator('#playground-style').selectOption(style);
  await page.getByRole('button', { name: 'Show map' }).click();
  const status = page.locator('#playground-status');
  // Software rendering on a busy 2-core machine can be slow; the status says when the map is idle.
  await status.filter({ hasText: /^(Showing|Map error)/ }).waitFor({ timeout: 150_000 });
  return status.innerText();
}

async function renderView(t: ExecutionContext, browser: Browser, style: string, view: (typeof VIEWS)[number]): Promise<void> {
  const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const failures: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (MAP_ASSET.test(response.url()) && response.status() !== 200) failures.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(`${server!.url}/dashboard/#playground&map=${view.position}`);
    const statusText = await showMap(page, style);
    const png = await page.locator('#playground-map').screenshot();
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `${style}-${view.name}.png`), png);
    const variety = await colourVariety(png);
    t.regex(statusText, /^Showing/, `${style} ${view.name}: ${statusText}`);
    t.true(variety.colours >= 4 && variety.nonDominantShare > 0.02, `${style} ${view.name} looks blank: ${JSON.stringify(variety)}`);
    t.deepEqual(failures, [], `${style} ${view.name}: map requests not answered 200`);
    t.deepEqual(errors, [], `${style} ${view.name}: page errors`);
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
      for (const view of VIEWS) await renderView(t, browser, style.slug, view);
    });
  }
}

const OPENS_AT_CENTRE = "without a position in its URL the playground opens at the dataset's TileJSON centre";
if (!existsSync(MONACO)) dataTest(OPENS_AT_CENTRE, [MONACO], () => {});
else {
  browserTest(OPENS_AT_CENTRE, async (t, browser) => {
    t.timeout(180_000);
    const tileJson = await fetch(`${server!.url}/api/v1/tiles/${TILESET_ID}.json?key=${key}`);
    const { center } = (await tileJson.json()) as { center: [number, number, number] };
    const [longitude, latitude, zoom] = center;
    const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/dashboard/#playground`);
      t.regex(await showMap(page, STYLES[0]!.slug), /^Showing/);
      // MapLibre writes the position it shows into the URL: `map=zoom/latitude/longitude`.
      const position = /map=([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec(page.url());
      t.truthy(position, page.url());
      const [shownZoom, shownLatitude, shownLongitude] = position!.slice(1).map(Number) as [number, number, number];
      t.is(shownZoom, zoom);
      t.true(
        Math.abs(shownLatitude - latitude) < 0.001 && Math.abs(shownLongitude - longitude) < 0.001,
        `shown at ${position![0]}, centre ${center.join(', ')}`,
      );
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
      await page.waitForFunction("document.querySelector('#playground-static-image').naturalWidth > 0");
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
