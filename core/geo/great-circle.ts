/** Points along a path of [lon, lat] positions on the great circles between them (the WGS84 mean sphere). */
import { EARTH_RADIUS_METRES, metresBetween } from './distance.js';
import type { LonLat } from './types.js';

const RAD = Math.PI / 180;

/** The point a fraction `f` of the way from `a` to `b` along their great circle. */
export function greatCirclePoint(a: LonLat, b: LonLat, f: number): LonLat {
  const delta = metresBetween(a[0], a[1], b[0], b[1]) / EARTH_RADIUS_METRES;
  // Below a millimetre the sphere is flat: the straight line, without dividing by sin(delta) ≈ 0.
  if (delta < 1e-10) return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
  const wa = Math.sin((1 - f) * delta) / Math.sin(delta);
  const wb = Math.sin(f * delta) / Math.sin(delta);
  const [lonA, latA, lonB, latB] = [a[0] * RAD, a[1] * RAD, b[0] * RAD, b[1] * RAD];
  const x = wa * Math.cos(latA) * Math.cos(lonA) + wb * Math.cos(latB) * Math.cos(lonB);
  const y = wa * Math.cos(latA) * Math.sin(lonA) + wb * Math.cos(latB) * Math.sin(lonB);
  const z = wa * Math.sin(latA) + wb * Math.sin(latB);
  return [Math.atan2(y, x) / RAD, Math.atan2(z, Math.hypot(x, y)) / RAD];
}

/**
 * `count` points evenly spaced along the path, by distance on the sphere: the first is the path's
 * first point, the last (for a count above 1) its last.
 */
export function pointsAlongPath(path: readonly LonLat[], count: number): LonLat[] {
  const lengths = path.slice(1).map((point, i) => metresBetween(path[i]![0], path[i]![1], point[0], point[1]));
  const total = lengths.reduce((sum, length) => sum + length, 0);
  const first: [number, number] = [path[0]![0], path[0]![1]];
  const points: LonLat[] = [];
  let segment = 0;
  let start = 0;
  for (let k = 0; k < count; k++) {
    if (k === 0 || total === 0) {
      points.push(first);
      continue;
    }
    if (k === count - 1) {
      points.push([path.at(-1)![0], path.at(-1)![1]]);
      continue;
    }
    const along = (total * k) / (count - 1);
    while (segment < lengths.length - 1 && start + lengths[segment]! < along) start += lengths[segment++]!;
    const length = lengths[segment]!;
    points.push(greatCirclePoint(path[segment]!, path[segment + 1]!, length === 0 ? 0 : Math.min(1, (along - start) / length)));
  }
  return points;
}
