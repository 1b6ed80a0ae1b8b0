/**
 * Web Mercator tile arithmetic in lon/lat: the tile under a point, the tiles a box touches, a tile's
 * box. The tiler's spill and split steps place features in tiles with these.
 */
import type { BBox } from '../../core/geo/types.js';

/** A tile of the XYZ scheme. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const MAX_LAT = 85.0511287798066;

/** Tile column of a longitude at zoom z, as a fraction (not floored). */
const columnOf = (lon: number, z: number) => ((lon + 180) / 360) * 2 ** z;

/** Tile row of a latitude at zoom z, as a fraction (not floored); rows grow southward. */
function rowOf(lat: number, z: number): number {
  const sin = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 2 ** z;
}

const latOfRow = (row: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / 2 ** z))) * 180) / Math.PI;
const lonOfColumn = (column: number, z: number) => (column / 2 ** z) * 360 - 180;

/** The box of tile z/x/y grown by `margin` tile widths on every side. */
export function tileBox(z: number, x: number, y: number, margin = 0): BBox {
  return [lonOfColumn(x - margin, z), latOfRow(y + 1 + margin, z), lonOfColumn(x + 1 + margin, z), latOfRow(y - margin, z)];
}

/** The tiles of zoom z that `box` grown by `margin` tile widths touches: inclusive column and row ranges. */
export function tilesTouching(box: BBox, z: number, margin = 0): { x0: number; x1: number; y0: number; y1: number } {
  const last = 2 ** z - 1;
  const clamp = (value: number) => Math.max(0, Math.min(last, Math.floor(value)));
  return {
    x0: clamp(columnOf(box[0], z) - margin),
    x1: clamp(columnOf(box[2], z) + margin),
    y0: clamp(rowOf(box[3], z) - margin),
    y1: clamp(rowOf(box[1], z) + margin),
  };
}
