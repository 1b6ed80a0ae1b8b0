/**
 * SRTM height tiles (`.hgt`, or a `.hgt.zip` holding one): a square of big-endian int16 metres,
 * 1201 × 1201 samples (3 arc-seconds) or 3601 × 3601 (1 arc-second), rows from north to south,
 * covering the 1° square whose south-west corner the name gives (`N43E007`: 43°N 7°E) with its
 * edges — a tile's last row and column are its neighbours' first. -32768 marks a void (no
 * measurement).
 */
import { stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { latticeThrough } from '../../core/terrain/elevation-file.js';
import type { RasterPiece } from './raster-piece.js';
import { readZipEntry, zipEntries, type ZipEntry } from './zip.js';

const SIDES = [1201, 3601];
const VOID = -32768;
const CORNER = /^([NS])(\d{2})([EW])(\d{3})/i;

/** The south-west corner a tile's name gives (`N43E007…` → [7, 43]), or null. */
export function hgtCorner(path: string): [number, number] | null {
  const match = CORNER.exec(basename(path));
  if (!match) return null;
  const lat = Number(match[2]) * (match[1]!.toUpperCase() === 'S' ? -1 : 1);
  const lon = Number(match[4]) * (match[3]!.toUpperCase() === 'W' ? -1 : 1);
  return lat >= -90 && lat < 90 && lon >= -180 && lon < 180 ? [lon, lat] : null;
}

/** The samples per side of a tile of `bytes` bytes, or null for a size no SRTM tile has. */
export const hgtSide = (bytes: number): number | null => SIDES.find((side) => side * side * 2 === bytes) ?? null;

const sizes = SIDES.map((side) => `${(side * side * 2).toLocaleString('en-US')} bytes (${side} × ${side})`).join(' or ');
const cornerProblem = (path: string) =>
  hgtCorner(path) === null ? `its name does not give the tile's south-west corner, as SRTM names them (e.g. N43E007.hgt)` : null;
const sizeProblem = (bytes: number) =>
  hgtSide(bytes) === null ? `${bytes.toLocaleString('en-US')} bytes is not the size of an SRTM tile: ${sizes}` : null;

/** The one `.hgt` entry of a `.hgt.zip`; throws why there is none. */
async function hgtEntry(path: string): Promise<ZipEntry> {
  const entries = (await zipEntries(path)).filter((entry) => entry.name.toLowerCase().endsWith('.hgt'));
  if (entries.length !== 1)
    throw new Error(entries.length === 0 ? 'the zip holds no .hgt file' : `the zip holds ${entries.length} .hgt files; one is expected`);
  return entries[0]!;
}

/** Why an `.hgt` or `.hgt.zip` file is not an SRTM tile (name, size; a zip's directory), or null. Reads only a zip's directory. */
export async function hgtProblem(path: string, zipped: boolean): Promise<string | null> {
  const corner = cornerProblem(path);
  if (corner) return corner;
  if (!zipped) return sizeProblem((await stat(path)).size);
  try {
    return sizeProblem((await hgtEntry(path)).size);
  } catch (error) {
    return (error as Error).message;
  }
}

/** Samples the tile will hold (for progress and the disk estimate), from its size alone. */
export async function hgtSamples(path: string, zipped: boolean): Promise<number> {
  const bytes = zipped ? (await hgtEntry(path)).size : (await stat(path)).size;
  return bytes / 2;
}

/** The tile as a raster piece: metres, NaN for voids. */
export async function readHgt(path: string, zipped: boolean): Promise<RasterPiece> {
  const bytes = zipped ? await readZipEntry(path, await hgtEntry(path)) : await readFile(path);
  const side = hgtSide(bytes.length);
  const corner = hgtCorner(path);
  if (side === null || corner === null) throw new Error(cornerProblem(path) ?? sizeProblem(bytes.length)!);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(side * side);
  for (let i = 0; i < values.length; i++) {
    const value = view.getInt16(2 * i, false);
    values[i] = value === VOID ? NaN : value;
  }
  const step = 1 / (side - 1);
  const [lon, lat] = corner;
  // Row 0 is the north edge (lat + 1), column 0 the west edge.
  return { lattice: latticeThrough(lon, lat, [step, step]), west: lon, north: lat + 1, width: side, height: side, values };
}
