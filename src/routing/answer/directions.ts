/**
 * Directions on a loaded graph: each point snapped to its nearest road, one leg between each
 * consecutive pair, alternatives for a plain A-to-B request, and the OSRM body.
 */
import { alternatives } from '../graph/alternatives.js';
import type { RoutingGraph } from '../graph/load.js';
import { routeLegs } from '../graph/legs.js';
import { excluding } from '../graph/exclude.js';
import { snap, type Snap } from '../graph/snap.js';
import type { RouteLeg } from '../path.js';
import { directionsBody } from '../response/directions-body.js';
import type { DirectionsParams } from '../sanitize/endpoints.js';
import type { RoutingAnswer } from './task.js';
import type { TravelMode } from '../../../core/routing/network.js';

/** Whether a route keeps going at its via points by default: OSRM's continue_straight_at_waypoint (car true, bicycle and foot false). */
const CONTINUES_STRAIGHT: Record<TravelMode, boolean> = { driving: true, cycling: false, walking: false };

function pointName(index: number, count: number): string {
  if (index === 0) return 'origin';
  return index === count - 1 ? 'destination' : `waypoints[${index - 1}]`;
}

export function answerDirections(fullGraph: RoutingGraph, params: DirectionsParams): RoutingAnswer {
  // Avoided road classes are left out of snapping and routing alike, as OSRM's `exclude`.
  const graph = excluding(fullGraph, params.avoid);
  const points = [params.origin, ...params.waypoints, params.destination];
  const snaps: Snap[] = [];
  for (const [i, [lon, lat]] of points.entries()) {
    const { radius, bearing, anySegment } = params.snapRules[i]!;
    const snapped = snap(graph, lon, lat, radius, { bearing, anySegment });
    if (snapped === null) {
      const name = pointName(i, points.length);
      const within = Number.isFinite(radius) ? ` within ${radius} m` : '';
      const heading = bearing ? ` heading ${bearing.value}±${bearing.range}°` : '';
      return { ok: false, code: 'NoSegment', message: `no road for ${params.mode}${heading}${within} of ${name} (${lat},${lon})` };
    }
    snaps.push(snapped);
  }
  const continueStraight = params.continueStraight === 'default' ? CONTINUES_STRAIGHT[params.mode] : params.continueStraight === 'true';
  const found = routeLegs(graph, snaps, continueStraight);
  if (!found.ok) {
    const [from, to] = [pointName(found.noRouteLeg, points.length), pointName(found.noRouteLeg + 1, points.length)];
    return { ok: false, code: 'NoRoute', message: `no ${params.mode} route from ${from} to ${to}: the road network does not connect them` };
  }
  const { legs } = found;
  const routes: RouteLeg[][] = [legs];
  // As OSRM: alternatives only between two points.
  if (params.alternatives > 0 && snaps.length === 2) {
    for (const leg of alternatives(graph, snaps[0]!, snaps[1]!, params.alternatives)) routes.push([leg]);
  }
  const body = directionsBody(routes, snaps, {
    steps: params.steps,
    overview: params.overview,
    geometries: params.geometries,
    lang: params.lang,
    mode: params.mode,
  });
  return { ok: true, body: JSON.stringify(body) };
}
