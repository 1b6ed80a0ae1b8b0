/** Douglas–Peucker simplification of a line in planar coordinates, returning the indices of the points kept. */

/**
 * Indices, ascending, of the points (xs[i], ys[i]) that Douglas–Peucker keeps for `tolerance` (same unit as
 * the coordinates); the first and last are always kept. Iterative, so long lines cannot overflow the stack.
 */
export function simplifiedIndicesOf(xs: Float64Array, ys: Float64Array, tolerance: number): number[] {
  const last = xs.length - 1;
  if (last < 2) return Array.from(xs, (_, index) => index);
  const keep = new Uint8Array(xs.length);
  keep[0] = keep[last] = 1;
  const toleranceSquared = tolerance * tolerance;
  const stack: number[] = [0, last];
  while (stack.length > 0) {
    const end = stack.pop()!;
    const first = stack.pop()!;
    let farthest = -1;
    let farthestDistance = toleranceSquared;
    // The squared distance of each point between to the segment first–end (to `first` when the two
    // coincide), with what depends only on the segment worked out once: this loop is the whole cost.
    const ax = xs[first]!;
    const ay = ys[first]!;
    const dx = xs[end]! - ax;
    const dy = ys[end]! - ay;
    const lengthSquared = dx * dx + dy * dy;
    for (let i = first + 1; i < end; i++) {
      const px = xs[i]!;
      const py = ys[i]!;
      const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared));
      const ex = px - (ax + t * dx);
      const ey = py - (ay + t * dy);
      const distance = ex * ex + ey * ey;
      if (distance > farthestDistance) {
        farthest = i;
        farthestDistance = distance;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push(first, farthest, farthest, end);
  }
  const indices: number[] = [];
  for (let i = 0; i <= last; i++) if (keep[i] === 1) indices.push(i);
  return indices;
}

/** simplifiedIndicesOf for a line given as [x, y] points. */
export function simplifiedIndices(points: readonly (readonly [number, number])[], tolerance: number): number[] {
  return simplifiedIndicesOf(
    Float64Array.from(points, (p) => p[0]),
    Float64Array.from(points, (p) => p[1]),
    tolerance,
  );
}
