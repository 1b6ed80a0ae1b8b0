/**
 * The bodies of a trip (the legs through the points in the order chosen): OSRM's trip service body,
 * and `/optimize`'s, which is the directions body of the trip plus the order visited.
 */
import type { RouteLeg, SnappedPoint } from '../path.js';
import { directionsBody, osrmRoute, osrmWaypoint, type DirectionsOptions } from './directions-body.js';
import type { OptimizeBody, TripBody } from './osrm.js';

/**
 * `stops`: the indexes into `points` in the order visited, one more than `legs` (a round trip ends
 * with its first point again).
 */
export function tripBody(
  legs: readonly RouteLeg[],
  points: readonly SnappedPoint[],
  stops: readonly number[],
  options: DirectionsOptions,
): TripBody {
  const visitedAt = new Map<number, number>();
  // A round trip's last stop is its first point again: the point keeps its first index.
  stops.forEach((point, index) => visitedAt.has(point) || visitedAt.set(point, index));
  return {
    code: 'Ok',
    trips: [osrmRoute(legs, options)],
    waypoints: points.map((point, i) => ({ ...osrmWaypoint(point), trips_index: 0, waypoint_index: visitedAt.get(i)! })),
  };
}

export function optimizeBody(
  legs: readonly RouteLeg[],
  points: readonly SnappedPoint[],
  stops: readonly number[],
  options: DirectionsOptions,
): OptimizeBody {
  return {
    ...directionsBody(
      [legs],
      stops.map((i) => points[i]!),
      options,
    ),
    order: [...stops],
  };
}
