/**
 * The elevation store's file format (`elevation.dem` in a dataset), shared by the import that
 * writes it (data-pipeline/terrain/) and the reader (elevation-store.ts, its file reads in
 * elevation-read.ts).
 *
 * Elevations are kept on **grids**: regular longitude/latitude lattices, one per resolution and
 * alignment (all SRTM 3″ tiles share one grid, SRTM 1″ tiles another, a GeoTIFF gets the grid of
 * its own spacing and alignment). Sample (ix, iy) of a grid lies at
 * `origin + (ix·step[0], iy·step[1])`, iy growing northwards; the origin is the first lattice point
 * at or west/south of (-180°, -90°), so every input of one spacing and alignment lands on the same
 * indices wherever it is.
 *
 * A grid is cut into **blocks** of BLOCK_CELLS × BLOCK_CELLS cells (240: 1° of SRTM 3″ is 5 × 5
 * blocks, of SRTM 1″ 15 × 15, and the blocks of neighbouring tiles meet on their shared edge). A
 * block stores (BLOCK_CELLS + 1)² samples: its cells' corners, including the row and column it
 * shares with its northern and eastern neighbours, so that the four samples around any point are
 * in one block and a bilinear look-up reads one block. A sample on a block edge is in both blocks
 * beside it; an import stores a block only where it has more than that edge of it (a tile's last
 * row is its own blocks' top edge, not a block of one row), and a reader looks for such a sample
 * in the block before when the block after is not there. Samples are int16 steps above a
 * per-block base, in decimetres — `metres = (base + q·unit) / 10`, unit 1 dm unless the block's
 * range needs more — and NO_DATA (-32768) where the grid has no sample. Only blocks holding data
 * are stored.
 *
 *   file    = block* directory trailer
 *   block   = int32 base (dm), uint16 unit (dm), uint16 0, int16 q[(BLOCK_CELLS+1)²] (rows south→north)
 *   directory = uint32 jsonLength, JSON (`StoreDirectory`), zero padding to 8 bytes, then per grid:
 *               float64 keys[blocks] (ascending; key = by·keySpan + bx), uint32 slots[blocks], padding to 8
 *   trailer = "WMDEM001", float64 directory offset, float64 directory length, 16 zero bytes
 *
 * Block `slot` k starts at byte k·BLOCK_BYTES. Everything is little-endian. The blocks are written
 * as the import makes them and the directory last, so the writer never moves data.
 */
import type { BBox } from '../geo/types.js';

export const BLOCK_CELLS = 240;
/** Samples per block side: the cells' corners, shared edges included. */
export const BLOCK_SIDE = BLOCK_CELLS + 1;
export const BLOCK_SAMPLES = BLOCK_SIDE * BLOCK_SIDE;
export const BLOCK_HEADER_BYTES = 8;
export const BLOCK_BYTES = BLOCK_HEADER_BYTES + 2 * BLOCK_SAMPLES;
export const NO_DATA = -32768;
export const TRAILER_MAGIC = 'WMDEM001';
export const TRAILER_BYTES = 40;

/** A grid's lattice: where sample (0, 0) lies and the spacing, in degrees. */
export interface Lattice {
  /** [lon, lat] of sample (0, 0). */
  origin: [number, number];
  /** [longitude, latitude] spacing between samples. */
  step: [number, number];
}

/** One grid as the directory describes it. */
export interface GridDirectory extends Lattice {
  /** Blocks per row of the lattice: a block's key is by·keySpan + bx. */
  keySpan: number;
  blocks: number;
  /** [west, south, east, north] of the grid's samples. */
  bounds: BBox;
  /** How many input files went into this grid. */
  files: number;
}

export interface StoreDirectory {
  formatVersion: 1;
  /** Finest first: the order a reader asks them in. */
  grids: GridDirectory[];
}

/** Degrees are compared to this: lattice positions computed in floating point differ by far less. */
const DEGREE_EPSILON = 1e-9;

/** The lattice through `lon, lat` with `step`, its origin moved to the first point at or before (-180, -90). */
export function latticeThrough(lon: number, lat: number, step: [number, number]): Lattice {
  const originOf = (value: number, start: number, spacing: number) => {
    const phase = (((value - start) % spacing) + spacing) % spacing;
    return phase < DEGREE_EPSILON || phase > spacing - DEGREE_EPSILON ? start : start + phase - spacing;
  };
  return { origin: [originOf(lon, -180, step[0]), originOf(lat, -90, step[1])], step };
}

