/**
 * Hillshading of a grid of elevations for the server-side renderer: each sample lit from the
 * north-west (azimuth 315°, 45° up, as MapLibre's hillshade and most hillshaded maps), its slope
 * from the differences with its neighbours (Horn's 3×3 kernel at the edges' inner samples, the
 * nearest inside value at the border). The answer is signed per sample: below 0 a shadow, above 0
 * a highlight, 0 on flat ground or with no elevation, in −1…1 scaled by `exaggeration`.
 */

const AZIMUTH = (315 * Math.PI) / 180;
const ALTITUDE = (45 * Math.PI) / 180;

/**
 * `values` are `width` × `height` elevations in metres, row after row (north first); `spacing[r]`
 * the metres between the samples of row r, across and down (web mercator's grids are square, and
 * shrink away from the equator).
 */
export function hillshade(
  values: Float32Array,
  width: number,
  height: number,
  spacing: ArrayLike<number>,
  exaggeration: number,
): Float32Array {
  const shade = new Float32Array(width * height);
  const at = (c: number, r: number) => values[Math.min(height - 1, Math.max(0, r)) * width + Math.min(width - 1, Math.max(0, c))]!;
  // Lambert's law, less the flat ground's own light, so flat ground stays untouched.
  const flat = Math.sin(ALTITUDE);
  for (let r = 0; r < height; r++) {
    const dx = 8 * spacing[r]!;
    const dy = dx;
    for (let c = 0; c < width; c++) {
      const [a, b, d] = [at(c - 1, r - 1), at(c, r - 1), at(c + 1, r - 1)];
      const [e, f] = [at(c - 1, r), at(c + 1, r)];
      const [g, h, i] = [at(c - 1, r + 1), at(c, r + 1), at(c + 1, r + 1)];
      const eastward = (d + 2 * f + i - (a + 2 * e + g)) / dx;
      const northward = (a + 2 * b + d - (g + 2 * h + i)) / dy;
      if (Number.isNaN(eastward + northward)) continue;
      const slope = Math.atan(Math.hypot(eastward, northward));
      // The downhill direction's azimuth (clockwise from north).
      const aspect = Math.atan2(-eastward, -northward);
      const light = Math.sin(ALTITUDE) * Math.cos(slope) + Math.cos(ALTITUDE) * Math.sin(slope) * Math.cos(AZIMUTH - aspect);
      shade[r * width + c] = Math.max(-1, Math.min(1, ((light - flat) / flat) * exaggeration * 2));
    }
  }
  return shade;
}
