// Label points inside planar polygons: where a polygon's name is placed.
import type { Position } from 'geojson';
import { signedRingArea, type PolygonRings } from './rings.js';

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
