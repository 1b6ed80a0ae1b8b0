/**
 * Points and boxes of OSM elements for geocoding records: the label point (the node itself, a
 * point inside an area, the middle of a line) and the bounding box.
 */
import type { Position } from 'geojson';
import type { OsmElement } from '../../osm/element.js';
import { largestPolygonLabelPoint } from '../../../core/geo/label-point.js';
import type { BBox } from '../../../core/geo/types.js';

/** The point a record of the element is placed at; inside the polygon for areas. */
export function labelPoint(el: OsmElement): Position {
  switch (el.shape) {
    case 'point':
      return el.point;
    case 'area':
      return largestPolygonLabelPoint(el.polygons);
    case 'line':
      return lineMiddle(el.line);
  }
}

/** The point halfway along the line (lengths in degrees, longitude scaled by cos(latitude)). */
export function lineMiddle(line: Position[]): Position {
  const scale = Math.cos((line[0]![1]! * Math.PI) / 180);
  const lengths: number[] = [];
  let total = 0;
  for (let i = 1; i < line.length; i++) {
    const length = Math.hypot((line[i]![0]! - line[i - 1]![0]!) * scale, line[i]![1]! - line[i - 1]![1]!);
    lengths.push(length);
    total += length;
  }
  let remaining = total / 2;
  for (let i = 1; i < line.length; i++) {
    const length = lengths[i - 1]!;
    if (remaining <= length && length > 0) {
      const f = remaining / length;
      const a = line[i - 1]!;
      const b = line[i]!;
      return [a[0]! + (b[0]! - a[0]!) * f, a[1]! + (b[1]! - a[1]!) * f];
    }
    remaining -= length;
  }
  return line[0]!;
}

/** [minLon, minLat, maxLon, maxLat] of any number of positions. */
export function bboxOf(positions: Iterable<Position>): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of positions) {
    if (p[0]! < box[0]) box[0] = p[0]!;
    if (p[1]! < box[1]) box[1] = p[1]!;
    if (p[0]! > box[2]) box[2] = p[0]!;
    if (p[1]! > box[3]) box[3] = p[1]!;
  }
  return box;
}

/** The outer rings' positions of an area (holes lie inside them). */
export function* outerRingPositions(polygons: Position[][][]): Iterable<Position> {
  for (const rings of polygons) yield* rings[0]!;
}

export function bboxContains(box: BBox, x: number, y: number): boolean {
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3];
}
