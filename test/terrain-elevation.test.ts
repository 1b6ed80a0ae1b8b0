/**
 * The elevation store, from a real import of the shared SRTM tiles (Monaco, Andorra) and of
 * GeoTIFFs written here: every measured sample answers itself; between samples an answer lies
 * within the four around it; GDAL reads the same files alike, at samples and bilinear between
 * them; voids are filled within the range of the samples around them; a GeoTIFF surface known in
 * closed form comes back at random points; outside the coverage there is no elevation; grids of
 * samples are the points' elevations; the manifest lists the coverage.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths, type DatasetManifest } from '../core/dataset-layout.js';
import { ElevationStore } from '../core/terrain/elevation-store.js';
import { bboxAxes, tileAxes } from '../core/terrain/sample-axes.js';
import { runImport } from '../data-pipeline/index.js';
import { ANDORRA_DEM, MONACO_DEM, SRTM_VOID, unzippedTile, writeGeoTiff, type HgtTile } from './helpers/dem.js';
import { gdalBilinearAt, gdalTest, gdalValuesAt } from './helpers/gdal.js';
import { seededRandom } from './helpers/http.js';
import { dataTest } from './helpers/shared-data.js';

const scratch = mkdtempSync(join(tmpdir(), 'waymark-terrain-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

/** One import of both SRTM tiles, made by the first test that needs it. */
let imported: Promise<{ store: ElevationStore; manifest: DatasetManifest; tiles: HgtTile[] }> | undefined;
function srtmImport() {
  imported ??= (async () => {
    const dataDir = join(scratch, 'srtm');
    const { dir } = await runImport({ dataDir, osm: [], world: false, dem: [MONACO_DEM, ANDORRA_DEM] }, () => {});
    const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8')) as DatasetManifest;
    const tiles = [unzippedTile(MONACO_DEM, scratch, [7, 43]), unzippedTile(ANDORRA_DEM, scratch, [1, 42])];
    return { store: ElevationStore.open(paths.elevation(dir)), manifest, tiles };
  })();
  return imported;
}

const SRTM = [MONACO_DEM, ANDORRA_DEM];

dataTest("every measured SRTM sample answers itself, the tiles' edges and corners included", SRTM, async (t) => {
  const { store, tiles } = await srtmImport();
  for (const tile of tiles) {
    let wrong = 0;
    let measured = 0;
    for (let row = 0; row < tile.side; row++) {
      for (let column = 0; column < tile.side; column++) {
        const sample = tile.at(row, column);
        if (sample === SRTM_VOID) continue;
        measured++;
        const [lon, lat] = tile.position(row, column);
        if (store.elevationAt(lon, lat) !== sample && wrong++ < 5)
          t.log(`${tile.file} row ${row} column ${column}: ${store.elevationAt(lon, lat)}, the sample is ${sample}`);
      }
    }
    t.is(wrong, 0, tile.file);
    t.true(measured > 1_400_000);
  }
  // The corners of Monaco's tile by their own coordinates.
  const [monaco] = tiles;
  t.is(store.elevationAt(7, 43), monaco!.at(1200, 0));
  t.is(store.elevationAt(8, 44), monaco!.at(0, 1200));
});

dataTest('between samples, an elevation lies within the four samples around it', SRTM, async (t) => {
  const { store, tiles } = await srtmImport();
  const random = seededRandom(28);
  for (const tile of tiles) {
    for (let i = 0; i < 20_000; i++) {
      const [x, y] = [random() * (tile.side - 1), random() * (tile.side - 1)];
      const [column, row] = [Math.floor(x), Math.floor(y)];
      const around = [tile.at(row, column), tile.at(row, column + 1), tile.at(row + 1, column), tile.at(row + 1, column + 1)];
      if (around.includes(SRTM_VOID)) continue;
      const [lon, lat] = [tile.corner[0] + x / (tile.side - 1), tile.corner[1] + 1 - y / (tile.side - 1)];
      const elevation = store.elevationAt(lon, lat)!;
      if (!(elevation >= Math.min(...around) && elevation <= Math.max(...around))) {
        t.fail(`${lon},${lat}: ${elevation} is not within ${around.join(', ')}`);
        return;
      }
    }
  }
  t.pass();
});

