/**
 * Where a line is sampled for its elevations (routes' ascent and descent, the slopes of routing
 * segments): its points, and between two of them points at most `spacing` metres apart, so that a
 * long straight piece across a valley is followed over the DEM's samples (SRTM 3″: about 90 m
 * apart) rather than jumped.
 */

/** Where elevations come from: the elevation store (elevation-store.ts), or anything answering as it does. */
export interface ElevationLookup {
  /** Metres; null where there is none. */
  elevationAt(lon: number, lat: number): number | null;
}

/** The usual spacing: a fifth of an SRTM 3″ cell, a little less than one of 1″. */
export const LINE_SAMPLE_SPACING_METRES = 20;

/**
 * Calls `visit` at the points that cut the piece from (lon0, lat0) to (lon1, lat1), `metres` long,
 * into equal parts at most `spacing` long: the end included, the start not (the piece before
 * visited it). Linear in degrees, which over tens of metres is the great circle.
 */
export function forEachSampleAlong(
  lon0: number,
  lat0: number,
  lon1: number,
  lat1: number,
  metres: number,
  visit: (lon: number, lat: number) => void,
  spacing = LINE_SAMPLE_SPACING_METRES,
): void {
  const parts = Math.max(1, Math.ceil(metres / spacing));
  for (let k = 1; k <= parts; k++) visit(lon0 + ((lon1 - lon0) * k) / parts, lat0 + ((lat1 - lat0) * k) / parts);
}
