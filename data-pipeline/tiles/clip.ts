/**
 * Cuts GeoJSON geometries to a box, so that a feature spanning many tiles is stored once per tile
 * with only its part there (plus a margin the tile cutter's buffer needs). Lines become the pieces
 * inside the box; rings are cut along its edges (Sutherland–Hodgman, which keeps their winding).
 */
import type { Geometry, Position } from 'geojson';
import { clipPolygon, clipPolyline } from 'lineclip';
import type { BBox } from '../../core/geo/types.js';

/** The box around every position of a geometry. */
export function geometryBox(geometry: Geometry): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (p: Position) => {
    if (p[0]! < box[0]) box[0] = p[0]!;
    if (p[1]! < box[1]) box[1] = p[1]!;
    if (p[0]! > box[2]) box[2] = p[0]!;
    if (p[1]! > box[3]) box[3] = p[1]!;
  };
  forEachPosition(geometry, add);
  return box;
}

function forEachPosition(geometry: Geometry, visit: (p: Position) => void): void {
  switch (geometry.type) {
    case 'Point':
      return visit(geometry.coordinates);
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates.forEach(visit);
    case 'MultiLineString':
    case 'Polygon':
      for (const line of geometry.coordinates) line.forEach(visit);
      return;
    case 'MultiPolygon':
      for (const polygon of geometry.coordinates) for (const ring of polygon) ring.forEach(visit);
      return;
    case 'GeometryCollection':
      for (const part of geometry.geometries) forEachPosition(part, visit);
  }
}

const inside = (p: Position, box: BBox) => p[0]! >= box[0] && p[0]! <= box[2] && p[1]! >= box[1] && p[1]! <= box[3];

/** Whether every position of `positions` is inside `box` (then nothing needs cutting). */
const allInside = (positions: Position[], box: BBox) => positions.every((p) => inside(p, box));

/** Whether `positions` cannot reach into `box`: all of them beyond one of its edges. */
function allBeyondOneEdge(positions: Position[], box: BBox): boolean {
  let west = true;
  let south = true;
  let east = true;
  let north = true;
  for (const p of positions) {
    west &&= p[0]! < box[0];
    south &&= p[1]! < box[1];
    east &&= p[0]! > box[2];
    north &&= p[1]! > box[3];
    if (!(west || south || east || north)) return false;
  }
  return true;
}

/** A ring cut to the box, closed again; null when less than a triangle is left. */
function clipRing(ring: Position[], box: BBox): Position[] | null {
  if (allInside(ring, box)) return ring;
  if (allBeyondOneEdge(ring, box)) return null;
  const cut = clipPolygon(ring, box);
  if (cut.length < 3) return null;
  const first = cut[0]!;
  const last = cut[cut.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) cut.push([first[0]!, first[1]!]);
  return cut;
}

/** A polygon cut to the box: its exterior cut, holes cut or dropped; null when the exterior is gone. */
function clipRings(rings: Position[][], box: BBox): Position[][] | null {
  const exterior = clipRing(rings[0]!, box);
  if (exterior === null) return null;
  const cut = [exterior];
  for (let i = 1; i < rings.length; i++) {
    const hole = clipRing(rings[i]!, box);
    if (hole !== null) cut.push(hole);
  }
  return cut;
}

function clipLine(line: Position[], box: BBox): Position[][] {
  if (allInside(line, box)) return [line];
  if (allBeyondOneEdge(line, box)) return [];
  return clipPolyline(line, box).filter((part) => part.length >= 2);
}

/** The part of `geometry` inside `box`, or null when none is. */
export function clipGeometry(geometry: Geometry, box: BBox): Geometry | null {
  switch (geometry.type) {
    case 'Point':
      return inside(geometry.coordinates, box) ? geometry : null;
    case 'MultiPoint': {
      const points = geometry.coordinates.filter((p) => inside(p, box));
      return points.length > 0 ? { type: 'MultiPoint', coordinates: points } : null;
    }
    case 'LineString':
    case 'MultiLineString': {
      const lines = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
      const parts = lines.flatMap((line) => clipLine(line, box));
      if (parts.length === 0) return null;
      return parts.length === 1 ? { type: 'LineString', coordinates: parts[0]! } : { type: 'MultiLineString', coordinates: parts };
    }
    case 'Polygon': {
      const rings = clipRings(geometry.coordinates, box);
      return rings === null ? null : { type: 'Polygon', coordinates: rings };
    }
    case 'MultiPolygon': {
      const polygons = geometry.coordinates.map((polygon) => clipRings(polygon, box)).filter((rings) => rings !== null);
      return polygons.length > 0 ? { type: 'MultiPolygon', coordinates: polygons } : null;
    }
    case 'GeometryCollection': {
      const parts = geometry.geometries.map((part) => clipGeometry(part, box)).filter((part) => part !== null);
      return parts.length > 0 ? { type: 'GeometryCollection', geometries: parts } : null;
    }
  }
}
