/**
 * Hillshade in the server's raster maps (issue 28): the renderer draws a style's `hillshade` layer
 * from the dataset's elevation store — a static map of the hills above Monaco in `natural` with
 * elevation differs from the plain one over most of its pixels, with slopes in deep shadow beside
 * slopes facing the light; where the store has no elevation the two are the same picture.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import test from 'ava';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { STYLES, styleDocument } from '../core/maps/style-catalog.js';
import { runImport } from '../data-pipeline/index.js';
import type { StaticMapJob } from '../workers/render/task.js';
import rasterTask from '../workers/render/thread.js';
import { writeTestDataset } from './helpers/dataset.js';
import { MONACO_DEM } from './helpers/dem.js';
import { dataTest } from './helpers/shared-data.js';

const scratch = mkdtempSync(join(tmpdir(), 'waymark-terrain-raster-'));
let datasetDir = '';

test.before(async () => {
  if (!existsSync(MONACO_DEM)) return;
  // The small test dataset's tiles, with the elevation store of a DEM import beside them.
  datasetDir = (await writeTestDataset(join(scratch, 'tiles'))).dir;
  const { dir } = await runImport({ dataDir: join(scratch, 'dem'), osm: [], world: false, dem: [MONACO_DEM] }, () => {});
  copyFileSync(paths.elevation(dir), paths.elevation(datasetDir));
});

test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

const natural = STYLES.find((style) => style.slug === 'natural')!;
const outdoors = STYLES.find((style) => style.slug === 'outdoors')!;

async function staticMap(center: [number, number], elevation: boolean, entry = natural): Promise<Uint8ClampedArray> {
  const job: StaticMapJob = {
    kind: 'static',
    datasetDir,
    style: styleDocument(entry, 'local', elevation),
    format: 'png',
    pixelRatio: 1,
    center,
    zoom: 12,
    width: 300,
    height: 300,
    markers: [],
    paths: [],
    attribution: '',
  };
  const answer = await rasterTask(job);
  if (answer.kind !== 'static') throw new Error(`a ${answer.kind} answer to a static map job`);
  const image = await loadImage(Buffer.from(answer.image));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data;
}

const brightness = (data: Uint8ClampedArray, i: number) => data[4 * i]! + data[4 * i + 1]! + data[4 * i + 2]!;

dataTest('a static map draws the hillshade from the elevation store, and nothing where it has no elevation', [MONACO_DEM], async (t) => {
  const hills: [number, number] = [7.43, 43.775];
  const [plain, shaded] = [await staticMap(hills, false), await staticMap(hills, true)];
  let changed = 0;
  let deepShadow = 0;
  let lit = 0;
  for (let i = 0; i < plain.length / 4; i++) {
    const difference = brightness(shaded, i) - brightness(plain, i);
    if (difference !== 0) changed++;
    if (difference < -60) deepShadow++;
    if (difference >= -6) lit++;
  }
  const pixels = plain.length / 4;
  t.true(changed > 0.5 * pixels, `${changed} of ${pixels} pixels shaded`);
  // Relief, not a tint: slopes in deep shadow and slopes facing the light, side by side.
  t.true(deepShadow > 0.05 * pixels && lit > 0.05 * pixels, `${deepShadow} in deep shadow, ${lit} lit`);
  // South of Nice, 30 km off the coast, outside the store: the same picture, no hillshade nor contour there.
  const away: [number, number] = [7.3, 42.5];
  t.deepEqual(await staticMap(away, true), await staticMap(away, false));
  t.deepEqual(await staticMap(away, true, outdoors), await staticMap(away, false, outdoors));
});
