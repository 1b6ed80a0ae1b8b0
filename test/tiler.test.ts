/**
 * The tiler on a few hand-made features: which tiles and zooms hold which features, gzip, the
 * deduplicated MBTiles layout with TMS rows, polygon winding, and the metadata, read back with the
 * server's own MbtilesReader and decoded with @mapbox/vector-tile.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TileFeature } from '../data-pipeline/features.js';
import { writeTiles, type TilerResult } from '../data-pipeline/tiles/tiler.js';
import { MbtilesReader } from '../core/maps/mbtiles.js';
import { decodeTile, featuresOf, tileAt } from './helpers/vector-tiles.js';

const CASINO: [number, number] = [7.4277, 43.7393];
/** A 30°×40° block of water off Africa, drawn clockwise (the tiler must turn it). */
const WATER = [
  [
    [20, -20],
    [20, 20],
    [50, 20],
    [50, -20],
    [20, -20],
  ],
];

const FEATURES: TileFeature[] = [
  {
    layer: 'buildings',
    minzoom: 14,
    maxzoom: 14,
    properties: {},
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [7.4272, 43.739],
          [7.4282, 43.739],
          [7.4282, 43.7396],
          [7.4272, 43.7396],
          [7.4272, 43.739],
        ],
      ],
    },
  },
  {
    layer: 'streets',
    minzoom: 10,
    maxzoom: 14,
    properties: { kind: 'primary', name: 'Avenue des Beaux-Arts', oneway: true },
    geometry: {
      type: 'LineString',
      coordinates: [
        [7.42, 43.738],
        [7.435, 43.741],
      ],
    },
  },
  {
    layer: 'pois',
    minzoom: 14,
    maxzoom: 14,
    properties: { amenity: 'casino', name: 'Casino de Monte-Carlo' },
    geometry: { type: 'Point', coordinates: CASINO },
  },
  {
    layer: 'water_polygons',
    minzoom: 0,
    maxzoom: 5,
    properties: { kind: 'water', way_area: 1 },
    geometry: { type: 'Polygon', coordinates: WATER },
  },
  // Never shown: its zoom band is empty.
  { layer: 'pois', minzoom: 9, maxzoom: 8, properties: { name: 'nowhere' }, geometry: { type: 'Point', coordinates: [0, 0] } },
];

async function* stream<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

let dir = '';
let file = '';
let result: TilerResult;
let reader: MbtilesReader;
const phases = new Set<string>();

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-tiler-'));
  file = join(dir, 'tiles.mbtiles');
  result = await writeTiles(
    { features: stream(FEATURES) },
    file,
    { metadata: { name: 'test', description: 'hand-made', attribution: '© test', bounds: [7, 40, 50, 50], center: [7.42, 43.74, 12] } },
    (progress) => phases.add(progress.phase),
  );
  reader = new MbtilesReader(file);
});

