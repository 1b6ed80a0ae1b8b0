/**
 * Writes the elevation store (core/terrain/elevation-file.ts) on the main thread as the pool's
 * pieces come in: a new block is appended, a block that an earlier piece began (the edges SRTM
 * tiles share, a GeoTIFF's windows meeting inside a block) is read back and completed — the
 * samples it has stay, so where inputs overlap on one grid the one given first wins. The directory
 * and trailer are written last. Memory: a map entry per block.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import {
  align8,
  BLOCK_BYTES,
  BLOCK_SAMPLES,
  blockBytes,
  blockFromBytes,
  decodeSample,
  encodeBlock,
  keySpanOf,
  sameLattice,
  TRAILER_BYTES,
  TRAILER_MAGIC,
  type GridDirectory,
  type Lattice,
  type StoreDirectory,
} from '../../core/terrain/elevation-file.js';
import type { PieceBlocks } from './raster-piece.js';

interface GridBuild {
  lattice: Lattice;
  keySpan: number;
  slots: Map<number, number>;
  /** [min ix, min iy, max ix, max iy] of the samples with data. */
  extent: [number, number, number, number];
  files: Set<string>;
}

export class ElevationStoreWriter {
  private fd: number | null;
  private blocks = 0;
  private readonly grids: GridBuild[] = [];

  constructor(file: string) {
    this.fd = openSync(file, 'w+');
  }

  /** Adds a piece of `file`'s samples on `lattice`. */
  add(lattice: Lattice, file: string, piece: PieceBlocks): void {
    if (piece.extent === null) return;
    const grid = this.gridOf(lattice);
    grid.files.add(file);
    const [minX, minY, maxX, maxY] = piece.extent;
    grid.extent = [
      Math.min(grid.extent[0], minX),
      Math.min(grid.extent[1], minY),
      Math.max(grid.extent[2], maxX),
      Math.max(grid.extent[3], maxY),
    ];
    piece.keys.forEach((key, k) => {
      const bytes = piece.bytes.subarray(k * BLOCK_BYTES, (k + 1) * BLOCK_BYTES);
      const slot = grid.slots.get(key);
      if (slot === undefined) {
        grid.slots.set(key, this.blocks);
        this.write(bytes, this.blocks++ * BLOCK_BYTES);
      } else {
        const merged = this.completed(slot, bytes);
        if (merged !== null) this.write(merged, slot * BLOCK_BYTES);
      }
    });
  }

  /** Writes the directory and trailer and closes the file; the directory as written. */
  finish(): StoreDirectory {
    const grids = [...this.grids].sort((a, b) => a.lattice.step[0] * a.lattice.step[1] - b.lattice.step[0] * b.lattice.step[1]);
    const directory: StoreDirectory = { formatVersion: 1, grids: grids.map(describe) };
    const json = Buffer.from(JSON.stringify(directory));
    const parts: Uint8Array[] = [Buffer.alloc(4), json];
    parts[0]!.set(new Uint8Array(new Uint32Array([json.length]).buffer));
    let length = 4 + json.length;
    const pad = () => {
      const padding = align8(length) - length;
      parts.push(new Uint8Array(padding));
      length += padding;
    };
    pad();
    for (const grid of grids) {
      const entries = [...grid.slots].sort(([a], [b]) => a - b);
      const keys = Float64Array.from(entries, ([key]) => key);
      const slots = Uint32Array.from(entries, ([, slot]) => slot);
      parts.push(new Uint8Array(keys.buffer), new Uint8Array(slots.buffer));
      length += keys.byteLength + slots.byteLength;
      pad();
    }
    const offset = this.blocks * BLOCK_BYTES;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.write(TRAILER_MAGIC, 0, 'latin1');
    trailer.writeDoubleLE(offset, 8);
    trailer.writeDoubleLE(length, 16);
    this.write(Buffer.concat([...parts, trailer]), offset);
    this.close();
    return directory;
  }

  /** Closes the file without finishing it (a failed import deletes it). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private gridOf(lattice: Lattice): GridBuild {
    let grid = this.grids.find((candidate) => sameLattice(candidate.lattice, lattice));
    if (grid === undefined) {
      grid = {
        lattice,
        keySpan: keySpanOf(lattice),
        slots: new Map(),
        extent: [Infinity, Infinity, -Infinity, -Infinity],
        files: new Set(),
      };
      this.grids.push(grid);
    }
    return grid;
  }

  /** The stored block at `slot` with its missing samples taken from `incoming`; null when `incoming` adds none. */
  private completed(slot: number, incoming: Uint8Array): Uint8Array | null {
    const stored = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    if (readSync(this.fd!, stored, 0, BLOCK_BYTES, slot * BLOCK_BYTES) !== BLOCK_BYTES)
      throw new Error(`elevation store: block ${slot} cannot be read back`);
    const old = blockFromBytes(stored);
    const added = blockFromBytes(incoming);
    const metres = new Float32Array(BLOCK_SAMPLES);
    let changed = false;
    for (let i = 0; i < BLOCK_SAMPLES; i++) {
      const value = decodeSample(old.samples[i]!, old.base, old.unit);
      if (Number.isNaN(value)) {
        metres[i] = decodeSample(added.samples[i]!, added.base, added.unit);
        changed ||= !Number.isNaN(metres[i]!);
      } else metres[i] = value;
    }
    return changed ? blockBytes(encodeBlock(metres)) : null;
  }

  private write(bytes: Uint8Array, position: number): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, position + done);
  }
}

function describe(grid: GridBuild): GridDirectory {
  const { lattice, extent } = grid;
  const [stepLon, stepLat] = lattice.step;
  const [originLon, originLat] = lattice.origin;
  return {
    origin: lattice.origin,
    step: lattice.step,
    keySpan: grid.keySpan,
    blocks: grid.slots.size,
    bounds: [
      originLon + extent[0] * stepLon,
      originLat + extent[1] * stepLat,
      originLon + extent[2] * stepLon,
      originLat + extent[3] * stepLat,
    ],
    files: grid.files.size,
  };
}
