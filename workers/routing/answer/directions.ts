/**
 * Directions on a loaded graph: each point snapped to its nearest road, one leg between each
 * consecutive pair, alternatives for a plain A-to-B request, and the OSRM body.
 */
import { alternatives } from '../graph/alternatives.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { excluding } from '../graph/exclude.js';
import { joinLegs, routeLegs } from '../graph/legs.js';
import type { RouteLeg } from '../path.js';
import { directionsBody, directionsOptionsOf } from '../response/directions-body.js';
import type { ElevationLookup } from '../response/route-elevation.js';
import { placePoints } from './place.js';
import type { TravelMode } from '../../../core/routing/network.js';
import { type DirectionsParams, type RouteExtras, type RoutingAnswer, pointName } from '../task.js';

/** Whether a route keeps going at its via points by default: OSRM's continue_straight_at_waypoint (car true, bicycle and foot false). */
const CONTINUES_STRAIGHT: Record<TravelMode, boolean> = { driving: true, cycling: false, walking: false };

/** The legs of the route through `legEnds` only: the legs between two of them joined into one (OSRM's via points). */
function legsBetween(legs: readonly RouteLeg[], legEnds: readonly number[]): RouteLeg[] {
  return legEnds.slice(1).map((end, k) => joinLegs(legs.slice(legEnds[k]!, end)));
}

/** `elevation`: the dataset's elevations, needed when the request asks `elevation=true`. */
export function answerDirections(
  fullGraph: RoutingGraph,
  params: DirectionsParams & RouteExtras,
  elevation: ElevationLookup | null = null,
): RoutingAnswer {
  // Avoided road classes are left out of snapping and routing alike, as OSRM's `exclude`.
  const graph = excluding(fullGraph, params.avoid);
  const points = [params.origin, ...params.waypoints, params.destination];
  const placed = placePoints(graph, points, params.snapRules, (i) => pointName(i, points.length), params.generateHints, params.pointOrder);
  if (!placed.ok) return placed.answer;
  const { snaps } = placed;
  const continueStraight = params.continueStraight === 'default' ? CONTINUES_STRAIGHT[params.mode] : params.continueStraight === 'true';
  const found = routeLegs(graph, snaps, continueStraight);
  if (!found.ok) {
    const [from, to] = [pointName(found.noRouteLeg, points.length), pointName(found.noRouteLeg + 1, points.length)];
    return { ok: false, code: 'NoRoute', message: `no ${params.mode} route from ${from} to ${to}: the road network does not connect them` };
  }
  const { legEnds } = params;
  const legs = legEnds ? legsBetween(found.legs, legEnds) : found.legs;
  const routes: RouteLeg[][] = [legs];
  // As OSRM: alternatives only between two points.
  if (params.alternatives > 0 && snaps.length === 2) {
    for (const leg of alternatives(graph, snaps[0]!, snaps[1]!, params.alternatives)) routes.push([leg]);
  }
  const waypoints = legEnds ? legEnds.map((i) => snaps[i]!) : snaps;
  const body = directionsBody(routes, waypoints, directionsOptionsOf(params, elevation));
  return { ok: true, body: JSON.stringify(body) };
}
