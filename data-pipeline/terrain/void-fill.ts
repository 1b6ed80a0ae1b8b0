/**
 * Fills the voids of an SRTM tile (samples the radar did not measure: steep slopes, shadows,
 * water) from the samples around them, in two passes over the voids only:
 *
 * 1. From the edge inwards: each void touching a measured (or already filled) sample among its
 *    eight neighbours takes their mean; then the voids touching those, ring by ring, until none is
 *    left. This gives every void a value close to its surroundings.
 * 2. Smoothing: each filled sample becomes the mean of its four neighbours, over and over
 *    (Gauss–Seidel relaxation of Laplace's equation, the measured samples held fixed), until no
 *    sample moves by more than 1 cm or after MAX_SWEEPS sweeps. The result is the smoothest surface
 *    through the void's edge (a "harmonic" fill), without the first pass's rings.
 *
 * A tile without a single measured sample stays void.
 */

const MAX_SWEEPS = 100;
const SETTLED_METRES = 0.01;

/** Fills the NaN samples of a `width` × `height` raster in place; returns how many it filled. */
export function fillVoids(values: Float32Array, width: number, height: number): number {
  const voids: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i]!)) voids.push(i);
  if (voids.length === 0 || voids.length === values.length) return 0;
  fillFromEdges(values, width, height, voids);
  relax(values, width, height, voids);
  return voids.length;
}

/** Pass 1: ring by ring from the voids' edges, each the mean of its known neighbours of the rings before. */
function fillFromEdges(values: Float32Array, width: number, height: number, voids: number[]): void {
  let pending = voids;
  while (pending.length > 0) {
    const ring: number[] = [];
    const sums: number[] = [];
    const next: number[] = [];
    for (const i of pending) {
      const x = i % width;
      const y = (i - x) / width;
      let sum = 0;
      let count = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
          const value = values[ny * width + nx]!;
          if (!Number.isNaN(value)) {
            sum += value;
            count++;
          }
        }
      }
      if (count > 0) {
        ring.push(i);
        sums.push(sum / count);
      } else next.push(i);
    }
    // Written after the ring is computed, so a ring's values come from the rings before it only.
    ring.forEach((i, k) => {
      values[i] = sums[k]!;
    });
    pending = next;
  }
}

/** Pass 2: each filled sample the mean of its four neighbours (those inside the raster), until settled. */
function relax(values: Float32Array, width: number, height: number, voids: number[]): void {
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let moved = 0;
    for (const i of voids) {
      const x = i % width;
      const y = (i - x) / width;
      let sum = 0;
      let count = 0;
      if (x > 0) (sum += values[i - 1]!), count++;
      if (x < width - 1) (sum += values[i + 1]!), count++;
      if (y > 0) (sum += values[i - width]!), count++;
      if (y < height - 1) (sum += values[i + width]!), count++;
      const value = sum / count;
      moved = Math.max(moved, Math.abs(value - values[i]!));
      values[i] = value;
    }
    if (moved < SETTLED_METRES) return;
  }
}
