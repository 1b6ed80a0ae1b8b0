// Small planar geometry helpers the Shortbread rules need: Web Mercator areas and lengths (the
// schema's `way_area` and pixel-size zoom rules), point-in-ring tests and label points inside polygons.
import type { Position } from 'geojson';

/** Earth's circumference at the equator in Web Mercator metres (as the Shortbread reference uses). */
export const MERCATOR_CIRCUMFERENCE = 40075016.68;
const EARTH_RADIUS = MERCATOR_CIRCUMFERENCE / (2 * Math.PI);
const DEG = Math.PI / 180;

import { ringContains, signedRingArea, type PolygonRings, type Ring } from '../../core/geo/rings.js';

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

export function isClosed(line: Position[]): boolean {
  const a = line[0];
  const b = line[line.length - 1];
  return line.length >= 4 && a![0] === b![0] && a![1] === b![1];
}

/** Is (x, y) inside the polygon (inside the outer ring and outside every hole)? */
export function polygonContains(rings: PolygonRings, x: number, y: number): boolean {
  if (!ringContains(rings[0]!, x, y)) return false;
  for (let r = 1; r < rings.length; r++) if (ringContains(rings[r]!, x, y)) return false;
  return true;
}

/**
 * A point inside the polygon for labelling: the middle of the widest inside stretch of the
 * horizontal line through the middle of the outer ring's latitude range (the centroid can fall
 * into a hole or outside a concave shape).
 */
export function polygonLabelPoint(rings: PolygonRings): Position {
  const outer = rings[0]!;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const p of outer) {
    if (p[1]! < minY) minY = p[1]!;
    if (p[1]! > maxY) maxY = p[1]!;
  }
  // Nudged off the exact middle so the scan line rarely passes through a vertex.
  const y = minY + (maxY - minY) * 0.5000123;
  const crossings: number[] = [];
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j]!;
      const b = ring[i]!;
      if (a[1]! > y !== b[1]! > y) crossings.push(a[0]! + ((y - a[1]!) * (b[0]! - a[0]!)) / (b[1]! - a[1]!));
    }
  }
  crossings.sort((p, q) => p - q);
  let bestX = outer[0]![0]!;
  let bestWidth = -1;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const width = crossings[i + 1]! - crossings[i]!;
    if (width > bestWidth) {
      bestWidth = width;
      bestX = (crossings[i]! + crossings[i + 1]!) / 2;
    }
  }
  return bestWidth < 0 ? outer[0]! : [bestX, y];
}

/** The label point of the largest polygon. */
export function largestPolygonLabelPoint(polygons: PolygonRings[]): Position {
  let best = polygons[0]!;
  let bestArea = -1;
  for (const rings of polygons) {
    const area = Math.abs(signedRingArea(rings[0]!));
    if (area > bestArea) {
      bestArea = area;
      best = rings;
    }
  }
  return polygonLabelPoint(best);
}
