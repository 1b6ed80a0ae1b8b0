/** Encoded polylines (Google's format, precision 5) in parameters: `enc:<polyline>` of static map paths and elevation requests. */
import polyline from '@mapbox/polyline';
import type { LonLat } from '../../../core/geo/types.js';

/**
 * Whether `encoded` is a whole polyline: characters 63–126 only, ending a value on its last
 * character, with an even number of values (lat, lng pairs). The decoder itself accepts any text.
 */
function wellFormed(encoded: string): boolean {
  let values = 0;
  for (let i = 0; i < encoded.length; i++) {
    const code = encoded.charCodeAt(i);
    if (code < 63 || code > 126) return false;
    if (code - 63 < 0x20) values++; // no continuation bit: the last chunk of a value
  }
  return values > 0 && values % 2 === 0 && encoded.charCodeAt(encoded.length - 1) - 63 < 0x20;
}

/**
 * The [lon, lat] points of an encoded polyline (precision 5, as the directions answer them), or
 * null when it is not one, or one of positions beyond ±180° longitude or ±`maxLatitude`.
 */
export function decodePolyline(encoded: string, maxLatitude = 90): LonLat[] | null {
  if (!wellFormed(encoded)) return null;
  const points = polyline.decode(encoded).map(([lat, lon]): LonLat => [lon, lat]);
  return points.every(([lon, lat]) => Math.abs(lon) <= 180 && Math.abs(lat) <= maxLatitude) ? points : null;
}
