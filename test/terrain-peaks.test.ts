/**
 * Peaks and terrain in Andorra (issue 28), imported with its SRTM tile: the `peaks` tile layer
 * (Waymark's extension of Shortbread) carries the summits with their `ele` in metres, read from
 * OSM's strings and agreeing with the DEM; the `outdoors` style draws them and validates; the
 * server's raster tiles of the hills draw the hillshade and the contour lines of the DEM.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { LABEL_LANGUAGES, STYLES, styleDocument } from '../core/maps/style-catalog.js';
import { ElevationStore } from '../core/terrain/elevation-store.js';
import type { FeatureValue, TileFeature } from '../data-pipeline/features.js';
import { parseElevation, peaks } from '../data-pipeline/shortbread/peaks.js';
import { MbtilesReader } from '../core/maps/mbtiles.js';
import type { MetatileJob } from '../workers/render/task.js';
import rasterTask from '../workers/render/thread.js';
import { ANDORRA_DEM, ANDORRA_OSM, importAndorraWithDem } from './helpers/dem.js';
import { dataTest } from './helpers/shared-data.js';
import { decodeTile, featuresOf, tileAt } from './helpers/vector-tiles.js';

const INPUTS = [ANDORRA_OSM, ANDORRA_DEM];
/** Andorra's box. */
const WEST = 1.41;
const SOUTH = 42.43;
const EAST = 1.79;
const NORTH = 42.66;
/** Pic de Comapedrosa, Andorra's highest summit: `ele=2944` in the extract. */
const COMAPEDROSA: [number, number] = [1.4436671, 42.5917967];
/** Pic del Port Vell: no `ele` in the extract. */
const PORT_VELL: [number, number] = [1.4434009, 42.5719235];

const scratch = mkdtempSync(join(tmpdir(), 'waymark-terrain-peaks-'));
let datasetDir = '';

test.before(async () => {
  if (INPUTS.every((file) => existsSync(file))) datasetDir = await importAndorraWithDem(join(scratch, 'data'));
});

test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

test('ele strings are read as whole metres, or refused', (t) => {
  const cases: [string | undefined, number | undefined][] = [
    ['2942', 2942],
    ['2942 m', 2942],
    ['2942m', 2942],
    ['2942 metres', 2942],
    ['2,942', 2942],
    ['2 942', 2942],
    ['3143,45', 3143],
    ['2904,9', 2905],
    ['1904.64', 1905],
    ['9652 ft', 2942],
    ["9652'", 2942],
    ['~2900', 2900],
    ['ca. 2900', 2900],
    ['-28', -28],
    ['2900-2950', undefined],
    ['2942;2940', undefined],
    ['unknown', undefined],
    ['', undefined],
    ['29420', undefined],
    ['1.234.5', undefined],
    [undefined, undefined],
  ];
  for (const [value, metres] of cases) t.is(parseElevation(value), metres, String(value));
});

test('summits and passes: named or with a height, the DEM completing named ones only', (t) => {
  const feature = (tags: Record<string, string>, dem?: number): TileFeature | undefined => {
    const out: TileFeature[] = [];
    const emit = (layer: string, minzoom: number, geometry: TileFeature['geometry'], properties: Record<string, FeatureValue>) =>
      out.push({ layer, minzoom, maxzoom: 14, geometry, properties });
    peaks({ shape: 'point', type: 'node', id: 1, tags, point: [1.5, 42.5] }, emit, dem === undefined ? undefined : () => dem);
    return out[0];
  };
  t.like(feature({ natural: 'peak', name: 'Pic', ele: '2942,5' }, 2800), {
    layer: 'peaks',
    minzoom: 11,
    properties: { kind: 'peak', name: 'Pic', ele: 2943 },
  });
  t.like(feature({ natural: 'peak', name: 'Pic' }, 2800.4), { properties: { ele: 2800 } });
  t.false('ele' in feature({ natural: 'peak', name: 'Pic' })!.properties, 'no ele and no DEM: no ele');
  t.like(feature({ natural: 'volcano', ele: '1200' }, 0), { minzoom: 13, properties: { kind: 'volcano', ele: 1200 } });
  t.is(feature({ natural: 'peak' }, 2800), undefined, 'an unnamed peak without ele is left out, DEM or not');
  t.like(feature({ natural: 'saddle', name: 'Coll' }), { minzoom: 13, properties: { kind: 'saddle' } });
  t.like(feature({ highway: 'path', mountain_pass: 'yes', name: 'Port' }), { minzoom: 13, properties: { kind: 'mountain_pass' } });
  t.is(feature({ natural: 'constructor', name: 'x' }), undefined);
  t.is(feature({ natural: 'tree', name: 'x' }), undefined);
});