gdalTest('GDAL reads the same samples, and the same bilinear values between them', SRTM, async (t) => {
  const { store, tiles } = await srtmImport();
  const random = seededRandom(2028);
  for (const tile of tiles) {
    // Samples: GDAL's pixel holding a sample's position is that sample.
    const points: [number, number][] = [];
    while (points.length < 40) {
      const [row, column] = [Math.floor(random() * tile.side), Math.floor(random() * tile.side)];
      if (tile.at(row, column) !== SRTM_VOID) points.push(tile.position(row, column));
    }
    t.deepEqual(
      points.map(([lon, lat]) => store.elevationAt(lon, lat)),
      gdalValuesAt(tile.file, points),
    );
    // Between samples, away from voids (GDAL leaves them out of its weights; the store fills them).
    let compared = 0;
    while (compared < 12) {
      const [x, y] = [1 + random() * (tile.side - 3), 1 + random() * (tile.side - 3)];
      const [column, row] = [Math.floor(x), Math.floor(y)];
      if ([tile.at(row, column), tile.at(row, column + 1), tile.at(row + 1, column), tile.at(row + 1, column + 1)].includes(SRTM_VOID))
        continue;
      const point: [number, number] = [tile.corner[0] + x / (tile.side - 1), tile.corner[1] + 1 - y / (tile.side - 1)];
      const ours = store.elevationAt(...point)!;
      const gdal = gdalBilinearAt(tile.file, point);
      t.true(Math.abs(ours - gdal) < 1e-6, `${point}: ${ours}, GDAL ${gdal}`);
      compared++;
    }
  }
});

/** The voids of a tile, each as its samples and the measured samples around it (8-neighbours). */
function voidsOf(tile: HgtTile): { samples: [number, number][]; edge: number[] }[] {
  const seen = new Set<number>();
  const voids: { samples: [number, number][]; edge: number[] }[] = [];
  for (let start = 0; start < tile.side * tile.side; start++) {
    if (seen.has(start) || tile.at(Math.floor(start / tile.side), start % tile.side) !== SRTM_VOID) continue;
    const samples: [number, number][] = [];
    const edge: number[] = [];
    const queue = [start];
    seen.add(start);
    while (queue.length > 0) {
      const index = queue.pop()!;
      const [row, column] = [Math.floor(index / tile.side), index % tile.side];
      samples.push([row, column]);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [r, c] = [row + dy, column + dx];
          if (r < 0 || c < 0 || r >= tile.side || c >= tile.side) continue;
          const next = r * tile.side + c;
          if (tile.at(r, c) !== SRTM_VOID) edge.push(tile.at(r, c));
          else if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
    }
    voids.push({ samples, edge });
  }
  return voids;
}

dataTest('voids are filled, each within the range of the measured samples around it', SRTM, async (t) => {
  const { store, tiles } = await srtmImport();
  let filled = 0;
  for (const tile of tiles) {
    const voids = voidsOf(tile);
    t.true(voids.length > 10, `${tile.file} has voids`);
    for (const { samples, edge } of voids) {
      const [low, high] = [Math.min(...edge), Math.max(...edge)];
      for (const [row, column] of samples) {
        const elevation = store.elevationAt(...tile.position(row, column));
        if (elevation === null || elevation < low - 0.05 || elevation > high + 0.05) {
          t.fail(`${tile.file} void sample row ${row} column ${column}: ${elevation}, its edge ${low}..${high}`);
          return;
        }
        filled++;
      }
    }
  }
  t.is(filled, 1595 + 7652, 'every void sample of both tiles');
});

dataTest("outside the tiles there is no elevation; grids of samples are the points' elevations, NaN outside", SRTM, async (t) => {
  const { store } = await srtmImport();
  for (const [lon, lat] of [
    [6.9999, 43.5],
    [8.0001, 43.5],
    [7.5, 42.9999],
    [7.5, 44.0001],
    [4, 43], // between the two tiles
    [2.5, 42.5],
    [-180, -90],
    [180, 90],
    [0, 0],
  ] as [number, number][]) {
    t.is(store.elevationAt(lon, lat), null, `${lon},${lat}`);
    t.is(store.sampleAt(lon, lat), null, `${lon},${lat}`);
  }
  t.is(store.elevationAt(Number.NaN, 43.5), null);
  // SRTM 3″ at Monaco: the cell's diagonal, 1/1200° (92.66 m) north-south and 1/1200° × cos(latitude) east-west.
  const sample = store.sampleAt(7.42, 43.73)!;
  const north = (6371008.8 * Math.PI) / 180 / 1200;
  t.is(sample.elevation, store.elevationAt(7.42, 43.73)!);
  t.true(Math.abs(sample.resolution - Math.hypot(north * Math.cos((43.73 * Math.PI) / 180), north)) < 1e-6, String(sample.resolution));

  for (const { lons, lats } of [tileAxes(12, 2132, 1493, 64, 2), tileAxes(9, 266, 186, 32), bboxAxes(7.9, 43.9, 8.1, 44.1, 40, 30)]) {
    const grid = store.sampleGrid(lons, lats);
    t.is(grid.length, lons.length * lats.length);
    lats.forEach((lat, r) =>
      lons.forEach((lon, c) => {
        const expected = store.elevationAt(lon, lat);
        const value = grid[r * lons.length + c]!;
        if (expected === null ? !Number.isNaN(value) : value !== Math.fround(expected))
          t.fail(`${lon},${lat}: ${value}, elevationAt ${expected}`);
      }),
    );
  }
  // Whole tiles read row-wise are the pointwise look-ups to the bit: across blocks, the coverage's edge, overzoomed.
  for (const { lons, lats } of [tileAxes(12, 2132, 1493, 512, 1), tileAxes(9, 266, 186, 512, 6), tileAxes(16, 34118, 23896, 512)])
    t.true(sameValues(store.sampleGrid(lons, lats), store.sampleGridPointwise(lons, lats)));
  // The bbox over Monaco's north-east corner is partly outside: both kinds of value are there.
  const corner = store.sampleGrid(...(Object.values(bboxAxes(7.9, 43.9, 8.1, 44.1, 40, 30)) as [Float64Array, Float64Array]));
  t.true(corner.some(Number.isNaN) && corner.some((value) => !Number.isNaN(value)));
});

