// Sizes of lon/lat lines and polygons in Web Mercator metres: what a tile schema's `way_area` and
// its pixel-size zoom rules measure (Shortbread), and the size rankings of other importers.
import type { Position } from 'geojson';
import type { PolygonRings, Ring } from './rings.js';

/** Earth's circumference at the equator in Web Mercator metres (as the Shortbread reference uses). */
export const MERCATOR_CIRCUMFERENCE = 40075016.68;
const EARTH_RADIUS = MERCATOR_CIRCUMFERENCE / (2 * Math.PI);
const DEG = Math.PI / 180;

function mercatorY(lat: number): number {
  return EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (lat * DEG) / 2));
}

/** Unsigned area of a ring in square Web Mercator metres. */
export function ringMercatorArea(ring: Ring): number {
  let sum = 0;
  let prevX = ring[ring.length - 1]![0]! * DEG * EARTH_RADIUS;
  let prevY = mercatorY(ring[ring.length - 1]![1]!);
  for (let i = 0; i < ring.length; i++) {
    const x = ring[i]![0]! * DEG * EARTH_RADIUS;
    const y = mercatorY(ring[i]![1]!);
    sum += prevX * y - x * prevY;
    prevX = x;
    prevY = y;
  }
  return Math.abs(sum) / 2;
}

/** Area of polygons (outer ring minus holes) in square Web Mercator metres. */
export function polygonsMercatorArea(polygons: PolygonRings[]): number {
  let area = 0;
  for (const rings of polygons) {
    for (let r = 0; r < rings.length; r++) area += (r === 0 ? 1 : -1) * ringMercatorArea(rings[r]!);
  }
  return area;
}

/** Length of a line in Web Mercator metres. */
export function lineMercatorLength(line: Position[]): number {
  let length = 0;
  for (let i = 1; i < line.length; i++) {
    const dx = (line[i]![0]! - line[i - 1]![0]!) * DEG * EARTH_RADIUS;
    const dy = mercatorY(line[i]![1]!) - mercatorY(line[i - 1]![1]!);
    length += Math.sqrt(dx * dx + dy * dy);
  }
  return length;
}
