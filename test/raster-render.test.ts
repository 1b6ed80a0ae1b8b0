/**
 * The raster renderer (issue 12) on the small test dataset: metatiles cut into tiles of the right
 * size, static maps of the asked size, pictures that are not blank, labels drawn where a named street
 * is, overzoom past the archive's z14, and styles naming a font or icon the dataset lacks.
 */
import test from 'ava';
import { loadImage } from '@napi-rs/canvas';
import { createCanvas } from '@napi-rs/canvas';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STYLES, styleDocument } from '../core/maps/style-catalog.js';
import type { RasterAnswer, StaticMapJob } from '../workers/render/task.js';
import rasterTask from '../workers/render/thread.js';
import { TEST_TILES, writeTestDataset, type TestDataset } from './helpers/dataset.js';

let dataDir: string;
let dataset: TestDataset;
const served = styleDocument(STYLES[0]!, 'local');
/**
 * The served style names streets from Shortbread's `street_labels` layer, which the small dataset
 * lacks; this layer names its one street from `streets` instead, along the line.
 */
const STREET_NAMES = {
  id: 'test-street-names',
  type: 'symbol',
  source: served.layers.find((layer) => 'source' in layer)!.source,
  'source-layer': 'streets',
  layout: { 'text-field': ['get', 'name'], 'symbol-placement': 'line', 'text-font': ['noto_sans_regular'], 'text-size': 14 },
  paint: { 'text-color': '#000000', 'text-halo-color': '#ffffff', 'text-halo-width': 2 },
} as StyleSpecification['layers'][number];
const style: StyleSpecification = { ...served, layers: [...served.layers, STREET_NAMES] };
/** The z14 tile holding the street "Boulevard Albert 1er" across its middle. */
const STREET_TILE = TEST_TILES[1]!;
const tileCentre = (z: number, x: number, y: number): [number, number] => [
  ((x + 0.5) / 2 ** z) * 360 - 180,
  (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / 2 ** z))) * 180) / Math.PI,
];

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-raster-render-'));
  dataset = await writeTestDataset(dataDir);
});

test.after.always(() => rmSync(dataDir, { recursive: true, force: true }));

async function pixels(image: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const decoded = await loadImage(Buffer.from(image));
  const canvas = createCanvas(decoded.width, decoded.height);
  canvas.getContext('2d').drawImage(decoded, 0, 0);
  return {
    width: decoded.width,
    height: decoded.height,
    data: canvas.getContext('2d').getImageData(0, 0, decoded.width, decoded.height).data,
  };
}

const distinctColours = (data: Uint8ClampedArray): number => {
  const colours = new Set<number>();
  for (let i = 0; i < data.length; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
  return colours.size;
};

function staticJob(overrides: Partial<StaticMapJob> = {}): StaticMapJob {
  return {
    kind: 'static',
    datasetDir: dataset.dir,
    style,
    format: 'png',
    pixelRatio: 1,
    center: tileCentre(STREET_TILE.z, STREET_TILE.x, STREET_TILE.y),
    zoom: 15,
    width: 400,
    height: 300,
    markers: [],
    paths: [],
    attribution: '',
    ...overrides,
  };
}

async function staticImage(job: StaticMapJob): Promise<Uint8Array> {
  const answer: RasterAnswer = await rasterTask(job);
  if (answer.kind !== 'static') throw new Error('expected a static answer');
  return answer.image;
}

/** Share of pixels of the rows `from`–`to` that differ between two pictures of the same size. */
function changedShare(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, from: number, to: number): number {
  let changed = 0;
  for (let i = from * width * 4; i < to * width * 4; i += 4)
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 60) changed++;
  return changed / ((to - from) * width);
}

test('a metatile answers metatile² tiles of tileSize × pixelRatio pixels; the one over the data is not blank', async (t) => {
  // z15 256-px tiles are the style at zoom 14: the street tile lies in the 2 × 2 metatile at (17060, 11950).
  for (const [tileSize, pixelRatio] of [
    [256, 1],
    [256, 2],
    [512, 1],
  ] as const) {
    const z = tileSize === 256 ? 15 : 14;
    const shift = z - 14;
    const x = (STREET_TILE.x << shift) & ~1;
    const y = (STREET_TILE.y << shift) & ~1;
    const answer = await rasterTask({
      kind: 'metatile',
      datasetDir: dataset.dir,
      style,
      format: 'png',
      pixelRatio,
      z,
      x,
      y,
      metatile: 2,
      tileSize,
    });
    if (answer.kind !== 'metatile') return t.fail('expected a metatile answer');
    t.deepEqual(
      answer.tiles.map((tile) => [tile.x, tile.y]),
      [
        [x, y],
        [x + 1, y],
        [x, y + 1],
        [x + 1, y + 1],
      ],
    );
    let mostColours = 0;
    for (const tile of answer.tiles) {
      const { width, height, data } = await pixels(tile.image);
      t.deepEqual([width, height], [tileSize * pixelRatio, tileSize * pixelRatio]);
      mostColours = Math.max(mostColours, distinctColours(data));
    }
    t.true(mostColours >= 4, `${tileSize} px @${pixelRatio}x: every tile is nearly one colour`);
  }
});

test('a metatile at zoom 0 is the one world tile; webp and jpeg encode', async (t) => {
  for (const format of ['webp', 'jpeg'] as const) {
    const answer = await rasterTask({
      kind: 'metatile',
      datasetDir: dataset.dir,
      style,
      format,
      pixelRatio: 1,
      z: 0,
      x: 0,
      y: 0,
      metatile: 4,
      tileSize: 256,
    });
    if (answer.kind !== 'metatile') return t.fail('expected a metatile answer');
    t.is(answer.tiles.length, 1);
    t.deepEqual(await pixels(answer.tiles[0]!.image).then((p) => [p.width, p.height]), [256, 256]);
  }
});

test('a static map has its size times the pixel ratio and several colours', async (t) => {
  const { width, height, data } = await pixels(
    await staticImage(staticJob({ width: 300, height: 200, pixelRatio: 2, attribution: '© OpenStreetMap contributors' })),
  );
  t.deepEqual([width, height], [600, 400]);
  t.true(distinctColours(data) >= 8, `only ${distinctColours(data)} colours`);
});

test('the street name is drawn along the street, and overzoom to z18 draws it too', async (t) => {
  const unlabelled: StyleSpecification = { ...style, layers: style.layers.filter((layer) => layer.type !== 'symbol') };
  for (const zoom of [15, 18]) {
    const labelled = await pixels(await staticImage(staticJob({ zoom })));
    const plain = await pixels(await staticImage(staticJob({ zoom, style: unlabelled })));
    // The street crosses the tile's middle, the picture's row 150: text pixels there, none far above it.
    t.true(changedShare(labelled.data, plain.data, labelled.width, 140, 160) > 0.02, `no label along the street at z${zoom}`);
    t.is(changedShare(labelled.data, plain.data, labelled.width, 0, 100), 0, `label pixels away from the street at z${zoom}`);
  }
});

test('a font or icon the dataset lacks does not stop the picture: labels fall back to the regular face', async (t) => {
  const unknownAssets = {
    ...style,
    layers: style.layers.map((layer) =>
      layer.type === 'symbol'
        ? { ...layer, layout: { ...layer.layout, 'text-font': ['No Such Font'], 'icon-image': 'base:no-such-icon' } }
        : layer,
    ),
  } as StyleSpecification;
  const { width, height, data } = await pixels(await staticImage(staticJob({ style: unknownAssets })));
  t.deepEqual([width, height], [400, 300]);
  t.true(distinctColours(data) >= 8);
});
