/**
 * One piece of DEM input on a thread of the elevation pool (build.ts): an SRTM tile, or a window of
 * a GeoTIFF, read, its voids filled (SRTM only, void-fill.ts), and cut into the store's encoded
 * blocks, which the main thread writes. The default export is the Piscina task.
 */
import type { Lattice } from '../../core/terrain/elevation-file.js';
import { readGeoTiffWindow, type GeoTiffLayout } from './geotiff-dem.js';
import { readHgt } from './hgt.js';
import { cutIntoBlocks, type PieceBlocks } from './raster-piece.js';
import { fillVoids } from './void-fill.js';

export type ElevationTask =
  | { kind: 'hgt' | 'hgt.zip'; file: string }
  | { kind: 'geotiff'; file: string; layout: GeoTiffLayout; window: [number, number, number, number] };

export interface ElevationPiece extends PieceBlocks {
  lattice: Lattice;
  /** Voids filled from their neighbours. */
  filled: number;
}

export default async function readElevationPiece(task: ElevationTask): Promise<ElevationPiece> {
  const piece =
    task.kind === 'geotiff'
      ? await readGeoTiffWindow(task.file, task.layout, task.window)
      : await readHgt(task.file, task.kind === 'hgt.zip');
  const filled = task.kind === 'geotiff' ? 0 : fillVoids(piece.values, piece.width, piece.height);
  return { lattice: piece.lattice, filled, ...cutIntoBlocks(piece) };
}
