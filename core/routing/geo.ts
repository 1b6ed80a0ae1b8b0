/**
 * The little geometry the routing core needs besides great-circle metres (core/geo/distance.ts):
 * metres per degree for a local flat frame, and the Mercator y used by the spatial index
 * (conformal, so its box distances are proportional to ground distances nearby).
 */
import { EARTH_RADIUS_METRES } from '../geo/distance.js';

const RAD = Math.PI / 180;
/** Metres per degree of latitude (and of longitude at the equator). */
export const METRES_PER_DEGREE = EARTH_RADIUS_METRES * RAD;

/** Mercator y in degree units (equal to latitude at the equator), for the spatial index. */
export function mercatorY(lat: number): number {
  return Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * RAD) / 2)) / RAD;
}

/** Metres per index unit (degree of longitude, or of Mercator y) at latitude `lat`. */
export function metresPerIndexUnit(lat: number): number {
  return METRES_PER_DEGREE * Math.cos(lat * RAD);
}
