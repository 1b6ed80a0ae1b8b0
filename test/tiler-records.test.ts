/**
 * The tiler's own formats: spill records read back as written, and vector tiles encoded from
 * geojson-vt's raw tiles byte for byte as @maplibre/vt-pbf encodes its legacy tiles.
 */
import test from 'ava';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature, Geometry } from 'geojson';
import GeoJSONVT from 'geojson-vt';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeMvt } from '../data-pipeline/tiles/mvt-encoder.js';
import { forEachRecord, RecordFile } from '../data-pipeline/tiles/spill-files.js';
import { encodeRecord, recordAttributes, recordBytes, SpillRecord } from '../data-pipeline/tiles/spill-record.js';

const GEOMETRIES: Geometry[] = [
  { type: 'Point', coordinates: [7.4234985, 43.7372399] },
  {
    type: 'MultiPoint',
    coordinates: [
      [7.42, 43.73],
      [-122.4194155, 37.7749295],
    ],
  },
  {
    type: 'LineString',
    coordinates: [
      [7.4, 43.7],
      [7.41, 43.71],
      [7.42, 43.705],
    ],
  },
  {
    type: 'MultiLineString',
    coordinates: [
      [
        [7.4, 43.7],
        [7.41, 43.71],
      ],
      [
        [7.43, 43.72],
        [7.44, 43.73],
      ],
    ],
  },
  {
    type: 'Polygon',
    coordinates: [
      [
        [7.4, 43.7],
        [7.5, 43.7],
        [7.5, 43.8],
        [7.4, 43.8],
        [7.4, 43.7],
      ],
      [
        [7.42, 43.72],
        [7.42, 43.74],
        [7.44, 43.74],
        [7.42, 43.72],
      ],
    ],
  },
  {
    type: 'MultiPolygon',
    coordinates: [
      [
        [
          [-180, -85],
          [180, -85],
          [180, 85],
          [-180, -85],
        ],
      ],
      [
        [
          [1, 1],
          [2, 1],
          [2, 2],
          [1, 1],
        ],
      ],
    ],
  },
  {
    type: 'GeometryCollection',
    geometries: [
      { type: 'Point', coordinates: [0, 0] },
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1e-7, -1e-7],
        ],
      },
    ],
  },
];

function record(
  geometry: Geometry,
  properties: Record<string, string | number | boolean>,
  box: [number, number, number, number],
): Uint8Array {
  const attributes = recordAttributes('water_lines', properties);
  const bytes = new Uint8Array(recordBytes(attributes, geometry));
  encodeRecord(bytes, { minzoom: 3, maxzoom: 14, box }, attributes, geometry);
  return bytes;
}

test('a spill record gives back its feature exactly (OSM precision), its zooms, and a box no smaller than given', (t) => {
  const properties = { name: 'Fontvieille – “port”', kind: 'river', width: 2.5, tunnel: false, layer: -1 };
  for (const geometry of GEOMETRIES) {
    const box: [number, number, number, number] = [7.39999999, 43.69999999, 7.50000001, 43.80000001];
    const read = new SpillRecord(record(geometry, properties, box));
    t.deepEqual(read.feature(), { layer: 'water_lines', minzoom: 3, maxzoom: 14, geometry, properties }, geometry.type);
    const header = read.header();
    t.true(header.box[0] <= box[0] && header.box[1] <= box[1] && header.box[2] >= box[2] && header.box[3] >= box[3]);
    const rezoomed = new SpillRecord(read.withZooms(12, 13));
    t.like(rezoomed.header(), { minzoom: 12, maxzoom: 13 });
    t.deepEqual(rezoomed.feature().geometry, geometry);
  }
});

test('records written to a file come back in order, also across read chunks', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-records-'));
  try {
    const file = new RecordFile(join(dir, 'run'));
    // About 20 MB of records: more than one 8 MiB chunk, so some records straddle two.
    const line: Geometry = { type: 'LineString', coordinates: Array.from({ length: 1000 }, (_, i) => [i / 1000, i / 2000]) };
    const count = 2500;
    for (let i = 0; i < count; i++) file.add(record(i % 7 === 0 ? GEOMETRIES[i % GEOMETRIES.length]! : line, { i }, [0, 0, 1, 1]));
    file.close();
    const seen: number[] = [];
    forEachRecord([{ file: file.file, offset: 0, length: file.bytes }], (read) => seen.push(read.feature().properties.i as number));
    t.deepEqual(
      seen,
      Array.from({ length: count }, (_, i) => i),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('vector tiles encode to the same bytes as vt-pbf gives for the same geojson-vt tiles', (t) => {
  const features: Feature[] = GEOMETRIES.map((geometry, i) => ({
    type: 'Feature',
    geometry,
    properties: { name: `feature ${i}`, rank: i, ratio: i / 3, negative: -i, open: i % 2 === 0, same: 'x', '1': '1' },
  }));
  const vt = new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom: 14, indexMaxZoom: 0, extent: 4096 });
  let compared = 0;
  for (const [z, x, y] of [
    [0, 0, 0],
    [5, 16, 11],
    [10, 533, 373],
    [14, 8527, 5975],
  ] as const) {
    const raw = vt.getTileRaw(z, x, y);
    const legacy = vt.getTile(z, x, y);
    if (!raw || !legacy) continue;
    const ours = encodeMvt([{ name: 'layer', features: [...raw.features] }], 4096);
    const theirs = fromGeojsonVt({ layer: legacy }, { version: 2, extent: 4096 });
    t.deepEqual(Buffer.from(ours), Buffer.from(theirs), `${z}/${x}/${y}`);
    compared++;
  }
  t.true(compared >= 2, `tiles compared: ${compared}`);
});
