/** Compass bearings along a polyline, and the turn modifier between an approach and a departure bearing. */
import type { Modifier } from './osrm.js';
import type { LonLat } from '../../../core/geo/types.js';

const RADIANS = Math.PI / 180;

/** Initial great-circle bearing from `from` to `to`, whole degrees 0–359 (0 when they coincide). */
export function bearing(from: LonLat, to: LonLat): number {
  const φ1 = from[1] * RADIANS;
  const φ2 = to[1] * RADIANS;
  const Δλ = (to[0] - from[0]) * RADIANS;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  if (x === 0 && y === 0) return 0;
  return Math.round((Math.atan2(y, x) / RADIANS + 360) % 360) % 360;
}

const same = (a: LonLat, b: LonLat) => a[0] === b[0] && a[1] === b[1];

/** The bearing of the line arriving at `coordinates[index]`, from the nearest distinct point before it. */
export function bearingInto(coordinates: readonly LonLat[], index: number): number {
  const end = coordinates[index]!;
  for (let i = index - 1; i >= 0; i--) if (!same(coordinates[i]!, end)) return bearing(coordinates[i]!, end);
  return 0;
}

/** The bearing of the line leaving `coordinates[index]`, towards the nearest distinct point after it. */
export function bearingOutOf(coordinates: readonly LonLat[], index: number): number {
  const start = coordinates[index]!;
  for (let i = index + 1; i < coordinates.length; i++) if (!same(coordinates[i]!, start)) return bearing(start, coordinates[i]!);
  return 0;
}

/** The signed change of direction from `before` to `after`, in (-180, 180]: positive to the right. */
export function deflection(before: number, after: number): number {
  const turn = (((after - before) % 360) + 360) % 360;
  return turn > 180 ? turn - 360 : turn;
}

/**
 * The modifier of a change of direction, with OSRM's angle bands: straight within 20°, slight to 40°,
 * plain to 120°, sharp beyond, and a u-turn beyond 170°.
 */
export function modifierOf(deflectionDegrees: number): Modifier {
  const size = Math.abs(deflectionDegrees);
  const side = deflectionDegrees > 0 ? 'right' : 'left';
  if (size <= 20) return 'straight';
  if (size <= 40) return `slight ${side}`;
  if (size <= 120) return side;
  if (size <= 170) return `sharp ${side}`;
  return 'uturn';
}
