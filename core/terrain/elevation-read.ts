/**
 * Reading the elevation store's file (elevation-file.ts) for ElevationStore: the trailer and
 * directory (the grids, their block keys and slots), and one block by its slot.
 */
import { fstatSync, readSync } from 'node:fs';
import {
  BLOCK_BYTES,
  BLOCK_HEADER_BYTES,
  BLOCK_SAMPLES,
  TRAILER_BYTES,
  TRAILER_MAGIC,
  align8,
  type GridDirectory,
  type StoreDirectory,
} from './elevation-file.js';

/** A grid of the store as the reader keeps it: its lattice, and where its blocks are in the file. */
export interface Grid {
  originLon: number;
  originLat: number;
  stepLon: number;
  stepLat: number;
  keySpan: number;
  bounds: [number, number, number, number];
  keys: Float64Array;
  slots: Uint32Array;
  /** Added to a block key to make it unique across grids in the cache. */
  cacheOffset: number;
}

/** A block read from the file, as the store's cache keeps it. */
export interface CachedBlock {
  /** Its key in its grid. */
  key: number;
  /** Used since the eviction sweep last passed it (the sweep's second chance). */
  used: boolean;
  base: number;
  unit: number;
  q: Int16Array;
}

/** Room for any grid's block keys (they stay far below 2^33) in one numeric cache key. */
const CACHE_KEY_STRIDE = 2 ** 33;

/** The block in `slot` of the file, as the cache keeps it under `key`. */
export function readBlockAt(fd: number, slot: number, key: number): CachedBlock {
  const bytes = Buffer.allocUnsafeSlow(BLOCK_BYTES);
  readFully(fd, bytes, slot * BLOCK_BYTES);
  return {
    key,
    used: false,
    base: bytes.readInt32LE(0),
    unit: bytes.readUInt16LE(4),
    q: new Int16Array(bytes.buffer, bytes.byteOffset + BLOCK_HEADER_BYTES, BLOCK_SAMPLES),
  };
}

/** The slot of `key` in the grid's sorted keys, or -1. */
export function findSlot(grid: Grid, key: number): number {
  const { keys } = grid;
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = keys[middle]!;
    if (found === key) return grid.slots[middle]!;
    if (found < key) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const read = readSync(fd, into, done, into.length - done, position + done);
    if (read === 0) throw new Error(`the elevation store ends early (at byte ${position + done})`);
    done += read;
  }
}

/** The trailer and directory at the end of the file: the grids, their block keys and slots. */
export function readDirectory(fd: number, file: string): { directory: StoreDirectory; parts: Grid[] } {
  const size = fstatSync(fd).size;
  const notAStore = (why: string) => new Error(`${file} is not a Waymark elevation store: ${why}`);
  if (size < TRAILER_BYTES) throw notAStore('it is too short');
  const trailer = Buffer.alloc(TRAILER_BYTES);
  readFully(fd, trailer, size - TRAILER_BYTES);
  if (trailer.toString('latin1', 0, 8) !== TRAILER_MAGIC) throw notAStore('its trailer is not there (an unfinished write?)');
  const offset = trailer.readDoubleLE(8);
  const length = trailer.readDoubleLE(16);
  if (!(offset >= 0 && length > 4 && offset + length <= size - TRAILER_BYTES)) throw notAStore('its directory lies outside the file');
  const bytes = Buffer.allocUnsafeSlow(length);
  readFully(fd, bytes, offset);
  const jsonLength = bytes.readUInt32LE(0);
  const directory = JSON.parse(bytes.toString('utf8', 4, 4 + jsonLength)) as StoreDirectory;
  if (directory.formatVersion !== 1) throw notAStore(`its format version is ${directory.formatVersion}, this Waymark reads 1`);
  if (directory.grids.length === 0) throw notAStore('it holds no grid');
  let at = align8(4 + jsonLength);
  const parts = directory.grids.map((grid: GridDirectory, index): Grid => {
    const keys = new Float64Array(bytes.buffer, bytes.byteOffset + at, grid.blocks);
    at += 8 * grid.blocks;
    const slots = new Uint32Array(bytes.buffer, bytes.byteOffset + at, grid.blocks);
    at = align8(at + 4 * grid.blocks);
    return {
      originLon: grid.origin[0],
      originLat: grid.origin[1],
      stepLon: grid.step[0],
      stepLat: grid.step[1],
      keySpan: grid.keySpan,
      bounds: grid.bounds,
      keys,
      slots,
      cacheOffset: index * CACHE_KEY_STRIDE,
    };
  });
  return { directory, parts };
}
