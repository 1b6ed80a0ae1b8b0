/** How a message writes a position: in the order of the parameter that gave it. */
import type { LonLat } from './types.js';

/** How a parameter writes a position. */
export type PointOrder = 'lat,lng' | 'lon,lat';

/** Degrees as a message writes them: at most 6 decimals (about 10 cm), no trailing zeros. */
const degrees = (value: number) => String(Number(value.toFixed(6)));

/** `point` written in `order`. */
export function echoPoint([lon, lat]: LonLat, order: PointOrder): string {
  return order === 'lat,lng' ? `${degrees(lat)},${degrees(lon)}` : `${degrees(lon)},${degrees(lat)}`;
}
