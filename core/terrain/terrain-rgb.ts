/**
 * Mapbox Terrain-RGB: an elevation in a pixel's three colour bytes, `-10000 + (R·65536 + G·256 + B) · 0.1`
 * metres (decimetres above −10,000 m, so −10,000 m to 1,667,721.5 m at 0.1 m steps). MapLibre
 * and Mapbox GL read it as a `raster-dem` source with `"encoding": "mapbox"`.
 */
import type { ElevationGridInfo } from './elevation-store.js';
import { mercatorLat } from './sample-axes.js';

/** Pixels a side of a terrain tile (as Mapbox's and MapTiler's terrain tiles). */
export const TERRAIN_TILE_SIZE = 512;

/** What a pixel without elevation (outside the DEMs' coverage) says: sea level, as Mapbox's tiles say over the sea. */
export const NO_ELEVATION_METRES = 0;

const MAX_CODE = 2 ** 24 - 1;

/** The 24-bit code of an elevation (rounded to the decimetre, clamped to the encoding's range). */
export function terrainRgbCode(metres: number): number {
  const code = Math.round((metres + 10_000) * 10);
  return Math.min(MAX_CODE, Math.max(0, code));
}

/** The elevation a pixel's R, G and B say. */
export const terrainRgbMetres = (r: number, g: number, b: number): number => -10_000 + (r * 65_536 + g * 256 + b) * 0.1;

/** RGBA pixels (opaque) of a grid of elevations, row after row; NaN (no elevation) is NO_ELEVATION_METRES. */
export function terrainRgbPixels(elevations: Float32Array): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(elevations.length * 4);
  for (let i = 0; i < elevations.length; i++) {
    const value = elevations[i]!;
    const code = terrainRgbCode(Number.isNaN(value) ? NO_ELEVATION_METRES : value);
    pixels[4 * i] = code >> 16;
    pixels[4 * i + 1] = (code >> 8) & 255;
    pixels[4 * i + 2] = code & 255;
    pixels[4 * i + 3] = 255;
  }
  return pixels;
}

/** Metres a side of a web-mercator pixel at the equator at zoom 0 for a TERRAIN_TILE_SIZE tile. */
const EQUATOR_METRES = 40_075_016.686;

/**
 * The zoom whose terrain tiles first have pixels as fine as the finest grid's samples (at the
 * equator, where mercator pixels are largest): SRTM 3″ (92.8 m) gives 10 (76 m pixels), 1″ gives 12.
 * Deeper tiles interpolate between the same samples: clients overzoom beyond it.
 */
export function terrainDataZoom(grids: readonly ElevationGridInfo[]): number {
  const finest = Math.min(...grids.map(({ step }) => Math.min(step[0], step[1])));
  const sampleMetres = (finest * EQUATOR_METRES) / 360;
  return Math.max(0, Math.ceil(Math.log2(EQUATOR_METRES / TERRAIN_TILE_SIZE / sampleMetres)));
}

/** Whether web-mercator tile z/x/y overlaps the box [west, south, east, north]. */
export function tileOverlaps(z: number, x: number, y: number, [west, south, east, north]: readonly number[]): boolean {
  const tiles = 2 ** z;
  const lon = (column: number) => (column / tiles) * 360 - 180;
  const lat = (row: number) => mercatorLat(row / tiles);
  return lon(x) < east! && lon(x + 1) > west! && lat(y + 1) < north! && lat(y) > south!;
}
