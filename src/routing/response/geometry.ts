/** Route and step geometries in the encoding a client asked for, and the route overview OSRM writes. */
import polyline from '@mapbox/polyline';
import type { Geometries, Overview } from '../sanitize/route-options.js';
import type { OsrmGeometry } from './osrm.js';
import { position } from './rounding.js';
import { simplifiedIndices } from './simplify.js';

type LonLat = [number, number];

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

/** Web Mercator position in world pixels at zoom 0 (the world is 256 pixels wide). */
function mercatorPixels([lon, lat]: LonLat): LonLat {
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  return [((lon + 180) / 360) * TILE_PIXELS, y * TILE_PIXELS];
}

/** The highest zoom at which the points' bounding box fits OSRM's viewport. */
function fittedZoom(pixels: readonly LonLat[]): number {
  // A loop rather than Math.min(...xs): a long route has more points than a call may take arguments.
  let west = Infinity,
    east = -Infinity,
    north = Infinity,
    south = -Infinity;
  for (const [x, y] of pixels) {
    west = Math.min(west, x);
    east = Math.max(east, x);
    north = Math.min(north, y);
    south = Math.max(south, y);
  }
  let zoom = MAX_ZOOM;
  while (zoom > 0 && ((east - west) * 2 ** zoom > VIEWPORT_WIDTH || (south - north) * 2 ** zoom > VIEWPORT_HEIGHT)) zoom--;
  return zoom;
}

/** The route's line for `overview`: all points, or Douglas–Peucker to the fitted zoom; undefined for `false`. */
export function overviewCoordinates(coordinates: readonly LonLat[], overview: Overview): LonLat[] | undefined {
  if (overview === 'false') return undefined;
  if (overview === 'full') return [...coordinates];
  const pixels = coordinates.map(mercatorPixels);
  const tolerance = TOLERANCE_PIXELS / 2 ** fittedZoom(pixels);
  return simplifiedIndices(pixels, tolerance).map((index) => coordinates[index]!);
}
