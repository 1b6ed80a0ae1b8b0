/** Planar rings: [x, y] positions, closed; their orientation and point-in-ring tests. */
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