dataTest('the manifest lists the coverage: bounds, 3″ resolution, one grid of both tiles', SRTM, async (t) => {
  const { manifest, store } = await srtmImport();
  t.deepEqual(manifest.inputs, ['srtm:N43E007.hgt.zip', 'srtm:N42E001.hgt.zip']);
  t.like(manifest.elevation, { bounds: [1, 42, 8, 44], resolution: [3, 3] });
  t.is(manifest.elevation!.grids.length, 1);
  // 1° of SRTM 3″ is 5 × 5 blocks of 240 cells: no block holds a one-sample edge of a tile.
  t.like(manifest.elevation!.grids[0], { resolution: [3, 3], bounds: [1, 42, 8, 44], files: 2, blocks: 50 });
  t.deepEqual(manifest.bounds, [1, 42, 8, 44], 'a DEM-only dataset is bounded by its DEMs');
  t.deepEqual(store.bounds, [1, 42, 8, 44]);
});

// ---------------------------------------------------------------------------------------------
// GeoTIFFs

/** z = 100 + 0.3·column + 0.2·row: linear, so bilinear interpolation gives it back exactly between samples. */
const surface = (column: number, row: number) => 100 + 0.3 * column + 0.2 * row;

test("a GeoTIFF surface known in closed form comes back at random points, across the import's windows and blocks", async (t) => {
  const dir = join(scratch, 'plane');
  const spec = { width: 2000, height: 2000, west: 10.00025, north: 45.99975, step: [0.0005, 0.0005] as [number, number], value: surface };
  const file = writeGeoTiff(join(scratch, 'plane.tif'), spec);
  const { dir: dataset } = await runImport({ dataDir: dir, osm: [], world: false, dem: [file] }, () => {});
  const store = ElevationStore.open(paths.elevation(dataset));
  t.teardown(() => store.close());
  const random = seededRandom(100);
  for (let i = 0; i < 20_000; i++) {
    const [column, row] = [random() * (spec.width - 1), random() * (spec.height - 1)];
    const elevation = store.elevationAt(spec.west + column * spec.step[0], spec.north - row * spec.step[1]);
    if (elevation === null || Math.abs(elevation - surface(column, row)) > 1e-6) {
      t.fail(`column ${column}, row ${row}: ${elevation}, the surface is ${surface(column, row)}`);
      return;
    }
  }
  // Its edges are in; half a sample beyond them is out.
  t.is(store.elevationAt(spec.west, spec.north), 100);
  t.true(Math.abs(store.elevationAt(spec.west + 1999 * 0.0005, spec.north - 1999 * 0.0005)! - surface(1999, 1999)) < 1e-9);
  t.is(store.elevationAt(spec.west - 0.00025, 45.5), null);
  t.is(store.elevationAt(10.5, spec.north + 0.00025), null);
  const manifest = JSON.parse(readFileSync(paths.manifest(dataset), 'utf8')) as DatasetManifest;
  t.deepEqual(manifest.inputs, ['dem:plane.tif']);
  t.deepEqual(manifest.elevation!.resolution, [1.8, 1.8]);
});

