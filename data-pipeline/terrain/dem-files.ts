/**
 * What `--dem FILE_OR_DIR` names: SRTM tiles (`.hgt`, `.hgt.zip`) and GeoTIFF elevation rasters
 * (`.tif`, `.tiff`), given one by one or as folders of them (searched recursively; other files in a
 * folder are left alone), and the quick check of each file.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { geoTiffProblem } from './geotiff-dem.js';
import { hgtProblem } from './hgt.js';

export type DemKind = 'hgt' | 'hgt.zip' | 'geotiff';

export const DEM_EXTENSIONS = '.hgt, .hgt.zip, .tif or .tiff';

/** The kind of DEM a file name says, or null. */
export function demKind(path: string): DemKind | null {
  const name = basename(path).toLowerCase();
  if (name.endsWith('.hgt')) return 'hgt';
  if (name.endsWith('.hgt.zip')) return 'hgt.zip';
  if (name.endsWith('.tif') || name.endsWith('.tiff')) return 'geotiff';
  return null;
}

/** The DEM files of an input: the file itself, or a folder's DEM files at any depth, in name order. */
export async function demFiles(input: string): Promise<string[]> {
  if (!(await stat(input)).isDirectory()) return [input];
  const entries = await readdir(input, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory() && demKind(entry.name) !== null)
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Why `file` is not a DEM Waymark reads (its kind, name, size, zip directory or GeoTIFF header), or null. */
export async function demFileProblem(file: string): Promise<string | null> {
  const kind = demKind(file);
  if (kind === null) return `not a DEM: Waymark reads SRTM tiles (.hgt, .hgt.zip) and GeoTIFF elevation rasters (.tif, .tiff)`;
  return kind === 'geotiff' ? geoTiffProblem(file) : hgtProblem(file, kind === 'hgt.zip');
}
