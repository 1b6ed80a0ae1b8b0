// leaflet-control-geocoder's Pelias geocoder in headless Chromium, configured only with Waymark's
// geocoding base URL and a key: it finds a Monaco address through /search and shows it on the map
// as a marker with its label, with no console error and every request answered. Leaflet and the plugin come from
// node_modules, served to the page by the browser's request routing (no CDN).
import test from 'ava';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { paths } from '../core/dataset-layout.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { browserTest } from './helpers/browser.js';
import { leafletPage, packageDist, routePackagePage } from './helpers/package-page.js';
import { writeTestDataset } from './helpers/dataset.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const WOF_MC = sharedFile('wof', 'mc');
/** Where the page is served on the API's origin (helpers/package-page.ts). */
const PAGE_PATH = '/geocoder-test-page';
const PACKAGES = { leaflet: packageDist('leaflet'), geocoder: packageDist('leaflet-control-geocoder') };

let server: TestServer | undefined;
let key = '';
let dataDir = '';

test.before(async () => {
  if (!existsSync(MONACO) || !existsSync(WOF_MC)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-geocoder-browser-'));
  const dataset = await writeTestDataset(dataDir);
  await buildGeocoderIndex({ osmFiles: [MONACO], wofDirs: [WOF_MC], oaFiles: [], geonames: false }, paths.geocoder(dataset.dir), () => {});
  writeFileSync(paths.manifest(dataset.dir), JSON.stringify({ ...dataset.manifest, inputs: ['osm:monaco.osm.pbf', 'wof:mc'] }));
  server = await startTestServer({ dataDir });
  key = (await server.createKey(await server.signUp(), { scopes: ['geocoding'] })).value;
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function pageHtml(serviceUrl: string, apiKey: string): string {
  return leafletPage(
    'Geocoder',
    { css: 'geocoder/Control.Geocoder.css', js: 'geocoder/Control.Geocoder.js' },
    `
  const map = L.map('map').setView([43.7384, 7.4246], 13);
  // The gateway takes the key as \`key\`; the plugin's apiKey option would send it as api_key.
  const geocoder = L.Control.Geocoder.pelias({ serviceUrl: ${JSON.stringify(serviceUrl)}, geocodingQueryParams: { key: ${JSON.stringify(apiKey)} } });
  L.Control.geocoder({ geocoder, collapsed: false, suggestMinLength: 100 }).addTo(map);
  window.testMap = map;
`,
  );
}

/** The markers on the map: position and popup text. */
const markers = (page: Page) =>
  page.evaluate(() => {
    const found: { lat: number; lng: number; popup: string }[] = [];
    (globalThis as unknown as { testMap: { eachLayer(f: (layer: any) => void): void } }).testMap.eachLayer((layer) => {
      if (typeof layer.getLatLng === 'function' && layer.getIcon !== undefined) {
        const { lat, lng } = layer.getLatLng();
        found.push({ lat, lng, popup: String(layer.getPopup()?.getContent() ?? '') });
      }
    });
    return found;
  });

browserTest("leaflet-control-geocoder's Pelias geocoder finds a Monaco address and marks it on the map", async (t, browser) => {
  if (server === undefined) return t.fail(`test data missing: ${MONACO}, ${WOF_MC}`);
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  const apiCalls: string[] = [];
  page.on('response', (response) => {
    if (response.status() !== 200) problems.push(`${response.status()}: ${response.url()}`);
    if (response.url().startsWith(server!.url)) apiCalls.push(new URL(response.url()).pathname);
  });
  await page.goto(await routePackagePage(page, server.url, PAGE_PATH, pageHtml(`${server!.url}/api/v1/geocoding`, key), PACKAGES));

  const input = page.locator('.leaflet-control-geocoder-form input');
  await input.fill('7 Rue du Gabian, Monaco');
  await input.press('Enter');
  // One result is marked at once; several are listed first, and the best is picked from the list.
  const firstAlternative = page.locator('.leaflet-control-geocoder-alternatives li').first();
  await Promise.race([page.locator('.leaflet-marker-icon').waitFor(), firstAlternative.waitFor()]);
  if (await firstAlternative.isVisible()) {
    t.regex(await firstAlternative.innerText(), /7 Rue du Gabian/);
    await firstAlternative.click();
  }
  await page.locator('.leaflet-marker-icon').waitFor();
  const [marker, ...others] = await markers(page);
  t.is(others.length, 0);
  t.true(Math.abs(marker!.lat - 43.7295) < 0.0005 && Math.abs(marker!.lng - 7.4149) < 0.0005, `marker at ${marker!.lat},${marker!.lng}`);
  t.regex(marker!.popup, /7 Rue du Gabian, Fontvieille, Monaco/);
  t.true(await page.locator('.leaflet-popup-content').isVisible(), 'the popup with the label is open');
  t.true(apiCalls.includes('/api/v1/geocoding/search'), `the control asked Waymark's search: ${apiCalls.join(', ')}`);
  t.deepEqual(problems, []);
  await page.close();
});