interface Peak {
  kind: string;
  name?: string;
  ele?: number;
  lon: number;
  lat: number;
}

/** Every feature of the `peaks` layer in the archive's tiles at `z` over Andorra, with its position. */
function peaksAt(archive: MbtilesReader, z: number): Peak[] {
  const corner = tileAt(WEST, NORTH, z);
  const far = tileAt(EAST, SOUTH, z);
  const found: Peak[] = [];
  for (let x = corner.x; x <= far.x; x++) {
    for (let y = corner.y; y <= far.y; y++) {
      const stored = archive.tile(z, x, y);
      if (stored === null) continue;
      for (const feature of featuresOf(decodeTile(stored.data), 'peaks')) {
        const point = feature.loadGeometry()[0]![0]!;
        const fx = x + point.x / feature.extent;
        const fy = y + point.y / feature.extent;
        const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * fy) / 2 ** z))) * 180) / Math.PI;
        const { kind, name, ele } = feature.properties as { kind: string; name?: string; ele?: number };
        // Tiles overlap by their buffers: keep a feature in the tile that holds it.
        if (point.x >= 0 && point.y >= 0 && point.x < feature.extent && point.y < feature.extent)
          found.push({ kind, name, ele, lon: (fx / 2 ** z) * 360 - 180, lat });
      }
    }
  }
  return found;
}

dataTest("Andorra's tiles carry its summits with their elevation from z11, agreeing with the DEM", INPUTS, (t) => {
  const archive = new MbtilesReader(paths.tiles(datasetDir));
  const store = ElevationStore.open(paths.elevation(datasetDir));
  try {
    t.is(peaksAt(archive, 10).length, 0, 'no peaks before z11');
    const z11 = peaksAt(archive, 11);
    const z14 = peaksAt(archive, 14);
    t.true(z11.length >= 60, `${z11.length} named summits at z11`);
    t.true(z11.every((peak) => peak.name !== undefined && ['peak', 'volcano'].includes(peak.kind)));
    t.true(z14.length >= z11.length, `${z14.length} peaks and passes at z14`);
    // A peak OSM gives no height has the DEM's.
    const portVell = z14.find((peak) => peak.name === 'Pic del Port Vell');
    t.is(portVell?.ele, Math.round(store.elevationAt(...PORT_VELL)!));
    const highest = z14.find((peak) => peak.name === 'Pic de Comapedrosa');
    t.like(highest, { kind: 'peak', ele: 2944 });
    t.true(Math.abs(highest!.lon - COMAPEDROSA[0]) < 1e-4 && Math.abs(highest!.lat - COMAPEDROSA[1]) < 1e-4);
    // Every `ele` a whole number of metres; the decimal commas of the Andorran data ("3143,45") read as decimals.
    const withEle = z14.filter((peak) => peak.ele !== undefined);
    t.true(withEle.length >= 0.8 * z14.length, `${withEle.length} of ${z14.length} with ele`);
    t.true(withEle.every((peak) => Number.isInteger(peak.ele) && peak.ele! > 500 && peak.ele! < 3200));
    // The OSM heights agree with the SRTM surface (whose 90 m cells cut the tops off).
    const near = withEle.filter((peak) => {
      const dem = store.sampleAt(peak.lon, peak.lat);
      return dem !== null && Math.abs(dem.elevation - peak.ele!) < 150;
    });
    t.true(near.length >= 0.8 * withEle.length, `${near.length} of ${withEle.length} within 150 m of the DEM`);
    t.log(
      `${z11.length} summits at z11, ${z14.length} peaks and passes at z14, ${near.length} of ${withEle.length} within 150 m of the DEM`,
    );
  } finally {
    store.close();
    archive.close();
  }
});

const outdoors = STYLES.find((style) => style.slug === 'outdoors')!;

dataTest('outdoors draws the peaks with the sprite icons the import built, and validates', INPUTS, (t) => {
  const sprite = JSON.parse(readFileSync(join(paths.sprites(datasetDir), 'base.json'), 'utf8')) as Record<string, unknown>;
  for (const icon of ['icon-mountain', 'icon-volcano', 'icon-triangle_stroked']) t.truthy(sprite[icon], icon);
  for (const language of LABEL_LANGUAGES) {
    for (const elevation of [false, true]) {
      const style = styleDocument(outdoors, language, elevation);
      t.deepEqual(validateStyleMin(style), [], `${language} ${elevation}`);
      const ids = style.layers.map((layer) => layer.id);
      const peaks = ids.indexOf('label-peak');
      t.true(peaks > 0 && peaks < ids.indexOf('label-place-village'), 'below the place labels');
      t.true(ids.indexOf('contour-label') < (elevation ? peaks : 0), 'contour labels below the peaks');
    }
  }
  for (const other of STYLES.filter((style) => style !== outdoors))
    t.false(
      styleDocument(other, 'local', true).layers.some((layer) => layer.id === 'label-peak'),
      other.slug,
    );
});

