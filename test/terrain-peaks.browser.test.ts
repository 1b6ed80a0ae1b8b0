/**
 * Andorra imported with its SRTM tile, in MapLibre GL JS (headless Chromium): `outdoors` draws the
 * peaks with their elevation, the contour lines and the hillshade, and `natural` its hillshade,
 * reaching idle without an error; the server's raster rendering of the same view is compared with
 * MapLibre's (figures in docs/MAPS.md). Pictures go to test-artifacts/terrain/.
 */
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderJob } from '../workers/render/thread.js';
import { browserTest, playgroundAccount } from './helpers/browser.js';
import { ANDORRA_DEM, ANDORRA_OSM, importAndorraWithDem } from './helpers/dem.js';
import { comparePictures, maplibrePictures, pixelsOf, staticMapJob } from './helpers/maplibre-picture.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest } from './helpers/shared-data.js';

const INPUTS = [ANDORRA_OSM, ANDORRA_DEM];
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'terrain');
const SIZE = 512;
/** Around Pic de Comapedrosa (2,944 m), MapLibre's zoom 13: peaks, 20 m contours and deep relief. */
const VIEW = { center: [1.4437, 42.5918], zoom: 13 } as const;
/** As the raster comparison of the plain styles (test/raster-render.browser.test.ts), with room for the hillshade's filtering. */
const MAX_MEAN_DIFFERENCE = 0.05;

let server: TestServer | undefined;
let key = '';
let dataDir = '';
let datasetDir = '';

test.before(async () => {
  if (!INPUTS.every((file) => existsSync(file))) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-terrain-peaks-browser-'));
  datasetDir = await importAndorraWithDem(dataDir);
  server = await startTestServer({ dataDir });
  ({ key } = await playgroundAccount(server));
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const TITLE =
  'outdoors draws the peaks with their elevation, contours and hillshade over Andorra in MapLibre GL JS, as the raster renderer does';
if (!INPUTS.every((file) => existsSync(file))) dataTest(TITLE, INPUTS, () => {});
else {
  browserTest(TITLE, async (t, browser) => {
    t.timeout(600_000);
    mkdirSync(ARTIFACTS, { recursive: true });
    const measured: string[] = [];
    for (const slug of ['outdoors', 'natural']) {
      const style = (await (await fetch(`${server!.url}/api/v1/styles/${slug}/style.json?key=${key}`)).json()) as StyleSpecification;
      const layers = slug === 'outdoors' ? ['label-peak', 'contour-major', 'contour-label'] : [];
      const theirs = (await maplibrePictures(browser, server!.url, style, [VIEW], SIZE, layers))[0]!;
      t.deepEqual(theirs.problems, [], slug);
      if (slug === 'outdoors') {
        const peaks = theirs.rendered['label-peak']!;
        t.true(
          peaks.some((peak) => peak.name === 'Pic de Comapedrosa' && peak.ele === 2944),
          `peaks drawn: ${peaks.map((peak) => `${peak.name} ${peak.ele}`).join(', ')}`,
        );
        t.true(theirs.rendered['contour-major']!.length > 0, 'major contour lines drawn');
        t.true(theirs.rendered['contour-label']!.length > 0, 'contour labels drawn');
      }
      const job = staticMapJob(datasetDir, style, VIEW, SIZE);
      const ours = await renderJob(job);
      if (ours.kind !== 'static') return t.fail('expected a static answer');
      const { mean, picture } = comparePictures(await pixelsOf(ours.image), await pixelsOf(theirs.picture), SIZE);
      writeFileSync(join(ARTIFACTS, `andorra-${slug}-waymark.png`), ours.image);
      writeFileSync(join(ARTIFACTS, `andorra-${slug}-maplibre.png`), theirs.picture);
      writeFileSync(join(ARTIFACTS, `andorra-${slug}-difference.png`), picture);
      measured.push(`${slug}: ${(mean * 100).toFixed(2)} %`);
      t.true(mean < MAX_MEAN_DIFFERENCE, `${slug}: mean difference ${(mean * 100).toFixed(2)} %`);
    }
    t.log(measured.join('\n'));
  });
}
