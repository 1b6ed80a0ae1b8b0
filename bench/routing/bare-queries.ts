/**
 * Part 2 of the routing benchmark, the baseline without HTTP, pool or gateway: the graph files
 * loaded in this process and the engine called directly on one thread — snapping, the hierarchy
 * search (`route`), the whole directions answer (snap + route + OSRM body with steps),
 * isochrones of 5, 15 and 30 minutes (`answerIsochrone`: snap, bounded search, contours), map
 * matching of 100-point traces (`answerMatch`: candidates, hidden Markov model, legs, OSRM body),
 * trips of 10 and 25 points (`answerTrip`: snaps, travel-time table, visit order, legs, OSRM trip body),
 * and the route with each road class the mode may exclude (OSRM's `exclude`) beside the plain one.
 */
import { performance } from 'node:perf_hooks';
import { EXCLUDABLE_CLASSES, classMask, type RoadClass, type TravelMode } from '../../core/routing/network.js';
import { excluding } from '../../workers/routing/graph/exclude.js';
import { answerDirections } from '../../workers/routing/answer/directions.js';
import { answerIsochrone } from '../../workers/routing/answer/isochrone.js';
import { answerMatch } from '../../workers/routing/answer/match.js';
import { answerTrip } from '../../workers/routing/answer/trip.js';
import { endpointOfSnap, targetOfSnap } from '../../workers/routing/graph/endpoint.js';
import type { RoutingGraph } from '../../core/routing/graph-file.js';
import { manyToMany } from '../../workers/routing/graph/many-to-many.js';
import { route } from '../../workers/routing/graph/route.js';
import { snap, type Snap } from '../../workers/routing/graph/snap.js';
import { sanitizeDirections, sanitizeIsochrone } from '../../src/routing/sanitize/endpoints.js';
import { MAX_TRACE_POINTS, sanitizeMatch } from '../../src/routing/sanitize/match.js';
import { noisyTrace } from '../../test/helpers/traces.js';
import { seededRandom } from '../lib/request-list.js';
import { sanitizeOptimize } from '../../src/routing/sanitize/optimize.js';
import { timeCalls, type CallTimings } from '../lib/timings.js';
import { latLng, snappedPairs, type Position, type SnappedPair } from './random-points.js';
import { SNAP_RADIUS_METRES } from '../../workers/routing/task.js';

export const ISOCHRONE_MINUTES = [5, 15, 30] as const;
/** How many 100-point traces are matched per mode. */
export const MATCH_TRACES = 30;
export const TRIP_POINTS = [10, 25] as const;
/** Trips timed per size at most. */
const TRIPS_PER_SIZE = 40;

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
  trips: { points: number; timings: CallTimings }[];
  /**
   * Route with road classes excluded: each class the mode may exclude alone, then all of them
   * (driving); the pairs that snap and connect without those classes, and the milliseconds the
   * exclusion's view of the graph took to make on first use.
   */
  excluding: { classes: RoadClass[]; pairs: number; viewMs: number; route: CallTimings }[];
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
export const tripQuery = (mode: TravelMode, points: Position[]) =>
  new URLSearchParams({ points: points.map(latLng).join('|'), mode, steps: 'true' });

/**
 * The points of the timed pairs that can all be reached from one another (those joined both ways
 * with the best-joined one, by one many-to-many search): a trip over them is never NoTrips.
 */
function joinedPoints(graph: RoutingGraph, pairs: readonly SnappedPair[]): Position[] {
  const snaps = pairs.flatMap((p) => [p.from, p.to]);
  const n = snaps.length;
  const { time } = manyToMany(
    graph,
    snaps.map((s) => endpointOfSnap(graph, s)),
    snaps.map((s) => targetOfSnap(graph, s)),
  );
  const joined = (i: number, j: number) => time[i * n + j]! < Infinity && time[j * n + i]! < Infinity;
  const reach = snaps.map((_, i) => snaps.filter((_, j) => joined(i, j)).length);
  const anchor = reach.indexOf(Math.max(...reach));
  return pairs.flatMap((p) => [p.origin, p.destination]).filter((_, i) => joined(anchor, i));
}

/** Round trips (OSRM's defaults) over `size` consecutive joined points, each set starting one point further. */
export function measureTrips(graph: RoutingGraph, pairs: readonly SnappedPair[]): { points: number; timings: CallTimings }[] {
  const points = joinedPoints(graph, pairs);
  return TRIP_POINTS.map((size) => {
    const trips = [];
    for (let i = 0; i + size <= points.length && trips.length < TRIPS_PER_SIZE; i++)
      trips.push(sanitizeOptimize(tripQuery(graph.mode, points.slice(i, i + size))));
    return { points: size, timings: timeCalls(trips, (params) => answerTrip(graph, params, 'osrm')) };
  });
}

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
    trips: measureTrips(graph, pairs),
    excluding: exclusions(mode).map((classes) => {
      const started = performance.now();
      const view = excluding(graph, classMask(classes));
      const viewMs = performance.now() - started;
      const routable = snappedPairs(view, positions).filter((p) => route(view, p.from, p.to) !== null);
      return { classes, pairs: routable.length, viewMs, route: timeCalls(routable, (p) => route(view, p.from, p.to)) };
    }),
  };
}

/** Each class the mode may exclude alone, and all of them together when there are several. */
function exclusions(mode: TravelMode): RoadClass[][] {
  const classes = EXCLUDABLE_CLASSES[mode];
  return [...classes.map((c) => [c]), ...(classes.length > 1 ? [[...classes]] : [])];
}
