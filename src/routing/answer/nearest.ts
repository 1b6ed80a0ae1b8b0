/** OSRM's nearest service on a loaded graph: the point snapped to the nearest road of the mode, or the `number` nearest roads. */
import { encodeHint } from '../graph/hint.js';
import type { RoutingGraph } from '../graph/load.js';
import { nearestNodeIds } from '../graph/osm-nodes.js';
import { nearestSegments } from '../graph/snap.js';
import { osrmWaypoint } from '../response/directions-body.js';
import type { NearestBody } from '../response/osrm.js';
import { DEFAULT_SNAP_RULE, filterOf, noSegmentMessage, placePoint } from './place.js';
import type { NearestParams, RoutingAnswer } from './task.js';

export function answerNearest(graph: RoutingGraph, params: NearestParams): RoutingAnswer {
  const rule = params.rule ?? DEFAULT_SNAP_RULE;
  const count = params.number ?? 1;
  const withHints = params.generateHints ?? false;
  // One road: the same snap as directions, so the waypoint equals a route's from the same point.
  // More: the nearest distinct segments, nearest first, as OSRM lists them.
  const snaps =
    count === 1
      ? [placePoint(graph, params.point, rule, withHints)].filter((s) => s !== null)
      : nearestSegments(graph, params.point[0], params.point[1], rule.radius, filterOf(rule), count);
  if (snaps.length === 0)
    return {
      ok: false,
      code: 'NoSegment',
      message: noSegmentMessage(params.mode, 'the coordinate', params.point, rule, params.pointOrder),
    };
  if (withHints && count > 1) for (const snapped of snaps) snapped.hint = encodeHint(graph, snapped);
  const body: NearestBody = {
    code: 'Ok',
    waypoints: snaps.map((snapped) => ({ ...osrmWaypoint(snapped), nodes: nearestNodeIds(graph, snapped) })),
  };
  return { ok: true, body: JSON.stringify(body) };
}
