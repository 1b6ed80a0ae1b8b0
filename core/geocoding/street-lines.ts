/**
 * Street and interpolation lines as the geocoder index stores them: a blob of float64 longitude,
 * latitude pairs, and the keys that tie them to addresses.
 */
import { normalizeText } from './text/normalize.js';

export type LonLat = [number, number];

/** Addresses, streets and interpolation lines of one street share this key: its normalized name. */
export const streetKey = (street: string): string => normalizeText(street);

export function lineToBlob(line: readonly (readonly number[])[]): Buffer {
  const coordinates = new Float64Array(line.length * 2);
  line.forEach(([lon, lat], i) => coordinates.set([lon!, lat!], i * 2));
  return Buffer.from(coordinates.buffer);
}

export function lineFromBlob(blob: Buffer): LonLat[] {
  const coordinates = new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
  const line: LonLat[] = [];
  for (let i = 0; i + 1 < coordinates.length; i += 2) line.push([coordinates[i]!, coordinates[i + 1]!]);
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
