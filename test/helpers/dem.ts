/**
 * Elevation test data: the shared SRTM tiles (../shared/data/dem), unzipped and read sample by
 * sample the plain way (big-endian int16, rows from north to south), independently of the import's
 * reader; GeoTIFFs written with geotiff's writer from a surface given as a function; a server
 * on a DEM-only import; and the hilly dataset: Andorra's extract with its SRTM tile.
 */
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { writeArrayBuffer } from 'geotiff';
import { paths } from '../../core/dataset-layout.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { runImport } from '../../data-pipeline/index.js';
import { startTestServer, type TestServer } from './server.js';
import { sharedFile } from './shared-data.js';

export const MONACO_DEM = sharedFile('dem', 'N43E007.hgt.zip');
export const ANDORRA_DEM = sharedFile('dem', 'N42E001.hgt.zip');
export const ANDORRA_OSM = sharedFile('osm', 'andorra.osm.pbf');
export const SRTM_VOID = -32768;

export interface HgtTile {
  /** The unzipped `.hgt` file. */
  file: string;
  side: number;
  /** The south-west corner [lon, lat]. */
  corner: [number, number];
  /** The sample of row `row` (0 = north) and column `column` (0 = west), SRTM_VOID for a void. */
  at(row: number, column: number): number;
  /** [lon, lat] of a sample. */
  position(row: number, column: number): [number, number];
}

/** Unzips an SRTM `.hgt.zip` into `dir` and reads it. */
export function unzippedTile(zipFile: string, dir: string, corner: [number, number]): HgtTile {
  const [name, bytes] = Object.entries(unzipSync(readFileSync(zipFile)))[0]!;
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const side = Math.round(Math.sqrt(bytes.length / 2));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spacing = 1 / (side - 1);
  return {
    file,
    side,
    corner,
    at: (row, column) => view.getInt16(2 * (row * side + column), false),
    position: (row, column) => [corner[0] + column * spacing, corner[1] + 1 - row * spacing],
  };
}

export interface GeoTiffSpec {
  width: number;
  height: number;
  /** Longitude of column 0's samples, latitude of row 0's (the north edge). */
  west: number;
  north: number;
  /** Degrees between samples, [longitude, latitude]. */
  step: [number, number];
  /** The value of column `column`, row `row` (0 = north). */
  value(column: number, row: number): number;
  /** Samples at the pixels' corner points (PixelIsPoint), instead of their centres. */
  pixelIsPoint?: boolean;
  noData?: number;
  /** The EPSG code of the coordinate system, a projected one if `projected`: EPSG:4326 unless given. */
  crs?: { epsg: number; projected?: boolean };
  /** The sample array type: Float32Array unless given. */
  array?: Float32ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor;
  bands?: number;
}

/** Writes a GeoTIFF in EPSG:4326 (unless the spec's metadata says otherwise) and returns its path. */
export function writeGeoTiff(file: string, spec: GeoTiffSpec): string {
  const { width, height, step, bands = 1 } = spec;
  const values = new (spec.array ?? Float32Array)(width * height * bands);
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      for (let band = 0; band < bands; band++) values[(row * width + column) * bands + band] = spec.value(column, row);
    }
  }
  // The tie point is pixel (0, 0)'s corner for PixelIsArea, its sample for PixelIsPoint.
  const half = spec.pixelIsPoint ? 0 : 0.5;
  const { epsg, projected = false } = spec.crs ?? { epsg: 4326 };
  const metadata = {
    width,
    height,
    ModelPixelScale: [step[0], step[1], 0],
    ModelTiepoint: [0, 0, 0, spec.west - half * step[0], spec.north + half * step[1], 0],
    ...(projected ? { ProjectedCSTypeGeoKey: epsg, GTModelTypeGeoKey: 1 } : { GeographicTypeGeoKey: epsg, GTModelTypeGeoKey: 2 }),
    GTRasterTypeGeoKey: spec.pixelIsPoint ? 2 : 1,
    ...(spec.noData === undefined ? {} : { GDAL_NODATA: `${spec.noData}\0` }),
  };
  writeFileSync(file, Buffer.from(writeArrayBuffer(values, metadata)));
  return file;
}

export interface DemServer {
  server: TestServer;
  /** The dataset's elevation store, opened by the test beside the server's. */
  store: ElevationStore;
  datasetDir: string;
  /** Closes the store and the server. */
  close(): Promise<void>;
}

/** Imports DEMs alone (no OSM extract) into `<scratch>/data` and serves that folder. */
export async function startDemServer(scratch: string, dems: string[]): Promise<DemServer> {
  const dataDir = join(scratch, 'data');
  const { dir } = await runImport({ dataDir, osm: [], world: false, dem: dems }, () => {});
  const store = ElevationStore.open(paths.elevation(dir));
  const server = await startTestServer({ dataDir });
  return {
    server,
    store,
    datasetDir: dir,
    close: async () => {
      store.close();
      await server.close();
    },
  };
}

/** Imports Andorra's extract with its SRTM tile (no world layer) into `dataDir`; gives the dataset folder. */
export async function importAndorraWithDem(dataDir: string): Promise<string> {
  const { dir } = await runImport({ dataDir, osm: [ANDORRA_OSM], dem: [ANDORRA_DEM], world: false }, () => {});
  return dir;
}
