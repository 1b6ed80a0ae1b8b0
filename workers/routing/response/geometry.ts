/** Route and step geometries in the encoding a client asked for, and the route overview OSRM writes. */
import polyline from '@mapbox/polyline';
import type { OsrmGeometry } from './osrm.js';
import { position } from './rounding.js';
import { simplifiedIndicesOf } from './simplify.js';
import type { Geometries, Overview } from '../task.js';
import type { LonLat } from '../../../core/geo/types.js';

/** `polyline` (precision 5) and `polyline6` encode [lat, lon] pairs; `geojson` writes a LineString of [lon, lat]. */
export function encodeGeometry(coordinates: readonly LonLat[], geometries: Geometries): OsrmGeometry {
  if (geometries === 'geojson') return { type: 'LineString', coordinates: coordinates.map(position) };
  const latLon = coordinates.map(([lon, lat]): LonLat => [lat, lon]);
  return polyline.encode(latLon, geometries === 'polyline6' ? 6 : 5);
}

// OSRM fits the route into a viewport of 8 × 5 tiles of 256 pixels, at most zoom 18, and simplifies to a
// threshold that is about a third of a pixel at that zoom (its table: 512440 µ° at z0, halving per zoom).
const TILE_PIXELS = 256;
const VIEWPORT_WIDTH = 8 * TILE_PIXELS;
const VIEWPORT_HEIGHT = 5 * TILE_PIXELS;
const MAX_ZOOM = 18;
const TOLERANCE_PIXELS = 0.36;

/** Web Mercator positions in world pixels at zoom 0 (the world is 256 pixels wide), as two coordinate arrays. */
function mercatorPixels(coordinates: readonly LonLat[]): { xs: Float64Array; ys: Float64Array } {
  const xs = new Float64Array(coordinates.length);
  const ys = new Float64Array(coordinates.length);
  for (let i = 0; i < coordinates.length; i++) {
    const [lon, lat] = coordinates[i]!;
    const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
    xs[i] = ((lon + 180) / 360) * TILE_PIXELS;
    ys[i] = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * TILE_PIXELS;
  }
  return { xs, ys };
}

/** The difference between the largest and smallest value (a loop: a long route has more points than a call may take arguments). */
function extent(values: Float64Array): number {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return max - min;
}

/** The highest zoom at which the points' bounding box fits OSRM's viewport. */
function fittedZoom(xs: Float64Array, ys: Float64Array): number {
  const width = extent(xs);
  const height = extent(ys);
  let zoom = MAX_ZOOM;
  while (zoom > 0 && (width * 2 ** zoom > VIEWPORT_WIDTH || height * 2 ** zoom > VIEWPORT_HEIGHT)) zoom--;
  return zoom;
}

/**
 * The indices of the points of the route's line `overview` keeps: all of them, or Douglas–Peucker
 * to the fitted zoom; undefined for `false`.
 */
export function overviewIndices(coordinates: readonly LonLat[], overview: Overview): readonly number[] | undefined {
  if (overview === 'false') return undefined;
  if (overview === 'full') return Array.from(coordinates, (_, index) => index);
  const { xs, ys } = mercatorPixels(coordinates);
  return simplifiedIndicesOf(xs, ys, TOLERANCE_PIXELS / 2 ** fittedZoom(xs, ys));
}
