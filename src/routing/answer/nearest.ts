/** OSRM's nearest service on a loaded graph: the point snapped to the nearest road of the mode. */
import type { RoutingGraph } from '../graph/load.js';
import { snap } from '../graph/snap.js';
import { osrmWaypoint } from '../response/directions-body.js';
import type { NearestBody } from '../response/osrm.js';
import { SNAP_RADIUS_METRES, type NearestParams, type RoutingAnswer } from './task.js';

export function answerNearest(graph: RoutingGraph, params: NearestParams): RoutingAnswer {
  const [lon, lat] = params.point;
  // The same snap as directions, so the waypoint equals a route's from the same point.
  const snapped = snap(graph, lon, lat, SNAP_RADIUS_METRES);
  if (snapped === null)
    return { ok: false, code: 'NoSegment', message: `no road for ${params.mode} within ${SNAP_RADIUS_METRES} m of (${lat},${lon})` };
  const body: NearestBody = { code: 'Ok', waypoints: [osrmWaypoint(snapped)] };
  return { ok: true, body: JSON.stringify(body) };
}
