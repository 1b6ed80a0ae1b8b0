/**
 * A trip on a loaded graph (OSRM's trip service, `/optimize`): the points snapped as in directions,
 * the travel times between every two of them by one many-to-many search, the order to visit them
 * (trip/visit-order.ts), and the legs routed in that order, each the fastest on its own as OSRM's
 * trip routes them (no continue_straight), so each leg's time is the table's.
 */
import { endpointOfSnap, targetOfSnap } from '../graph/endpoint.js';
import { excluding } from '../graph/exclude.js';
import { routeLegs } from '../graph/legs.js';
import type { RoutingGraph } from '../graph/load.js';
import { manyToMany } from '../graph/many-to-many.js';
import { optimizeBody, tripBody } from '../response/trip-body.js';
import { directionsOptionsOf } from '../response/directions-body.js';
import type { ElevationLookup } from '../response/route-elevation.js';
import type { OptimizeParams } from '../sanitize/optimize.js';
import { visitOrder } from '../trip/visit-order.js';
import { placePoints } from './place.js';
import type { AnnotationExtras, OsrmExtras, RoutingAnswer, TripBodyKind } from './task.js';

const pointName = (index: number) => `points[${index}]`;

/** The first ordered pair of points the network does not lead between, or null when every pair is joined. */
function unjoinedPair(times: Float64Array, n: number): [number, number] | null {
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (times[i * n + j] === Infinity) return [i, j];
  return null;
}

export function answerTrip(
  fullGraph: RoutingGraph,
  params: OptimizeParams & OsrmExtras & AnnotationExtras,
  body: TripBodyKind,
  elevation: ElevationLookup | null = null,
): RoutingAnswer {
  const graph = excluding(fullGraph, params.avoid);
  const placed = placePoints(graph, params.points, params.snapRules, pointName, params.generateHints, params.pointOrder);
  if (!placed.ok) return placed.answer;
  const { snaps } = placed;
  const n = snaps.length;
  const { time } = manyToMany(
    graph,
    snaps.map((s) => endpointOfSnap(graph, s)),
    snaps.map((s) => targetOfSnap(graph, s)),
  );
  // As OSRM: every point must be reachable from every other (one strongly connected set), else no trip.
  const unjoined = unjoinedPair(time, n);
  if (unjoined !== null) {
    const [from, to] = unjoined.map(pointName);
    return {
      ok: false,
      code: 'NoTrips',
      message: `no trip visits every point: the ${params.mode} road network does not lead from ${from} to ${to}`,
    };
  }
  const { ends } = params;
  const order = visitOrder(time, n, ends);
  const stops = ends.roundtrip ? [...order, order[0]!] : order;
  const found = routeLegs(
    graph,
    stops.map((i) => snaps[i]!),
    false,
  );
  if (!found.ok) {
    const [from, to] = [stops[found.noRouteLeg]!, stops[found.noRouteLeg + 1]!].map(pointName);
    return { ok: false, code: 'NoTrips', message: `no ${params.mode} route from ${from} to ${to}: the road network does not connect them` };
  }
  const options = directionsOptionsOf(params, elevation);
  const answer = body === 'osrm' ? tripBody(found.legs, snaps, stops, options) : optimizeBody(found.legs, snaps, stops, options);
  return { ok: true, body: JSON.stringify(answer) };
}
