/**
 * OSRM's `tidy` (api/match_parameters_tidy.hpp): thins a trace before matching. Walking along it, a
 * point is kept once the points since the last kept one add up to 15 m (and, with timestamps, to
 * 5 s); the others are dropped (their tracepoints are null). The first and last points always stay.
 * A dropped waypoint passes its role to the last point kept before it.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import type { LonLat } from '../../../core/geo/types.js';

const TIDY_METRES = 15;
const TIDY_SECONDS = 5;

export interface TidyTrace {
  /** Indexes of the points kept, increasing. */
  kept: number[];
  /** Indexes into `kept` of the waypoints; null when the request named none. */
  waypoints: number[] | null;
}

/** Every point kept: what a request without `tidy` matches. */
export function keepAll(count: number, waypoints: readonly number[] | null): TidyTrace {
  return { kept: Array.from({ length: count }, (_, i) => i), waypoints: waypoints === null ? null : [...waypoints] };
}

export function tidyTrace(points: readonly LonLat[], timestamps: readonly number[] | null, waypoints: readonly number[] | null): TidyTrace {
  const count = points.length;
  const removed = new Array<boolean>(count).fill(false);
  let metres = 0;
  let seconds = 0;
  for (let next = 1; next < count - 1; next++) {
    const [a, b] = [points[next - 1]!, points[next]!];
    metres += metresBetween(a[0], a[1], b[0], b[1]);
    if (timestamps !== null) seconds += timestamps[next]! - timestamps[next - 1]!;
    if (metres >= TIDY_METRES && (timestamps === null || seconds >= TIDY_SECONDS)) (metres = 0), (seconds = 0);
    else removed[next] = true;
  }
  const wasWaypoint = new Array<boolean>(count).fill(waypoints === null);
  for (const index of waypoints ?? []) wasWaypoint[index] = true;
  const kept: number[] = [];
  const tidied: number[] = [];
  for (let i = 0; i < count; i++) {
    if (!removed[i]) {
      kept.push(i);
      if (wasWaypoint[i]) tidied.push(kept.length - 1);
    } else if (wasWaypoint[i] && tidied[tidied.length - 1] !== kept.length - 1) {
      tidied.push(kept.length - 1);
    }
  }
  return { kept, waypoints: waypoints === null ? null : tidied };
}