/** Whether two lattices are the same (one grid). */
export function sameLattice(a: Lattice, b: Lattice): boolean {
  const close = (x: number, y: number) => Math.abs(x - y) < DEGREE_EPSILON;
  return close(a.step[0], b.step[0]) && close(a.step[1], b.step[1]) && close(a.origin[0], b.origin[0]) && close(a.origin[1], b.origin[1]);
}

/** Blocks per row of a lattice's key space (the whole world, plus one for the origin's offset). */
export const keySpanOf = (lattice: Lattice): number => Math.ceil(360 / lattice.step[0] / BLOCK_CELLS) + 2;

/**
 * A fractional lattice index, snapped to the nearest whole one when within floating-point noise of
 * it: a position computed from a sample's index (`origin + i·step`) comes back as exactly `i`.
 */
export function latticeIndex(value: number, origin: number, step: number): number {
  const index = (value - origin) / step;
  const whole = Math.round(index);
  return Math.abs(index - whole) < 1e-7 ? whole : index;
}

/** The block codec: a block's samples in metres (NaN: no data) to its stored form and back. */
export interface EncodedBlock {
  base: number;
  unit: number;
  samples: Int16Array;
}

/** Encodes BLOCK_SAMPLES elevations in metres (NaN where there is none) at decimetre precision. */
export function encodeBlock(metres: Float32Array | Float64Array): EncodedBlock {
  let min = Infinity;
  let max = -Infinity;
  for (const value of metres) {
    if (Number.isNaN(value)) continue;
    const dm = Math.round(value * 10);
    if (dm < min) min = dm;
    if (dm > max) max = dm;
  }
  const samples = new Int16Array(BLOCK_SAMPLES).fill(NO_DATA);
  if (min === Infinity) return { base: 0, unit: 1, samples };
  const unit = Math.max(1, Math.ceil((max - min) / 65534));
  const base = min + 32767 * unit;
  for (let i = 0; i < BLOCK_SAMPLES; i++) {
    const value = metres[i]!;
    if (!Number.isNaN(value)) samples[i] = Math.round((Math.round(value * 10) - base) / unit);
  }
  return { base, unit, samples };
}

/** One stored sample in metres, or NaN for no data. Division by 10 keeps whole metres exact. */
export const decodeSample = (q: number, base: number, unit: number): number => (q === NO_DATA ? NaN : (base + q * unit) / 10);

/** A block's bytes as stored. */
export function blockBytes(block: EncodedBlock): Uint8Array {
  const bytes = new Uint8Array(BLOCK_BYTES);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, block.base, true);
  view.setUint16(4, block.unit, true);
  new Int16Array(bytes.buffer, BLOCK_HEADER_BYTES, BLOCK_SAMPLES).set(block.samples);
  return bytes;
}

/** A block read from its bytes (a view, not a copy: `bytes` must start at an even offset). */
export function blockFromBytes(bytes: Uint8Array): EncodedBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, BLOCK_HEADER_BYTES);
  return {
    base: view.getInt32(0, true),
    unit: view.getUint16(4, true),
    samples: new Int16Array(bytes.buffer, bytes.byteOffset + BLOCK_HEADER_BYTES, BLOCK_SAMPLES),
  };
}

/** The box around boxes [west, south, east, north]. */
export function unionOfBounds(boxes: readonly BBox[]): BBox {
  return [
    Math.min(...boxes.map((box) => box[0])),
    Math.min(...boxes.map((box) => box[1])),
    Math.max(...boxes.map((box) => box[2])),
    Math.max(...boxes.map((box) => box[3])),
  ];
}

export const align8 = (offset: number): number => Math.ceil(offset / 8) * 8;

/** Metres per degree of latitude on the WGS84 mean sphere. */
export const METRES_PER_DEGREE = (6371008.8 * Math.PI) / 180;

/**
 * The distance between the farthest two of the four samples around a point at `lat` (a cell's
 * diagonal), in metres: what Google's Elevation API calls a result's resolution.
 */
export function cellDiagonalMetres(step: [number, number], lat: number): number {
  const east = step[0] * METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const north = step[1] * METRES_PER_DEGREE;
  return Math.hypot(east, north);
}
