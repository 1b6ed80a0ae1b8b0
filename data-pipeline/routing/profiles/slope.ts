/**
 * How slope changes the speed of walkers and cyclists (docs/ROUTING.md, "Slopes"), used when the
 * import has DEMs: each a function of the speed the profile gives on flat ground (km/h) and the
 * slope (rise over run: 0.1 is 10 % uphill, −0.1 as steep downhill), equal to that speed where the
 * slope is 0. Driving has none: OSRM's car profile ignores slopes too.
 */

/**
 * Steeper than this the DEM is taken to be wrong about the way, not the way that steep: a tunnel
 * under a hill, a bridge or a lift over a valley, a path along a cliff the 90 m samples cannot
 * resolve. Roads and paths that steep are very rare (the steepest streets are about 35 %).
 */
export const MAX_SLOPE = 0.3;

const clampSlope = (slope: number) => Math.max(-MAX_SLOPE, Math.min(MAX_SLOPE, slope));

/**
 * Walking: Tobler's hiking function, v = 6 · e^(−3.5 · |s + 0.05|) km/h (fastest, 6 km/h, on a 5 %
 * downhill; 5.04 km/h on flat ground), scaled so that flat ground keeps the profile's speed:
 * v = flat · e^(−3.5 · (|s + 0.05| − 0.05)). 10 % up: 0.70 × flat, 20 % up: 0.49 ×; 5 % down: 1.19 ×,
 * 10 % down: 1 × (as fast as flat ground), 20 % down: 0.70 ×.
 */
export function walkingSpeedOnSlope(flatKmh: number, slope: number): number {
  return flatKmh * Math.exp(-3.5 * (Math.abs(clampSlope(slope) + 0.05) - 0.05));
}

/** The slope at which GraphHopper's factors stop changing (20 %). */
const CYCLING_SLOPE_LIMIT = 0.2;
/** No slower uphill than this: a cyclist pushes (GraphHopper's PUSHING_SECTION_SPEED / 2). */
export const CYCLING_MIN_KMH = 2;
/** No faster downhill than this: a prudent descent on a touring or city bicycle (Waymark's choice). */
export const CYCLING_MAX_DOWNHILL_KMH = 30;

/**
 * Cycling, after GraphHopper's bike elevation handling (Bike2WeightFlagEncoder): uphill the flat
 * speed × (1 − 5 · s)², downhill × (1 + 2 · |s|)², s capped at 20 % (10 % up: 0.25 ×, 5 % up:
 * 0.56 ×; 5 % down: 1.21 ×, 10 % down: 1.44 ×, 20 % down: 1.96 ×); never below 2 km/h uphill
 * (walking the bike up) nor above 30 km/h downhill (nor below the flat speed downhill, nor above
 * it uphill). GraphHopper applies the factors to a segment's mean climb and drop; Waymark to each
 * piece of it (LINE_SAMPLE_SPACING_METRES), so a segment over a hill is slower both ways.
 */
export function cyclingSpeedOnSlope(flatKmh: number, slope: number): number {
  const s = Math.max(-CYCLING_SLOPE_LIMIT, Math.min(CYCLING_SLOPE_LIMIT, slope));
  if (s > 0) return Math.max((1 - 5 * s) ** 2 * flatKmh, Math.min(flatKmh, CYCLING_MIN_KMH));
  return Math.min((1 - 2 * s) ** 2 * flatKmh, Math.max(flatKmh, CYCLING_MAX_DOWNHILL_KMH));
}
