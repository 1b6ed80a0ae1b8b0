/**
 * The columns' longitudes and rows' latitudes of the pixel grids the terrain products sample
 * (`ElevationStore.sampleGrid`): a longitude/latitude box, and a web-mercator tile, whose columns
 * share a longitude and rows a latitude too. Rows run north to south, as in an image; each value
 * is a pixel's centre.
 */

export interface SampleAxes {
  /** One per column, west to east. */
  lons: Float64Array;
  /** One per row, north to south. */
  lats: Float64Array;
}

/** `width` × `height` pixels covering the box [west, south, east, north] evenly in degrees. */
export function bboxAxes(west: number, south: number, east: number, north: number, width: number, height: number): SampleAxes {
  return {
    lons: Float64Array.from({ length: width }, (_, c) => west + ((c + 0.5) * (east - west)) / width),
    lats: Float64Array.from({ length: height }, (_, r) => north - ((r + 0.5) * (north - south)) / height),
  };
}

/** Latitude of a web-mercator y in [0, 1] (0 at the north edge). */
export const mercatorLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/**
 * The pixels of web-mercator tile z/x/y at `size` pixels a side, with `buffer` more pixels beyond
 * each edge (what contours and hillshading need to continue across tile edges): (size + 2·buffer)²
 * samples, the tile's own pixel (0, 0) at column and row `buffer`.
 */
export function tileAxes(z: number, x: number, y: number, size: number, buffer = 0): SampleAxes {
  const tiles = 2 ** z;
  const side = size + 2 * buffer;
  const at = (tile: number, pixel: number) => (tile + (pixel - buffer + 0.5) / size) / tiles;
  return {
    lons: Float64Array.from({ length: side }, (_, c) => at(x, c) * 360 - 180),
    lats: Float64Array.from({ length: side }, (_, r) => mercatorLat(at(y, r))),
  };
}
