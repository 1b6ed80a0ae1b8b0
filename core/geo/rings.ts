/** Planar rings: [x, y] positions, closed; their orientation, and point-in-ring and point-in-polygon tests. */
import type { Position } from 'geojson';

export type Ring = Position[];
export type PolygonRings = Ring[];

/** Signed area in square units (positive = counter-clockwise); enough to tell a ring's orientation. */
export function signedRingArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    sum += (a[0]! - b[0]!) * (a[1]! + b[1]!);
  }
  return sum / 2;
}

/** Even-odd test: is (x, y) inside the ring? */
export function ringContains(ring: Ring, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i]![0]!;
    const yi = ring[i]![1]!;
    const xj = ring[j]![0]!;
    const yj = ring[j]![1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a line closes into a ring: at least four positions, the last one the first. */
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
