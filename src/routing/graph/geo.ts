/**
 * The little geometry the routing core needs: great-circle metres, a local flat projection around
 * a point for projecting onto short polyline pieces, and the Mercator y used by the spatial index
 * (conformal, so its box distances are proportional to ground distances nearby).
 */

const EARTH_RADIUS = 6371008.8;
const RAD = Math.PI / 180;
/** Metres per degree of latitude (and of longitude at the equator). */
export const METRES_PER_DEGREE = EARTH_RADIUS * RAD;

/** Haversine distance in metres. */
export function metresBetween(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const sinLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sinLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const a = sinLat * sinLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sinLon * sinLon;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Mercator y in degree units (equal to latitude at the equator), for the spatial index. */
export function mercatorY(lat: number): number {
  return Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * RAD) / 2)) / RAD;
}

/** Metres per index unit (degree of longitude, or of Mercator y) at latitude `lat`. */
export function metresPerIndexUnit(lat: number): number {
  return METRES_PER_DEGREE * Math.cos(lat * RAD);
}
