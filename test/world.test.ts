/**
 * The world layer (Natural Earth sea, borders and country names, GeoNames places), tiled to zoom 4
 * (the same features the import tiles to 7, just fewer tiles), read back and decoded.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTiles } from '../data-pipeline/tiles/tiler.js';
import { worldFeatures } from '../data-pipeline/world/index.js';
import { MbtilesReader } from '../core/maps/mbtiles.js';
import { decodeTile, featuresOf, polygonsCover, tileAt } from './helpers/vector-tiles.js';

let dir = '';
let reader: MbtilesReader;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-world-'));
  const file = join(dir, 'world.mbtiles');
  await writeTiles(
    { features: worldFeatures(() => {}) },
    file,
    {
      maxzoom: 4,
      metadata: {
        name: 'world',
        description: 'world layer',
        attribution: 'Natural Earth; GeoNames',
        bounds: [-180, -85, 180, 85],
        center: [0, 0, 2],
      },
    },
    () => {},
  );
  reader = new MbtilesReader(file);
});

test.after.always(() => {
  reader?.close();
  rmSync(dir, { recursive: true, force: true });
});

function layerAt(lon: number, lat: number, z: number, layer: string) {
  const at = tileAt(lon, lat, z);
  const stored = reader.tile(at.z, at.x, at.y);
  return { at, features: stored ? featuresOf(decodeTile(stored.data), layer) : [] };
}

const isSea = (lon: number, lat: number, z: number) => {
  const { at, features } = layerAt(lon, lat, z, 'ocean');
  return polygonsCover(features, at.px, at.py);
};

test('the ocean at zoom 0 covers the Atlantic and the Pacific, not the land', (t) => {
  t.true(isSea(-30, 30, 0), 'North Atlantic');
  t.true(isSea(-20, -30, 0), 'South Atlantic');
  t.true(isSea(-150, 0, 0), 'Pacific');
  t.true(isSea(179, -30, 0), 'Pacific by the antimeridian');
  t.false(isSea(10, 50, 0), 'Germany');
  t.false(isSea(-100, 40, 0), 'North America');
  t.false(isSea(25, -10, 0), 'Africa');
  t.false(isSea(0, -80, 0), 'Antarctica');
});

test('at zoom 4 the sea comes from the 1:50m land, cut at the antimeridian', (t) => {
  t.true(isSea(7.45, 43.5, 4), 'the Ligurian Sea off Monaco');
  t.false(isSea(2.35, 48.85, 4), 'Paris');
  t.false(isSea(175, 67, 4), 'Chukotka, west of the antimeridian');
  t.false(isSea(-175, 66, 4), 'Chukotka, east of the antimeridian');
  t.true(isSea(-175, 60, 4), 'the Bering Sea');
});

test('place_labels: Paris, a capital, from zoom 4 with its population; smaller places not yet', (t) => {
  const names = (lon: number, lat: number, z: number) => layerAt(lon, lat, z, 'place_labels').features.map((f) => f.properties.name);
  const paris = layerAt(2.35, 48.85, 4, 'place_labels').features.find((f) => f.properties.name === 'Paris');
  t.like(paris?.properties, { kind: 'capital', name_en: 'Paris' });
  t.true(Number(paris?.properties.population) > 2_000_000);
  t.false(names(2.35, 48.85, 3).includes('Paris'), 'a capital of 2 million shows from zoom 4');
  t.true(names(7.42, 43.74, 4).includes('Monaco'), 'every capital shows from zoom 4');
  t.false(names(8.69, 49.41, 4).includes('Heidelberg'), 'a city of 160,000 shows from zoom 6');
});

test('boundaries between countries from zoom 0, country labels from zoom 2', (t) => {
  const [border] = layerAt(5, 47, 2, 'boundaries').features;
  t.like(border?.properties, { admin_level: 2, maritime: false, disputed: false });
  t.is(layerAt(2, 47, 1, 'boundary_labels').features.length, 0);
  const france = layerAt(2.5, 46.5, 3, 'boundary_labels').features.find((f) => f.properties.name === 'France');
  t.like(france?.properties, { name_en: 'France', admin_level: 2 });
  t.true(Number(france?.properties.way_area) > 0);
});
