/**
 * The row-by-row reading of ElevationStore.sampleGrid: where the columns and rows of a grid of
 * samples lie on each of the store's grids (axisPositions), and the values of a run of one row that
 * lies in one block (interpolateRun).
 */
import { BLOCK_CELLS, BLOCK_SIDE, latticeIndex, NO_DATA } from './elevation-file.js';
import type { CachedBlock } from './elevation-read.js';

/**
 * Bilinear values of columns `from`..`to` − 1 of one row of a grid of samples, all in `block`,
 * into `out` from `at + from`, computed as ElevationStore's `interpolate` does (the same
 * arithmetic, so the same values to the bit; a copy of its few lines, since a shared function call
 * here halves the speed); stops at the first column the block lacks a sample for (NO_DATA) and
 * returns it, else `to`.
 * A function of its own, on typed arrays only, so that V8 compiles the loop tight.
 */
export function interpolateRun(
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

export interface GridAxes {
  /** Per grid of the store. */
  columns: AxisPositions[];
  rows: AxisPositions[];
}

export function axisPositions(values: ArrayLike<number>, origin: number, step: number): AxisPositions {
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
