/**
 * Reads a dataset's elevation store (elevation-file.ts): elevations at points, bilinear between
 * the four samples around each, and grids of them for tiles (row by row: grid-rows.ts). The
 * directory is read when the store is opened (elevation-read.ts); blocks are read from the file as
 * they are first needed and kept in a bounded cache (about the least recently used out first), so
 * memory does not grow with the store. A block in the cache answers a point in well under a
 * microsecond; one not in it costs a read of 113 KiB (from the OS's page cache, mostly).
 *
 * Where grids of several resolutions overlap, the finest answers; where it lacks one of the four
 * samples a point needs (its edge, a gap), the next coarser one that has them does. Outside every
 * grid there is no elevation: null, or NaN in a grid of samples.
 *
 * Synchronous, like the server's other dataset reads (MBTiles, the geocoder index), and usable in
 * worker threads: each opens its own.
 */
import { closeSync, openSync } from 'node:fs';
import {
  BLOCK_CELLS,
  BLOCK_SIDE,
  cellDiagonalMetres,
  latticeIndex,
  NO_DATA,
  type StoreDirectory,
  unionOfBounds,
} from './elevation-file.js';
import { type CachedBlock, findSlot, type Grid, readBlockAt, readDirectory } from './elevation-read.js';
import { axisPositions, type GridAxes, interpolateRun } from './grid-rows.js';

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
    const block = readBlockAt(this.fd, slot, key);
    if (this.cache.size >= this.cacheBlocks) this.evictOne();
    this.cache.set(cacheKey, block);
    return block;
  }
}
