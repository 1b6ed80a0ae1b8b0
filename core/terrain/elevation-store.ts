/**
 * Reads a dataset's elevation store (elevation-file.ts): elevations at points, bilinear between
 * the four samples around each, and grids of them for tiles. The directory is read when the store
 * is opened; blocks are read from the file as they are first needed and kept in a bounded cache
 * (about the least recently used out first), so memory does not grow with the store. A block in
 * the cache answers a point in well under a microsecond; one not in it costs a read of 113 KiB
 * (from the OS's page cache, mostly).
 *
 * Where grids of several resolutions overlap, the finest answers; where it lacks one of the four
 * samples a point needs (its edge, a gap), the next coarser one that has them does. Outside every
 * grid there is no elevation: null, or NaN in a grid of samples.
 *
 * Synchronous, like the server's other dataset reads (MBTiles, the geocoder index), and usable in
 * worker threads: each opens its own.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  BLOCK_BYTES,
  BLOCK_CELLS,
  BLOCK_HEADER_BYTES,
  BLOCK_SAMPLES,
  BLOCK_SIDE,
  cellDiagonalMetres,
  latticeIndex,
  NO_DATA,
  TRAILER_BYTES,
  TRAILER_MAGIC,
  align8,
  unionOfBounds,
  type GridDirectory,
  type StoreDirectory,
} from './elevation-file.js';

/** A grid of the store as its users see it. */
export interface ElevationGridInfo {
  /** [longitude, latitude] spacing of the samples, in degrees (1/1200 for SRTM 3″). */
  step: [number, number];
  /** [west, south, east, north] of the grid's samples. */
  bounds: [number, number, number, number];
}

/** An elevation and the spacing of the samples it comes from, in metres. */
export interface ElevationSample {
  elevation: number;
  resolution: number;
}

/** Blocks the cache keeps unless told otherwise: 256 × 113 KiB ≈ 28 MiB. */
const DEFAULT_CACHE_BLOCKS = 256;

interface Grid {
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

interface CachedBlock {
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

export class ElevationStore {
  /** Finest first. */
  readonly grids: readonly ElevationGridInfo[];
  /** [west, south, east, north] of every grid's samples together. */
  readonly bounds: [number, number, number, number];
  private readonly parts: Grid[];
  /** In the order read, or last given a second chance: the sweep evicts from the front. */
  private readonly cache = new Map<number, CachedBlock>();
  /** The block used last: runs of look-ups in one block skip the cache's bookkeeping. */
  private recentKey = -1;
  private recent: CachedBlock | null = null;
  /** What `answer` found: the grid (null: none) and the value. */
  private answerGrid: Grid | null = null;
  private answerValue = Number.NaN;
  private fd: number | null;

  private constructor(
    fd: number,
    directory: StoreDirectory,
    parts: Grid[],
    private readonly cacheBlocks: number,
  ) {
    this.fd = fd;
    this.parts = parts;
    this.grids = directory.grids.map(({ step, bounds }) => ({ step, bounds }));
    this.bounds = unionOfBounds(parts.map((grid) => grid.bounds));
  }

