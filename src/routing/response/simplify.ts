/** Douglas–Peucker simplification of a line in planar coordinates, returning the indices of the points kept. */

/** Distance from p to the segment a–b (to a when a and b coincide). */
function distanceToSegment(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const dx = b[0]! - a[0]!;
  const dy = b[1]! - a[1]!;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0]! - a[0]!) * dx + (p[1]! - a[1]!) * dy) / lengthSquared));
  return Math.hypot(p[0]! - (a[0]! + t * dx), p[1]! - (a[1]! + t * dy));
}

/**
 * Indices, ascending, of the points of `points` that Douglas–Peucker keeps for `tolerance` (same unit as the
 * coordinates); the first and last are always kept. Iterative, so long lines cannot overflow the stack.
 */
export function simplifiedIndices(points: readonly (readonly [number, number])[], tolerance: number): number[] {
  const last = points.length - 1;
  if (last < 2) return points.map((_, index) => index);
  const keep = new Uint8Array(points.length);
  keep[0] = keep[last] = 1;
  const stack: [number, number][] = [[0, last]];
  while (stack.length > 0) {
    const [first, end] = stack.pop()!;
    let farthest = -1;
    let farthestDistance = tolerance;
    for (let i = first + 1; i < end; i++) {
      const distance = distanceToSegment(points[i]!, points[first]!, points[end]!);
      if (distance > farthestDistance) {
        farthest = i;
        farthestDistance = distance;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push([first, farthest], [farthest, end]);
  }
  const indices: number[] = [];
  keep.forEach((kept, index) => kept === 1 && indices.push(index));
  return indices;
}
