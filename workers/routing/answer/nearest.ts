/**
 * OSRM's nearest service on a loaded graph: the `number` nearest pieces of road of the mode (1 by
 * default), nearest first, whatever their component, as OSRM v6's NearestPhantomNodes; or the place
 * a matching hint keeps.
 */
import { encodeHint, snapOfHint } from '../graph/hint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { nearestNodeIds } from '../graph/osm-nodes.js';
import { nearestPieces } from '../graph/snap.js';
import { osrmWaypoint } from '../response/directions-body.js';
import type { NearestBody } from '../response/osrm.js';
import { DEFAULT_SNAP_RULE, noSegmentMessage } from './place.js';
import { filterOf, type NearestParams, type RoutingAnswer } from '../task.js';

export function answerNearest(graph: RoutingGraph, params: NearestParams): RoutingAnswer {
  const rule = params.rule ?? DEFAULT_SNAP_RULE;
  const [lon, lat] = params.point;
  const filter = filterOf(rule);
  const hinted = rule.hint ? snapOfHint(graph, rule.hint, lon, lat, filter) : null;
  const snaps = hinted ? [hinted] : nearestPieces(graph, lon, lat, rule.radius, filter, params.number ?? 1);
  if (snaps.length === 0)
    return {
      ok: false,
      code: 'NoSegment',
      message: noSegmentMessage(params.mode, 'the coordinate', params.point, rule, params.pointOrder),
    };
  if (params.generateHints) for (const snapped of snaps) snapped.hint = encodeHint(graph, snapped);
  const body: NearestBody = {
    code: 'Ok',
    waypoints: snaps.map((snapped) => ({ ...osrmWaypoint(snapped), nodes: nearestNodeIds(graph, snapped) })),
  };
  return { ok: true, body: JSON.stringify(body) };
}
