/** Great-circle distances on the WGS84 mean sphere (haversine). */

/** The mean radius of the WGS84 ellipsoid. */
export const EARTH_RADIUS_METRES = 6371008.8;
const RAD = Math.PI / 180;

/** Metres between two lon/lat positions. */
export function metresBetween(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const sinLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sinLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const a = sinLat * sinLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sinLon * sinLon;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(a)));
}

export const kilometresBetween = (lon1: number, lat1: number, lon2: number, lat2: number) => metresBetween(lon1, lat1, lon2, lat2) / 1000;