  /** Opens the store in `file`; `cacheBlocks` bounds the blocks held in memory (113 KiB each). */
  static open(file: string, options: { cacheBlocks?: number } = {}): ElevationStore {
    const fd = openSync(file, 'r');
    try {
      const { directory, parts } = readDirectory(fd, file);
      return new ElevationStore(fd, directory, parts, Math.max(4, options.cacheBlocks ?? DEFAULT_CACHE_BLOCKS));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The elevation at a point in metres, bilinear between the four samples around it; null where no grid has them. */
  elevationAt(lon: number, lat: number): number | null {
    this.answer(lon, lat);
    return this.answerGrid === null ? null : this.answerValue;
  }

  /**
   * The elevation at a point and its resolution: the distance in metres between the farthest two
   * of the samples it is interpolated between (the diagonal of the grid's cell there, as Google's
   * Elevation API reports it); null where there is no elevation.
   */
  sampleAt(lon: number, lat: number): ElevationSample | null {
    this.answer(lon, lat);
    const grid = this.answerGrid;
    return grid === null ? null : { elevation: this.answerValue, resolution: cellDiagonalMetres([grid.stepLon, grid.stepLat], lat) };
  }

  /** Finds the grid answering at a point and its value there (fields, not an object: no allocation per look-up). */
  private answer(lon: number, lat: number): void {
    this.answerGrid = null;
    for (const grid of this.parts) {
      const value = this.interpolate(
        grid,
        latticeIndex(lon, grid.originLon, grid.stepLon),
        latticeIndex(lat, grid.originLat, grid.stepLat),
      );
      if (Number.isNaN(value)) continue;
      this.answerGrid = grid;
      this.answerValue = value;
      return;
    }
  }

  /**
   * Elevations at every crossing of `lons` (columns) and `lats` (rows), row after row: the value
   * at (lons[c], lats[r]) is `out[r · lons.length + c]`; NaN where there is none. Any grid whose
   * columns share their longitudes and rows their latitudes fits — a bounding box's pixels
   * (`bboxAxes`), a web-mercator tile's (`tileAxes`). The same values as `elevationAt` at each
   * crossing, computed row by row: each column's block, cell and weight once per grid, each row's
   * once, then for each run of columns in one block the block is looked up once and its samples
   * read in a plain loop. A sample the finest grid cannot answer so (its block missing, a gap, an
   * edge) is looked up alone, as `elevationAt` does.
   */
  sampleGrid(lons: ArrayLike<number>, lats: ArrayLike<number>, out = new Float32Array(lons.length * lats.length)): Float32Array {
    const axes = this.gridAxes(lons, lats, out);
    const grid = this.parts[0]!;
    const { block: blockX, cell: cellX, weight: weightX } = axes.columns[0]!;
    const { block: blockY, cell: cellY, weight: weightY } = axes.rows[0]!;
    const width = lons.length;
    for (let r = 0; r < lats.length; r++) {
      const at = r * width;
      const by = blockY[r]!;
      const ty = weightY[r]!;
      const rowStart = cellY[r]! * BLOCK_SIDE;
      let c = 0;
      while (c < width) {
        const bx = blockX[c]!;
        let end = c + 1;
        while (end < width && blockX[end] === bx) end++;
        const block = by < 0 || bx < 0 || bx >= grid.keySpan ? null : this.block(grid, by * grid.keySpan + bx);
        if (block === null) {
          for (; c < end; c++) out[at + c] = this.sampleAcross(axes, c, r);
          continue;
        }
        while (c < end) {
          c = interpolateRun(block, rowStart, ty, cellX, weightX, c, end, out, at);
          // A sample the block lacks (NO_DATA): alone, through the coarser grids.
          if (c < end) {
            out[at + c] = this.sampleAcross(axes, c, r);
            c++;
          }
        }
      }
    }
    return out;
  }

  /**
   * What `sampleGrid` answers, one look-up per sample through every grid in turn: the reference
   * its row-wise reading is tested and benchmarked against.
   */
  sampleGridPointwise(lons: ArrayLike<number>, lats: ArrayLike<number>, out = new Float32Array(lons.length * lats.length)): Float32Array {
    const axes = this.gridAxes(lons, lats, out);
    for (let r = 0; r < lats.length; r++) for (let c = 0; c < lons.length; c++) out[r * lons.length + c] = this.sampleAcross(axes, c, r);
    return out;
  }

  /** The lattice positions of a grid of samples' columns and rows, per grid; checks `out` is large enough. */
  private gridAxes(lons: ArrayLike<number>, lats: ArrayLike<number>, out: Float32Array): GridAxes {
    if (out.length < lons.length * lats.length)
      throw new RangeError(`sampleGrid: out holds ${out.length} values, the grid has ${lons.length * lats.length}`);
    return {
      columns: this.parts.map((grid) => axisPositions(lons, grid.originLon, grid.stepLon)),
      rows: this.parts.map((grid) => axisPositions(lats, grid.originLat, grid.stepLat)),
    };
  }

  /** The value at column c and row r of a grid of samples: the first grid answering, as `elevationAt`. */
  private sampleAcross({ columns, rows }: GridAxes, c: number, r: number): number {
    for (let g = 0; g < this.parts.length; g++) {
      const value = this.interpolate(this.parts[g]!, columns[g]!.index[c]!, rows[g]!.index[r]!);
      if (!Number.isNaN(value)) return value;
    }
    return NaN;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.cache.clear();
    this.recentKey = -1;
    this.recent = null;
  }

  /** Bilinear at fractional lattice indices (fx, fy); NaN when the grid lacks a sample with weight. */
  private interpolate(grid: Grid, fx: number, fy: number): number {
    if (!(fx >= 0 && fy >= 0)) return NaN; // also NaN positions
    const bx = Math.floor(fx / BLOCK_CELLS);
    const by = Math.floor(fy / BLOCK_CELLS);
    if (bx >= grid.keySpan) return NaN;
    let cx = fx - bx * BLOCK_CELLS;
    let cy = fy - by * BLOCK_CELLS;
    let block = this.block(grid, by * grid.keySpan + bx);
    if (block === null) {
      // A point on the block's west or south edge: that edge is also the east or north edge of the
      // block before, which is where an import stores it when the block itself has nothing more.
      const west = cx === 0 && bx > 0;
      const south = cy === 0 && by > 0;
      if (west) block = this.block(grid, by * grid.keySpan + bx - 1);
      if (block === null && south) block = this.block(grid, (by - 1) * grid.keySpan + bx);
      if (block === null && west && south) block = this.block(grid, (by - 1) * grid.keySpan + bx - 1);
      if (block === null) return NaN;
      if (block.key % grid.keySpan !== bx) cx = BLOCK_CELLS;
      if (Math.floor(block.key / grid.keySpan) !== by) cy = BLOCK_CELLS;
    }
    const c0 = Math.floor(cx);
    const r0 = Math.floor(cy);
    const tx = cx - c0;
    const ty = cy - r0;
    const { q } = block;
    const i = r0 * BLOCK_SIDE + c0;
    // A sample of weight 0 is not read, so that a point on a grid's last row or column has a value.
    const q00 = q[i]!;
    const q10 = tx === 0 ? q00 : q[i + 1]!;
    const q01 = ty === 0 ? q00 : q[i + BLOCK_SIDE]!;
    const q11 = tx === 0 ? q01 : ty === 0 ? q10 : q[i + BLOCK_SIDE + 1]!;
    if (q00 === NO_DATA || q10 === NO_DATA || q01 === NO_DATA || q11 === NO_DATA) return NaN;
    const south = q00 + (q10 - q00) * tx;
    const north = q01 + (q11 - q01) * tx;
    return (block.base + (south + (north - south) * ty) * block.unit) / 10;
  }

  /** The block of `key` in `grid`, from the cache or the file; null when the grid has none there. */
  private block(grid: Grid, key: number): CachedBlock | null {
    const cacheKey = grid.cacheOffset + key;
    if (cacheKey === this.recentKey) return this.recent;
    let block = this.cache.get(cacheKey);
    if (block !== undefined) block.used = true;
    else {
      block = this.readBlock(grid, key, cacheKey) ?? undefined;
      if (block === undefined) return null;
    }
    this.recentKey = cacheKey;
    this.recent = block;
    return block;
  }

  /**
   * Drops one block: the first, from the front, not used since the sweep last passed it; a used one
   * is moved to the back, unmarked (the "second chance" approximation of least recently used: a
   * hit only sets a flag, it never reorders the cache).
   */
  private evictOne(): void {
    for (const [key, block] of this.cache) {
      this.cache.delete(key);
      if (!block.used) return;
      block.used = false;
      this.cache.set(key, block);
    }
  }

  /** Reads the block of `key` from the file into the cache; null when the grid has none there. */
  private readBlock(grid: Grid, key: number, cacheKey: number): CachedBlock | null {
    const slot = findSlot(grid, key);
    if (slot < 0) return null;
    if (this.fd === null) throw new Error('the elevation store is closed');
    const bytes = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    readFully(this.fd, bytes, slot * BLOCK_BYTES);
    const block: CachedBlock = {
      key,
      used: false,
      base: bytes.readInt32LE(0),
      unit: bytes.readUInt16LE(4),
      q: new Int16Array(bytes.buffer, bytes.byteOffset + BLOCK_HEADER_BYTES, BLOCK_SAMPLES),
    };
    if (this.cache.size >= this.cacheBlocks) this.evictOne();
    this.cache.set(cacheKey, block);
    return block;
  }
}

/**
 * Bilinear values of columns `from`..`to` − 1 of one row of a grid of samples, all in `block`,
 * into `out` from `at + from`, computed as `interpolate` does (the same arithmetic, so the same
 * values to the bit; a copy of its few lines, since a shared function call here halves the speed);
 * stops at the first column the block lacks a sample for (NO_DATA) and returns it, else `to`.
 * A function of its own, on typed arrays only, so that V8 compiles the loop tight.
 */
function interpolateRun(
  block: CachedBlock,
  rowStart: number,
  ty: number,
  cells: Int32Array,
  weights: Float64Array,
  from: number,
  to: number,
  out: Float32Array,
  at: number,
): number {
  const { q, base, unit } = block;
  for (let c = from; c < to; c++) {
    const tx = weights[c]!;
    const i = rowStart + cells[c]!;
    const q00 = q[i]!;
    const q10 = tx === 0 ? q00 : q[i + 1]!;
    const q01 = ty === 0 ? q00 : q[i + BLOCK_SIDE]!;
    const q11 = tx === 0 ? q01 : ty === 0 ? q10 : q[i + BLOCK_SIDE + 1]!;
    if (q00 === NO_DATA || q10 === NO_DATA || q01 === NO_DATA || q11 === NO_DATA) return c;
    const south = q00 + (q10 - q00) * tx;
    const north = q01 + (q11 - q01) * tx;
    out[at + c] = (base + (south + (north - south) * ty) * unit) / 10;
  }
  return to;
}

/** Where the samples of one axis (columns or rows) of a grid of samples lie on one grid's lattice. */
interface AxisPositions {
  /** The fractional lattice index (`latticeIndex`). */
  index: Float64Array;
  /** The block along the axis; -1 before the lattice's start, where the position is NaN, or absurdly far. */
  block: Int32Array;
  /** The cell in the block, and the weight of the cell's far sample (as `interpolate` computes them). */
  cell: Int32Array;
  weight: Float64Array;
}

interface GridAxes {
  /** Per grid of the store. */
  columns: AxisPositions[];
  rows: AxisPositions[];
}

function axisPositions(values: ArrayLike<number>, origin: number, step: number): AxisPositions {
  const positions: AxisPositions = {
    index: new Float64Array(values.length),
    block: new Int32Array(values.length),
    cell: new Int32Array(values.length),
    weight: new Float64Array(values.length),
  };
  for (let i = 0; i < values.length; i++) {
    const index = latticeIndex(values[i]!, origin, step);
    positions.index[i] = index;
    // Past 2^31 blocks an Int32Array would wrap round: no lattice is that large.
    if (!(index >= 0 && index < 2 ** 31)) {
      positions.block[i] = -1;
      continue;
    }
    const block = Math.floor(index / BLOCK_CELLS);
    const inBlock = index - block * BLOCK_CELLS;
    const cell = Math.floor(inBlock);
    positions.block[i] = block;
    positions.cell[i] = cell;
    positions.weight[i] = inBlock - cell;
  }
  return positions;
}

/** The slot of `key` in the grid's sorted keys, or -1. */
function findSlot(grid: Grid, key: number): number {
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
function readDirectory(fd: number, file: string): { directory: StoreDirectory; parts: Grid[] } {
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