test.after.always(() => {
  reader?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tileOf = (lon: number, lat: number, z: number) => {
  const at = tileAt(lon, lat, z);
  return reader.tile(at.z, at.x, at.y);
};
const layersAt = (lon: number, lat: number, z: number) => {
  const stored = tileOf(lon, lat, z);
  return stored ? Object.keys(decodeTile(stored.data).layers).sort() : null;
};

test('the detailed features are in the zooms of their bands, at the right place', (t) => {
  t.deepEqual(layersAt(...CASINO, 14), ['buildings', 'pois', 'streets']);
  t.deepEqual(layersAt(...CASINO, 12), ['streets']);
  t.deepEqual(layersAt(...CASINO, 10), ['streets']);
  t.is(layersAt(...CASINO, 9), null, 'no feature reaches zoom 9 there');
  t.is(layersAt(...CASINO, 4), null, 'Monaco lies outside the water block');
  t.deepEqual(layersAt(35, 0, 5), ['water_polygons']);
  t.is(layersAt(35, 0, 6), null, 'the water block ends at zoom 5');
  t.is(layersAt(0, 0, 0)?.includes('pois'), false, 'a feature with an empty zoom band is left out');

  const tile = decodeTile(tileOf(...CASINO, 14)!.data);
  const [poi] = featuresOf(tile, 'pois');
  t.deepEqual(poi?.properties, { amenity: 'casino', name: 'Casino de Monte-Carlo' });
  const at = tileAt(...CASINO, 14);
  const point = poi!.loadGeometry()[0]![0]!;
  t.true(Math.abs(point.x - at.px) <= 1 && Math.abs(point.y - at.py) <= 1, 'the point lies where the casino is');
  t.deepEqual(featuresOf(tile, 'streets')[0]?.properties, { kind: 'primary', name: 'Avenue des Beaux-Arts', oneway: true });
  t.is(tile.layers.streets?.version, 2);
  t.is(tile.layers.streets?.extent, 4096);
});

test('polygons are written with exterior rings of positive area (MVT 2), whatever the input winding', (t) => {
  const ring = featuresOf(decodeTile(tileOf(35, 0, 3)!.data), 'water_polygons')[0]!.loadGeometry()[0]!;
  let twiceArea = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) twiceArea += ring[j]!.x * ring[i]!.y - ring[i]!.x * ring[j]!.y;
  t.true(twiceArea > 0);
});

test('tiles are gzipped, identical tiles are stored once, rows are TMS', (t) => {
  const stored = tileOf(...CASINO, 14)!;
  t.deepEqual([...stored.data.subarray(0, 2)], [0x1f, 0x8b]);
  const db = new Database(file, { readonly: true });
  try {
    const map = db.prepare('SELECT COUNT(*) AS n FROM map').get() as { n: number };
    const images = db.prepare('SELECT COUNT(*) AS n FROM images').get() as { n: number };
    t.is(map.n, result.tiles);
    t.is(images.n, result.images);
    t.true(images.n < map.n, 'the tiles inside the water block are one image');
    const at = tileAt(...CASINO, 14);
    const row = db.prepare('SELECT tile_row FROM map WHERE zoom_level = 14 AND tile_column = ?').get(at.x) as { tile_row: number };
    t.is(row.tile_row, 2 ** 14 - 1 - at.y);
    const viaView = db.prepare('SELECT COUNT(*) AS n FROM tiles').get() as { n: number };
    t.is(viaView.n, map.n, 'the tiles view joins map and images');
  } finally {
    db.close();
  }
  // The tiles inside the water block at z5 are all the same full square.
  t.is(tileOf(25, 5, 5)!.id, tileOf(40, 5, 5)!.id);
});

test('metadata: MBTiles 1.3 fields and the vector layers as written', (t) => {
  const metadata = reader.metadata();
  t.like(metadata, {
    name: 'test',
    format: 'pbf',
    minzoom: '0',
    maxzoom: '14',
    bounds: '7,40,50,50',
    center: '7.42,43.74,12',
    attribution: '© test',
  });
  const { vector_layers: layers } = JSON.parse(metadata.json!) as {
    vector_layers: { id: string; minzoom: number; maxzoom: number; fields: Record<string, string> }[];
  };
  t.deepEqual(
    layers.map((l) => [l.id, l.minzoom, l.maxzoom]),
    [
      ['buildings', 14, 14],
      ['pois', 14, 14],
      ['streets', 10, 14],
      ['water_polygons', 0, 5],
    ],
  );
  t.deepEqual(layers.find((l) => l.id === 'streets')?.fields, { kind: 'String', name: 'String', oneway: 'Boolean' });
  t.deepEqual(result.layers, layers);
});

test('progress is reported per phase', (t) => {
  for (const phase of ['reading features', 'cutting tiles']) t.true(phases.has(phase), phase);
});

test('a cancelled tiling stops with the signal reason', async (t) => {
  const abort = new AbortController();
  abort.abort(new Error('stop now'));
  const cancelled = join(dir, 'cancelled.mbtiles');
  await t.throwsAsync(
    writeTiles(
      { features: stream(FEATURES) },
      cancelled,
      { signal: abort.signal, metadata: { name: 'x', description: 'x', attribution: 'x', bounds: [0, 0, 1, 1], center: [0, 0, 0] } },
      () => {},
    ),
    { message: 'stop now' },
  );
});