gdalTest("GDAL reads a written GeoTIFF's samples where the store has them (pixel centres)", [], async (t) => {
  const spec = { width: 50, height: 40, west: 3.0005, north: 40.9995, step: [0.001, 0.001] as [number, number], value: surface };
  const file = writeGeoTiff(join(scratch, 'small.tif'), spec);
  const { dir } = await runImport({ dataDir: join(scratch, 'small'), osm: [], world: false, dem: [file] }, () => {});
  const store = ElevationStore.open(paths.elevation(dir));
  t.teardown(() => store.close());
  const points: [number, number][] = [];
  for (let row = 0; row < spec.height; row += 7)
    for (let column = 0; column < spec.width; column += 9) points.push([spec.west + column * 0.001, spec.north - row * 0.001]);
  const gdal = gdalValuesAt(file, points);
  points.forEach((point, i) =>
    t.true(Math.abs(store.elevationAt(...point)! - gdal[i]!) < 1e-4, `${point}: ${store.elevationAt(...point)}, GDAL ${gdal[i]}`),
  );
});

test('PixelIsPoint rasters, nodata, overlapping rasters of one grid (the first given wins) and of several resolutions (the finest wins)', async (t) => {
  const step: [number, number] = [0.001, 0.001];
  const area = writeGeoTiff(join(scratch, 'area.tif'), {
    width: 100,
    height: 100,
    west: 5.0005,
    north: 45.9995,
    step,
    value: surface,
    noData: -9999,
  });
  // The same lattice, PixelIsPoint, shifted 60 columns east, 1000 m higher: where both have samples, the first input's stay.
  const point = writeGeoTiff(join(scratch, 'point.tif'), {
    width: 100,
    height: 100,
    west: 5.0605,
    north: 45.9995,
    step,
    value: (column, row) => surface(column + 60, row) + 1000,
    pixelIsPoint: true,
  });
  // A finer raster (a quarter of the spacing) over a small part of the first: it answers there.
  const fine = writeGeoTiff(join(scratch, 'fine.tif'), {
    width: 41,
    height: 41,
    west: 5.0205,
    north: 45.9795,
    step: [0.00025, 0.00025],
    value: () => 5000,
  });
  const holes = writeGeoTiff(join(scratch, 'holes.tif'), {
    width: 20,
    height: 20,
    west: 6.0005,
    north: 45.9995,
    step,
    noData: -9999,
    value: (column, row) => (column >= 10 && row >= 10 ? -9999 : surface(column, row)),
  });
  const { dir } = await runImport({ dataDir: join(scratch, 'mixed'), osm: [], world: false, dem: [area, point, fine, holes] }, () => {});
  const store = ElevationStore.open(paths.elevation(dir));
  t.teardown(() => store.close());
  const at = (lonColumn: number, row: number, west = 5.0005) => store.elevationAt(west + lonColumn * 0.001, 45.9995 - row * 0.001);
  t.is(at(10, 50), surface(10, 50), 'the first raster');
  t.is(at(70, 50), surface(70, 50), 'the first raster where the second overlaps it');
  t.is(at(130, 50), surface(130, 50) + 1000, 'the second beyond the first: PixelIsPoint samples at the tie point');
  t.true(Math.abs(at(99.5, 50)! - (surface(99, 50) + surface(100, 50) + 1000) / 2) < 1e-9, 'bilinear across the two, in one grid');
  t.is(at(25, 25), 5000, 'the finer raster where it has samples');
  t.is(at(15, 25), surface(15, 25), 'the coarser one beside it');
  t.is(store.grids.length, 2);
  t.deepEqual(store.grids[0]!.step, [0.00025, 0.00025], 'finest first');
  t.is(at(5, 5, 6.0005), surface(5, 5));
  t.is(at(15, 15, 6.0005), null, 'nodata is no elevation');
  t.is(at(9.5, 5, 6.0005), (surface(9, 5) + surface(10, 5)) / 2);
  t.is(at(9.5, 9.5, 6.0005), null, 'a point needing a nodata sample has none');
  // Grids of samples over the finer grid, its edges, the holes and beyond: the pointwise look-ups (every grid in turn).
  for (const { lons, lats } of [bboxAxes(5, 45.85, 5.2, 46, 300, 200), bboxAxes(5.95, 45.97, 6.03, 46.01, 160, 80)]) {
    const grid = store.sampleGrid(lons, lats);
    t.true(sameValues(grid, store.sampleGridPointwise(lons, lats)));
    t.true(grid.some(Number.isNaN) && grid.some((value) => !Number.isNaN(value)));
  }
  t.true(
    store
      .sampleGrid(...(Object.values(bboxAxes(5.022, 45.972, 5.028, 45.978, 10, 10)) as [Float64Array, Float64Array]))
      .every((value) => value === 5000),
  );
});

/** Whether two grids of samples hold the same values, NaN where NaN. */
function sameValues(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}
