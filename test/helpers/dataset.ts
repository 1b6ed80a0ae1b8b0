/**
 * A tiny real dataset for the maps tests, in the layout of core/dataset-layout.ts:
 * DATA/datasets/<id>/ with manifest.json, tiles.mbtiles (deduplicated MBTiles written with
 * better-sqlite3: gzipped tiles encoded with @maplibre/vt-pbf, `tile_id` = MD5 of the gzipped bytes,
 * TMS rows), glyphs and sprites from buildStyleAssets, and DATA/current pointing at it.
 */
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DATASET_FORMAT_VERSION, paths, type DatasetManifest } from '../../core/dataset-layout.js';
import { buildStyleAssets } from '../../data-pipeline/assets/index.js';

type GeojsonVtLayers = Parameters<typeof fromGeojsonVt>[0];

export interface TestTile {
  z: number;
  x: number;
  y: number;
  /** The tile's layers as geojson-vt features (tile coordinates, extent 4096). */
  layers: Record<string, { type: 1 | 2 | 3; geometry: unknown; tags: Record<string, string | number> }[]>;
}

/** A square of the whole tile and a named point in its middle. */
const square = [
  [
    [0, 0],
    [4096, 0],
    [4096, 4096],
    [0, 4096],
    [0, 0],
  ],
];

export const TEST_TILES: TestTile[] = [
  {
    z: 0,
    x: 0,
    y: 0,
    layers: {
      ocean: [{ type: 3, geometry: square, tags: {} }],
      place_labels: [
        {
          type: 1,
          geometry: [[2048, 2048]],
          tags: { kind: 'country', name: 'Monaco', name_en: 'Monaco', name_de: 'Monaco', population: 38000 },
        },
      ],
    },
  },
  {
    z: 14,
    x: 8530,
    y: 5975,
    layers: {
      buildings: [
        {
          type: 3,
          geometry: [
            [
              [1000, 1000],
              [2000, 1000],
              [2000, 2000],
              [1000, 2000],
              [1000, 1000],
            ],
          ],
          tags: {},
        },
      ],
      streets: [
        {
          type: 2,
          geometry: [
            [
              [0, 2048],
              [4096, 2048],
            ],
          ],
          tags: { kind: 'primary', name: 'Boulevard Albert 1er' },
        },
      ],
    },
  },
];
/** A coordinate inside the pyramid with no stored tile. */
export const EMPTY_TILE = { z: 1, x: 0, y: 0 };

export interface StoredTestTile extends TestTile {
  /** The gzipped bytes as stored. */
  gzipped: Buffer;
  /** The raw (inflated) vector tile. */
  raw: Buffer;
  /** Hex MD5 of `gzipped`, the tile's id and ETag. */
  id: string;
}

export interface TestDataset {
  id: string;
  dir: string;
  tiles: StoredTestTile[];
  manifest: DatasetManifest;
}

const TILE_SCHEMA = `
  CREATE TABLE metadata (name TEXT NOT NULL, value TEXT NOT NULL);
  CREATE TABLE map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_id TEXT NOT NULL);
  CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
  CREATE TABLE images (tile_data BLOB NOT NULL, tile_id TEXT NOT NULL);
  CREATE UNIQUE INDEX images_id ON images (tile_id);
`;

function writeMbtiles(file: string, tiles: StoredTestTile[]): void {
  const db = new Database(file);
  db.exec(TILE_SCHEMA);
  const metadata = db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
  for (const [name, value] of [
    ['name', 'shortbread'],
    ['format', 'pbf'],
    ['minzoom', '0'],
    ['maxzoom', '14'],
  ])
    metadata.run(name, value);
  for (const tile of tiles) {
    db.prepare('INSERT INTO images (tile_data, tile_id) VALUES (?, ?)').run(tile.gzipped, tile.id);
    db.prepare('INSERT INTO map VALUES (?, ?, ?, ?)').run(tile.z, tile.x, (1 << tile.z) - 1 - tile.y, tile.id);
  }
  db.close();
}

/** Writes the dataset `id` into `dataDir` and points `current` at it. */
export async function writeTestDataset(dataDir: string, id = 'test-dataset-1'): Promise<TestDataset> {
  const dir = paths.dataset(dataDir, id);
  mkdirSync(dir, { recursive: true });
  const tiles = TEST_TILES.map((tile): StoredTestTile => {
    const layers = Object.fromEntries(Object.entries(tile.layers).map(([name, features]) => [name, { features }]));
    const raw = Buffer.from(fromGeojsonVt(layers as unknown as GeojsonVtLayers));
    const gzipped = gzipSync(raw);
    return { ...tile, raw, gzipped, id: createHash('md5').update(gzipped).digest('hex') };
  });
  writeMbtiles(paths.tiles(dir), tiles);
  const assets = await buildStyleAssets(dir, () => {});
  const manifest: DatasetManifest = {
    formatVersion: DATASET_FORMAT_VERSION,
    id,
    createdAt: '2026-11-15T00:00:00.000Z',
    inputs: ['test:hand-written'],
    bounds: [7.4, 43.72, 7.44, 43.76],
    center: [7.42, 43.74, 14],
    minzoom: 0,
    maxzoom: 14,
    vectorLayers: [
      { id: 'ocean', minzoom: 0, maxzoom: 14, fields: {} },
      {
        id: 'place_labels',
        minzoom: 0,
        maxzoom: 14,
        fields: { kind: 'String', name: 'String', name_en: 'String', name_de: 'String', population: 'Number' },
      },
      { id: 'buildings', minzoom: 14, maxzoom: 14, fields: {} },
      { id: 'streets', minzoom: 14, maxzoom: 14, fields: { kind: 'String', name: 'String' } },
    ],
    attribution: '© OpenStreetMap contributors, Natural Earth, GeoNames',
    fontstacks: assets.fontstacks,
    sprites: assets.sprites,
  };
  writeFileSync(paths.manifest(dir), JSON.stringify(manifest));
  symlinkSync(join('datasets', id), paths.current(dataDir));
  return { id, dir, tiles, manifest };
}