/** The RGBA pixels of a 2 × 2 metatile of 256-px tiles at z13 around a point, in a style. */
async function metatile(style: StyleSpecification, [lon, lat]: [number, number]): Promise<Uint8ClampedArray> {
  const { x, y } = tileAt(lon, lat, 13);
  const job: MetatileJob = {
    kind: 'metatile',
    datasetDir,
    style,
    format: 'png',
    pixelRatio: 1,
    z: 13,
    x: x - (x % 2),
    y: y - (y % 2),
    metatile: 2,
    tileSize: 256,
  };
  const answer = await rasterTask(job);
  if (answer.kind !== 'metatile') throw new Error(`a ${answer.kind} answer to a metatile job`);
  const canvas = createCanvas(512, 512);
  const ctx = canvas.getContext('2d');
  for (const [i, tile] of answer.tiles.entries())
    ctx.drawImage(await loadImage(Buffer.from(tile.image)), (i % 2) * 256, Math.floor(i / 2) * 256);
  return ctx.getImageData(0, 0, 512, 512).data;
}

const brightness = (data: Uint8ClampedArray, i: number) => data[4 * i]! + data[4 * i + 1]! + data[4 * i + 2]!;
const distance = (data: Uint8ClampedArray, i: number, [r, g, b]: number[]) =>
  Math.hypot(data[4 * i]! - r!, data[4 * i + 1]! - g!, data[4 * i + 2]! - b!);

dataTest('raster tiles of the Andorran hills draw the hillshade and the contour lines of the DEM', INPUTS, async (t) => {
  // The valley of Arinsal under Comapedrosa: slopes of 1,000 m on every side.
  const hills: [number, number] = [1.47, 42.57];
  const withoutContours: StyleSpecification = {
    ...styleDocument(outdoors, 'local', true),
    layers: styleDocument(outdoors, 'local', true).layers.filter((layer) => !layer.id.startsWith('contour-')),
  };
  const [plain, shaded, full] = [
    await metatile(styleDocument(outdoors, 'local', false), hills),
    await metatile(withoutContours, hills),
    await metatile(styleDocument(outdoors, 'local', true), hills),
  ];
  const pixels = plain.length / 4;
  const mean = (data: Uint8ClampedArray) => Array.from({ length: pixels }, (_, i) => brightness(data, i)).reduce((a, b) => a + b) / pixels;
  const variance = (data: Uint8ClampedArray) => {
    const m = mean(data);
    return Array.from({ length: pixels }, (_, i) => (brightness(data, i) - m) ** 2).reduce((a, b) => a + b) / pixels;
  };
  // Shading: most pixels change, some slopes deep in shadow beside lit ones, the picture far more varied.
  let changed = 0;
  let deepShadow = 0;
  let lit = 0;
  for (let i = 0; i < pixels; i++) {
    const difference = brightness(shaded, i) - brightness(plain, i);
    if (difference !== 0) changed++;
    if (difference < -60) deepShadow++;
    if (difference >= -6) lit++;
  }
  t.true(changed > 0.5 * pixels, `${changed} of ${pixels} pixels shaded`);
  t.true(deepShadow > 0.05 * pixels && lit > 0.05 * pixels, `${deepShadow} in deep shadow, ${lit} lit`);
  t.true(variance(shaded) > 1.3 * variance(plain), `brightness variance ${variance(plain).toFixed(0)} → ${variance(shaded).toFixed(0)}`);
  // Contours: lines over a good share of the picture, each pixel they touch drawn towards their brown.
  const contourBrown = [150, 110, 70];
  let lines = 0;
  let browner = 0;
  for (let i = 0; i < pixels; i++) {
    if (distance(full, i, [shaded[4 * i]!, shaded[4 * i + 1]!, shaded[4 * i + 2]!]) < 8) continue;
    lines++;
    if (distance(full, i, contourBrown) < distance(shaded, i, contourBrown)) browner++;
  }
  t.true(lines > 0.03 * pixels, `${lines} of ${pixels} pixels on contour lines or labels`);
  t.true(browner > 0.8 * lines, `${browner} of ${lines} drawn towards the contour colour`);
});
