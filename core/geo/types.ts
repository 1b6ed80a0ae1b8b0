/** The geometry words the whole project shares: a position and a bounding box, in WGS 84 degrees. */

/** A position, longitude first (GeoJSON's order). */
export type LonLat = [lon: number, lat: number];

/** [west, south, east, north] in degrees (GeoJSON's bbox order). */
export type BBox = [west: number, south: number, east: number, north: number];
