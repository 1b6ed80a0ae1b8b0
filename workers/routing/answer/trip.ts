/**
 * A trip on a loaded graph (OSRM's trip service, `/optimize`): the points snapped as OSRM v6 snaps
 * a trip's (each on its nearest road, or on the big component's nearest when that road is an
 * isolated piece, below), the travel times between every two of them by one many-to-many search,
 * the order to visit them (trip/visit-order.ts), and the legs routed in that order, each the
 * fastest on its own as OSRM's trip routes them (no continue_straight), so each leg's time is the
 * table's.
 */
import { endpointOfSnap, targetOfSnap } from '../graph/endpoint.js';
import { encodeHint } from '../graph/hint.js';
import { excluding } from '../graph/exclude.js';
import { routeLegs } from '../graph/legs.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { manyToMany } from '../graph/many-to-many.js';
import { onSmallComponent, type Snap } from '../graph/snap.js';
import { optimizeBody, tripBody } from '../response/trip-body.js';
import { directionsOptionsOf } from '../response/directions-body.js';
import type { ElevationLookup } from '../response/route-elevation.js';
import { visitOrder } from '../trip/visit-order.js';
import { placeCandidates, type SnapCandidates } from './place.js';
import type { OptimizeParams, AnnotationExtras, OsrmExtras, RoutingAnswer, TripBodyKind } from '../task.js';

const pointName = (index: number) => `points[${index}]`;

/** The first ordered pair of points the network does not lead between, or null when every pair is joined. */
function unjoinedPair(times: Float64Array, n: number): [number, number] | null {
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (times[i * n + j] === Infinity) return [i, j];
  return null;
}

/** Travel times between every two of the snaps (row: from), by one many-to-many search; Infinity where none leads. */
function timesBetween(graph: RoutingGraph, snaps: readonly Snap[]): Float64Array {
  return manyToMany(
    graph,
    snaps.map((s) => endpointOfSnap(graph, s)),
    snaps.map((s) => targetOfSnap(graph, s)),
  ).time;
}

/**
 * The snap each point's trip takes, as OSRM v6's SnapPhantomNodes (plugin_base.hpp) chooses: the
 * nearest ones when no point has a big-component alternative, or when every point's nearest lies in
 * one small component (all on small components, each reaching every other: the trip stays on that
 * island); else each point's big-component alternative where it has one, so that a point beside a
 * cut-off driveway or forest track joins the others instead of making the trip NoTrips. With the
 * travel times between the snaps chosen.
 */
function chooseSnaps(graph: RoutingGraph, candidates: readonly SnapCandidates[]): { snaps: Snap[]; time: Float64Array } {
  const nearest = candidates.map((c) => c.nearest);
  if (candidates.every((c) => c.big === null)) return { snaps: nearest, time: timesBetween(graph, nearest) };
  if (nearest.every((s) => onSmallComponent(graph, s))) {
    const time = timesBetween(graph, nearest);
    if (unjoinedPair(time, nearest.length) === null) return { snaps: nearest, time };
  }
  const snaps = candidates.map((c) => c.big ?? c.nearest);
  return { snaps, time: timesBetween(graph, snaps) };
}

export function answerTrip(
  fullGraph: RoutingGraph,
  params: OptimizeParams & OsrmExtras & AnnotationExtras,
  body: TripBodyKind,
  elevation: ElevationLookup | null = null,
): RoutingAnswer {
  const graph = excluding(fullGraph, params.avoid);
  const placed = placeCandidates(graph, params.points, params.snapRules, pointName, params.pointOrder);
  if (!placed.ok) return placed.answer;
  const { snaps, time } = chooseSnaps(graph, placed.candidates);
  if (params.generateHints) for (const snapped of snaps) snapped.hint = encodeHint(graph, snapped);
  const n = snaps.length;
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
