/**
 * A rectangle of elevation samples as the import reads it from one input (an SRTM tile, a window
 * of a GeoTIFF), and its cutting into the store's blocks (core/terrain/elevation-file.ts).
 */
import {
  BLOCK_BYTES,
  BLOCK_CELLS,
  BLOCK_SAMPLES,
  BLOCK_SIDE,
  blockBytes,
  encodeBlock,
  keySpanOf,
  latticeIndex,
  type Lattice,
} from '../../core/terrain/elevation-file.js';

export interface RasterPiece {
  /** The grid the samples lie on. */
  lattice: Lattice;
  /** Longitude of column 0 and latitude of row 0, the northernmost. */
  west: number;
  north: number;
  width: number;
  height: number;
  /** Metres, row after row from north to south; NaN where there is no sample. */
  values: Float32Array;
}

/** A piece cut into blocks: their keys, their stored bytes one after another, and where its samples lie. */
export interface PieceBlocks {
  keys: Float64Array;
  /** BLOCK_BYTES per key, in the keys' order. */
  bytes: Uint8Array;
  /** [min ix, min iy, max ix, max iy] of the samples with data, or null when it has none. */
  extent: [number, number, number, number] | null;
}

/**
 * The blocks to store for samples [first, last] of one axis: those holding more of them than one
 * edge. A first sample on a block edge is that block's first (not the block before's last), a last
 * one the block before's last; a single sample is in the block it starts.
 */
function blockRange(first: number, last: number): [number, number] {
  const firstBlock = Math.floor(first / BLOCK_CELLS);
  return [firstBlock, Math.max(firstBlock, Math.ceil(last / BLOCK_CELLS) - 1)];
}

/** Cuts `piece` into the blocks of its grid that receive a sample with data. */
export function cutIntoBlocks(piece: RasterPiece): PieceBlocks {
  const { lattice, width, height, values } = piece;
  const ix0 = Math.round(latticeIndex(piece.west, lattice.origin[0], lattice.step[0]));
  const iyTop = Math.round(latticeIndex(piece.north, lattice.origin[1], lattice.step[1]));
  const keySpan = keySpanOf(lattice);
  const [bxFirst, bxLast] = blockRange(Math.max(0, ix0), Math.min(ix0 + width - 1, (keySpan - 1) * BLOCK_CELLS));
  const [byFirst, byLast] = blockRange(Math.max(0, iyTop - height + 1), iyTop);
  const keys: number[] = [];
  const blocks: Uint8Array[] = [];
  let extent: [number, number, number, number] | null = null;
  const samples = new Float32Array(BLOCK_SAMPLES);
  for (let by = byFirst; by <= byLast; by++) {
    for (let bx = bxFirst; bx <= bxLast; bx++) {
      samples.fill(NaN);
      let found = false;
      for (let r = 0; r < BLOCK_SIDE; r++) {
        const iy = by * BLOCK_CELLS + r;
        const row = iyTop - iy;
        if (row < 0 || row >= height) continue;
        for (let c = 0; c < BLOCK_SIDE; c++) {
          const column = bx * BLOCK_CELLS + c - ix0;
          if (column < 0 || column >= width) continue;
          const value = values[row * width + column]!;
          if (Number.isNaN(value)) continue;
          samples[r * BLOCK_SIDE + c] = value;
          found = true;
          const ix = column + ix0;
          if (extent === null) extent = [ix, iy, ix, iy];
          else {
            if (ix < extent[0]) extent[0] = ix;
            if (iy < extent[1]) extent[1] = iy;
            if (ix > extent[2]) extent[2] = ix;
            if (iy > extent[3]) extent[3] = iy;
          }
        }
      }
      if (!found) continue;
      keys.push(by * keySpan + bx);
      blocks.push(blockBytes(encodeBlock(samples)));
    }
  }
  const bytes = new Uint8Array(blocks.length * BLOCK_BYTES);
  blocks.forEach((block, i) => bytes.set(block, i * BLOCK_BYTES));
  return { keys: Float64Array.from(keys), bytes, extent };
}
