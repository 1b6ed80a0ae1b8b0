/**
 * Part 2 of the routing benchmark, the baseline without HTTP, pool or gateway: the graph files
 * loaded in this process and the engine called directly on one thread — snapping, the hierarchy
 * search (`route`), the whole directions answer (snap + route + OSRM body with steps),
 * isochrones of 5, 15 and 30 minutes (`answerIsochrone`: snap, bounded search, contours), and map
 * matching of 100-point traces (`answerMatch`: candidates, hidden Markov model, legs, OSRM body).
 */
import type { TravelMode } from '../../core/routing/network.js';
import { answerDirections } from '../../src/routing/answer/directions.js';
import { answerIsochrone } from '../../src/routing/answer/isochrone.js';
import { answerMatch } from '../../src/routing/answer/match.js';
import { SNAP_RADIUS_METRES } from '../../src/routing/answer/task.js';
import type { RoutingGraph } from '../../src/routing/graph/load.js';
import { route } from '../../src/routing/graph/route.js';
import { snap, type Snap } from '../../src/routing/graph/snap.js';
import { sanitizeDirections, sanitizeIsochrone } from '../../src/routing/sanitize/endpoints.js';
import { MAX_TRACE_POINTS, sanitizeMatch } from '../../src/routing/sanitize/match.js';
import { noisyTrace } from '../../test/helpers/traces.js';
import { seededRandom } from '../lib/request-list.js';
import { timeCalls, type CallTimings } from '../lib/timings.js';
import { latLng, snappedPairs, type Position, type SnappedPair } from './random-points.js';

export const ISOCHRONE_MINUTES = [5, 15, 30] as const;
/** How many 100-point traces are matched per mode. */
export const MATCH_TRACES = 30;

export interface BareQueries {
  mode: TravelMode;
  /** The random pairs where both points snapped and the network connects them (those timed). */
  pairs: SnappedPair[];
  /** Pairs where both points snapped but the network does not connect them (left out: they fail fast). */
  unconnected: number;
  snap: CallTimings;
  route: CallTimings;
  directions: CallTimings;
  isochrones: { minutes: number; timings: CallTimings }[];
  /** Map matching of MATCH_TRACES traces of 100 points (fewer when the pairs' routes run out). */
  match: CallTimings;
}

export const directionsQuery = (mode: TravelMode, pair: { origin: Position; destination: Position }) =>
  new URLSearchParams({ origin: latLng(pair.origin), destination: latLng(pair.destination), mode, steps: 'true' });

export const isochroneQuery = (mode: TravelMode, center: Position, minutes: number) =>
  new URLSearchParams({ center: latLng(center), time: String(minutes), mode });

/**
 * Traces of 100 points: the routes of consecutive pairs joined end to start (origin, destination,
 * next origin…) until their line, sampled every 30–60 m with 5–15 m of seeded noise
 * (test/helpers/traces.ts), gives 100 points; the pairs are used once.
 */
function matchTraces(graph: RoutingGraph, pairs: readonly SnappedPair[], seed: number): Position[][] {
  const random = seededRandom(seed);
  const traces: Position[][] = [];
  let line: [number, number][] = [];
  let previous: Snap | null = null;
  for (const pair of pairs) {
    if (traces.length === MATCH_TRACES) break;
    const legs = [previous ? route(graph, previous, pair.from) : null, route(graph, pair.from, pair.to)];
    if (previous && legs[0] === null) (line = []), (previous = null);
    for (const leg of legs) if (leg) line.push(...leg.coordinates);
    previous = pair.to;
    const { trace } = noisyTrace(line, random);
    if (trace.length >= MAX_TRACE_POINTS) traces.push(trace.slice(0, MAX_TRACE_POINTS)), (line = []), (previous = null);
  }
  return traces;
}

export const matchQuery = (mode: TravelMode, trace: Position[]) =>
  new URLSearchParams({ points: trace.map(latLng).join('|'), mode, steps: 'true' });

export function measureBareQueries(graph: RoutingGraph, positions: Position[], centres: Position[]): BareQueries {
  const mode = graph.mode;
  const snapped = snappedPairs(graph, positions);
  const pairs = snapped.filter((p) => route(graph, p.from, p.to) !== null);
  const unconnected = snapped.length - pairs.length;
  const snappedCentres = centres.filter(([lon, lat]) => snap(graph, lon, lat, SNAP_RADIUS_METRES) !== null);
  const isochrones = ISOCHRONE_MINUTES.map((minutes) => {
    const params = snappedCentres.map((c) => sanitizeIsochrone(isochroneQuery(mode, c, minutes)).params);
    return { minutes, timings: timeCalls(params, (p) => answerIsochrone(graph, p)) };
  });
  return {
    mode,
    pairs,
    unconnected,
    snap: timeCalls(positions, ([lon, lat]) => snap(graph, lon, lat, SNAP_RADIUS_METRES)),
    route: timeCalls(pairs, (p) => route(graph, p.from, p.to)),
    directions: timeCalls(
      pairs.map((p) => sanitizeDirections(directionsQuery(mode, p)).params),
      (params) => answerDirections(graph, params),
    ),
    isochrones,
    match: timeCalls(
      matchTraces(graph, pairs, 25).map((trace) => sanitizeMatch(matchQuery(mode, trace))),
      (params) => answerMatch(graph, params),
    ),
  };
}
