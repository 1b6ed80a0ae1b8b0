/**
 * Terrain in a real browser (issue 28): MapLibre GL JS in headless Chromium, through the dashboard's
 * map playground, renders the `outdoors` style (hillshade, contours and their labels) and `natural`
 * (hillshade) over Monaco imported with its SRTM tile, in 2D and, for `outdoors`, in 3D with the
 * playground's terrain toggle (`map.setTerrain` on the style's raster-dem source): the map reaches
 * `idle`, with no error in the console or the page and every maps API request answered 200 —
 * terrain and contour tiles among them. Screenshots go to test-artifacts/terrain/.
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { runImport } from '../data-pipeline/index.js';
import {
  browserTest,
  playgroundAccount,
  playgroundIdleAfter,
  playgroundIdleStatus,
  showInPlayground,
  signedInContext,
} from './helpers/browser.js';
import { MONACO_DEM } from './helpers/dem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const INPUTS = [MONACO, MONACO_DEM];
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'terrain');
/** The hills above Monaco, where contours are dense. */
const VIEW = '13/43.745/7.42';
/** How long the page may take to settle or answer an action; playwright's default is 30 s. */
const PAGE_TIMEOUT_MS = 240_000;
const THREE_D_VIEWPORT = { width: 400, height: 300 };
const MAP_ASSET = /\/api\/v1\/(tiles|fonts|sprites)\//;

let server: TestServer | undefined;
let key = '';
let sessionCookie = '';
let dataDir = '';

test.before(async () => {
  if (!INPUTS.every((file) => existsSync(file))) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-terrain-browser-'));
  await runImport({ dataDir, osm: [MONACO], dem: [MONACO_DEM], world: false }, () => {});
  server = await startTestServer({ dataDir });
  ({ key, cookie: sessionCookie } = await playgroundAccount(server));
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function showStyle(t: ExecutionContext, browser: Browser, style: string, threeD: boolean): Promise<void> {
  const context = await signedInContext(browser, server!.url, sessionCookie, { viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  // On a loaded machine software WebGL holds the page's thread for seconds a frame, and every
  // action waits for it (a click on the 3D toggle is done only once the page says it is checked).
  page.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const problems: string[] = [];
  const answered: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (!MAP_ASSET.test(response.url())) return;
    answered.push(new URL(response.url()).pathname);
    if (response.status() !== 200) problems.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(`${server!.url}/dashboard/#playground&map=${VIEW}`);
    await showInPlayground(page, key, style);
    t.regex(await playgroundIdleStatus(page), /^Showing/, `${style} 2D`);
    t.true(
      answered.some((path) => path.startsWith('/api/v1/tiles/terrain/')),
      `${style}: terrain tiles loaded for the hillshade`,
    );
    if (style === 'outdoors')
      t.true(
        answered.some((path) => path.startsWith('/api/v1/tiles/contours/')),
        'contour tiles loaded',
      );
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `${style}-2d.png`), await page.locator('#playground-map').screenshot());
    if (threeD) {
      const toggle = page.locator('#playground-terrain');
      t.true(await toggle.isEnabled(), 'the style has a terrain source: the 3D toggle is offered');
      // Software WebGL draws a frame of 3D terrain in seconds (each tile's layers are drawn into a
      // texture first), so the 3D map is drawn smaller: at 400×300 the file takes a third less CPU.
      t.regex(await playgroundIdleAfter(page, () => page.setViewportSize(THREE_D_VIEWPORT)), /^Showing/, `${style} 2D, resized`);
      t.regex(await playgroundIdleAfter(page, () => toggle.check()), /^Showing/, `${style} 3D`);
      // MapLibre writes bearing and pitch into the URL once the map is tilted: `map=zoom/lat/lon/bearing/pitch`.
      t.regex(page.url(), /map=[\d.]+\/[\d.]+\/[\d.]+\/-?[\d.]+\/60$/, 'the map is tilted for the terrain');
      writeFileSync(join(ARTIFACTS, `${style}-3d.png`), await page.locator('#playground-map').screenshot());
    }
    t.deepEqual(problems, [], `${style}${threeD ? ' 2D and 3D' : ''}`);
  } finally {
    await context.close();
  }
}

for (const [style, threeD] of [
  ['outdoors', true],
  ['natural', false],
] as const) {
  const title = `the ${style} style renders Monaco with its DEM in MapLibre GL JS${threeD ? ', in 2D and in 3D' : ''}, without errors`;
  if (!INPUTS.every((file) => existsSync(file))) dataTest(title, INPUTS, () => {});
  else {
    browserTest(title, async (t, browser) => {
      t.timeout(600_000);
      await showStyle(t, browser, style, threeD);
    });
  }
}
