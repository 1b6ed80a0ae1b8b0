/**
 * Street and interpolation lines as the geocoder index stores them: a blob of int32 longitude,
 * latitude pairs in units of 10⁻⁷ degree (OSM's own precision: half the size of float64, no loss),
 * and the keys that tie them to addresses.
 */
import { normalizeText } from './text/normalize.js';
import type { LonLat } from '../geo/types.js';

/** Addresses, streets and interpolation lines of one street share this key: its normalized name. */
export const streetKey = (street: string): string => normalizeText(street);

const UNITS_PER_DEGREE = 1e7;

export function lineToBlob(line: readonly (readonly number[])[]): Buffer {
  const coordinates = new Int32Array(line.length * 2);
  line.forEach(([lon, lat], i) => coordinates.set([Math.round(lon! * UNITS_PER_DEGREE), Math.round(lat! * UNITS_PER_DEGREE)], i * 2));
  return Buffer.from(coordinates.buffer);
}

export function lineFromBlob(blob: Buffer): LonLat[] {
  // A copy: a blob's bytes need not be aligned for an Int32Array view.
  const coordinates = new Int32Array(Uint8Array.from(blob).buffer);
  const line: LonLat[] = [];
  for (let i = 0; i + 1 < coordinates.length; i += 2)
    line.push([coordinates[i]! / UNITS_PER_DEGREE, coordinates[i + 1]! / UNITS_PER_DEGREE]);
  return line;
}

/** The house numbers along an interpolation line: `low` at its first point, `high` at its last, every `step`. */
export interface AddressRange {
  street: string;
  low: number;
  high: number;
  step: number;
  line: LonLat[];
}
