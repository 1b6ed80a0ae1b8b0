// Leaflet Routing Machine in headless Chromium, configured only with Waymark's OSRM route service URL
// and a key as a request parameter: it routes between two Monaco points through
// /api/v1/osrm/route/v1 and shows the itinerary (a list of instructions), with no console error and
// every request answered. Moving a waypoint routes again with the hint of the one kept (LRM sends
// OSRM's hints back), and that answer is the same as without hints. Leaflet and the plugin come from
// node_modules, served to the page by the browser's request routing (no CDN).
import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserTest } from './helpers/browser.js';
import { leafletPage, packageDist, routePackagePage } from './helpers/package-page.js';
import { writeRoutingDataset } from './helpers/routing.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
/** Where the page is served on the API's origin (helpers/package-page.ts). */
const PAGE_PATH = '/osrm-test-page';
const PACKAGES = { leaflet: packageDist('leaflet'), lrm: packageDist('leaflet-routing-machine') };

let server: TestServer | undefined;
let key = '';
let dataDir = '';

test.before(async () => {
  if (!existsSync(MONACO)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-osrm-browser-'));
  await writeRoutingDataset(dataDir, [MONACO], ['driving'], [7.4, 43.72, 7.44, 43.76]);
  server = await startTestServer({ dataDir });
  key = (await server.createKey(await server.signUp(), { scopes: ['routing'] })).value;
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type LatLng = [number, number];
/** The casino and Fontvieille. */
const CASINO_TO_FONTVIEILLE: LatLng[] = [
  [43.7394, 7.4276],
  [43.7302, 7.4154],
];

/** A page whose LRM control routes between `waypoints`, its OSRM router given `requestParameters` (the key, and more). */
function pageHtml(serviceUrl: string, requestParameters: Record<string, string>, waypoints = CASINO_TO_FONTVIEILLE): string {
  return leafletPage(
    'Routing',
    { css: 'lrm/leaflet-routing-machine.css', js: 'lrm/leaflet-routing-machine.js' },
    `
  const map = L.map('map').setView([43.735, 7.42], 14);
  window.routesFound = [];
  window.control = L.Routing.control({
    waypoints: ${JSON.stringify(waypoints)}.map(([lat, lng]) => L.latLng(lat, lng)),
    router: L.Routing.osrmv1({ serviceUrl: ${JSON.stringify(serviceUrl)}, requestParameters: ${JSON.stringify(requestParameters)} }),
  }).on('routesfound', (e) => window.routesFound.push(e.routes.map((r) => ({ distance: r.summary.totalDistance, instructions: r.instructions.length }))))
    .on('routingerror', (e) => console.error('routing error: ' + JSON.stringify(e.error)))
    .addTo(map);
`,
  );
}

browserTest(
  'Leaflet Routing Machine routes between two Monaco points through the OSRM route service and lists the itinerary',
  async (t, browser) => {
    if (server === undefined) return t.fail(`test data missing: ${MONACO}`);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    const apiCalls: string[] = [];
    const apiUrls: URL[] = [];
    page.on('response', (response) => {
      if (response.status() !== 200) problems.push(`${response.status()}: ${response.url()}`);
      if (response.url().startsWith(server!.url) && !response.url().includes(PAGE_PATH)) {
        apiCalls.push(new URL(response.url()).pathname);
        apiUrls.push(new URL(response.url()));
      }
    });
    await page.goto(
      await routePackagePage(page, server.url, PAGE_PATH, pageHtml(`${server!.url}/api/v1/osrm/route/v1`, { key }), PACKAGES),
    );

    // The itinerary: a table of instructions, one row each, ending with the arrival.
    const rows = page.locator('.leaflet-routing-container .leaflet-routing-alt table tr');
    await rows.first().waitFor({ timeout: 30_000 });
    const instructions = await rows.allInnerTexts();
    t.true(instructions.length >= 3, instructions.join(' | '));
    t.regex(instructions[0]!, /Head/);
    t.regex(instructions[instructions.length - 1]!, /You have arrived/);
    const summary = await page.locator('.leaflet-routing-alt h3').first().innerText();
    t.regex(summary, /\d+(\.\d+)? km|\d+ m/);
    const found = await page.evaluate(
      () => (globalThis as unknown as { routesFound: { distance: number; instructions: number }[][] }).routesFound,
    );
    t.true(found.length >= 1 && found[0]![0]!.distance > 1000 && found[0]![0]!.distance < 5000, JSON.stringify(found));
    t.true(apiCalls.length >= 1 && apiCalls.every((path) => path.startsWith('/api/v1/osrm/route/v1/driving/')), apiCalls.join(', '));
    // The route line is drawn.
    t.true((await page.locator('path.leaflet-interactive').count()) >= 1);
    // The destination moved to the Larvotto beach: the casino's hint from the first answer goes back with the new request.
    await page.evaluate(() => {
      const { control, L } = globalThis as any;
      control.spliceWaypoints(1, 1, L.latLng(43.7445, 7.4357));
    });
    await page.waitForFunction(() => (globalThis as any).routesFound.length >= 2, undefined, { timeout: 30_000 });
    const again = apiUrls[apiUrls.length - 1]!;
    const [casinoHint, larvottoHint] = (again.searchParams.get('hints') ?? '').split(';');
    t.true((casinoHint ?? '').length > 0 && larvottoHint === '', again.search);
    const hinted = await (await fetch(again)).json();
    again.searchParams.set('hints', ';');
    t.deepEqual(hinted, await (await fetch(again)).json());
    t.deepEqual(problems, []);
    await page.close();
  },
);

/** Above Monaco to Fontvieille: the fastest way takes the A500 and the A8 (motorways), the way without them the town's streets. */
const ABOVE_MONACO_TO_FONTVIEILLE: LatLng[] = [
  [43.75283, 7.40358],
  [43.72466, 7.40216],
];

browserTest(
  "Leaflet Routing Machine given exclude=motorway through its router's requestParameters shows the route that avoids motorways",
  async (t, browser) => {
    if (server === undefined) return t.fail(`test data missing: ${MONACO}`);
    const coordinates = ABOVE_MONACO_TO_FONTVIEILLE.map(([lat, lng]) => `${lng},${lat}`).join(';');
    const osrm = async (query: string) => {
      const response = await fetch(`${server!.url}/api/v1/osrm/route/v1/driving/${coordinates}?key=${key}${query}`);
      t.is(response.status, 200);
      return ((await response.json()) as { routes: { distance: number }[] }).routes[0]!.distance;
    };
    const [plain, avoiding] = [await osrm(''), await osrm('&exclude=motorway')];
    t.true(avoiding > plain + 500, `without motorways ${avoiding} m, with them ${plain} m`);

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const apiCalls: string[] = [];
    page.on('response', (response) => {
      if (response.status() !== 200) problems.push(`${response.status()}: ${response.url()}`);
      if (response.url().startsWith(server!.url) && !response.url().includes(PAGE_PATH)) apiCalls.push(response.url());
    });
    const html = pageHtml(`${server.url}/api/v1/osrm/route/v1`, { key, exclude: 'motorway' }, ABOVE_MONACO_TO_FONTVIEILLE);
    await page.goto(await routePackagePage(page, server.url, PAGE_PATH, html, PACKAGES));
    await page.locator('.leaflet-routing-container .leaflet-routing-alt table tr').first().waitFor({ timeout: 30_000 });
    const found = await page.evaluate(
      () => (globalThis as unknown as { routesFound: { distance: number; instructions: number }[][] }).routesFound,
    );
    t.true(apiCalls.length >= 1 && apiCalls.every((url) => new URL(url).searchParams.get('exclude') === 'motorway'), apiCalls.join(', '));
    // LRM shows the route without motorways (OSRM's distance, as LRM sums it from the legs).
    t.true(Math.abs(found[0]![0]!.distance - avoiding) < 1, `LRM shows ${found[0]![0]!.distance} m; without motorways ${avoiding} m`);
    t.deepEqual(problems, []);
    await page.close();
  },
);
