/** Each point of a request placed on the network by its own rule (radius, bearing, ferries), or the NoSegment answer naming the first that has no road. */
import type { RoutingGraph } from '../graph/load.js';
import { snap, type Snap } from '../graph/snap.js';
import type { SnapRule } from '../sanitize/snapping.js';
import type { LonLat } from '../../http/params/position.js';
import type { RoutingAnswer } from './task.js';

export type SnappedPoints = { ok: true; snaps: Snap[] } | { ok: false; answer: RoutingAnswer };

/** `nameOf(i)` names point i in a message (`origin`, `points[3]`). */
export function snapPoints(
  graph: RoutingGraph,
  points: readonly LonLat[],
  rules: readonly SnapRule[],
  nameOf: (index: number) => string,
): SnappedPoints {
  const snaps: Snap[] = [];
  for (const [i, [lon, lat]] of points.entries()) {
    const { radius, bearing, anySegment } = rules[i]!;
    const snapped = snap(graph, lon, lat, radius, { bearing, anySegment });
    if (snapped === null) {
      const within = Number.isFinite(radius) ? ` within ${radius} m` : '';
      const heading = bearing ? ` heading ${bearing.value}±${bearing.range}°` : '';
      const message = `no road for ${graph.mode}${heading}${within} of ${nameOf(i)} (${lat},${lon})`;
      return { ok: false, answer: { ok: false, code: 'NoSegment', message } };
    }
    snaps.push(snapped);
  }
  return { ok: true, snaps };
}
