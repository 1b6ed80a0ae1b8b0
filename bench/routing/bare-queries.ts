/**
 * Part 2 of the routing benchmark, the baseline without HTTP, pool or gateway: the graph files
 * loaded in this process and the engine called directly on one thread — snapping, the hierarchy
 * search (`route`), the whole directions answer (snap + route + OSRM body with steps), and
 * isochrones of 5, 15 and 30 minutes (`answerIsochrone`: snap, bounded search, contours), and
 * the route with each road class the mode may exclude (OSRM's `exclude`) beside the plain one.
 */
import { performance } from 'node:perf_hooks';
import { EXCLUDABLE_CLASSES, classMask, type RoadClass, type TravelMode } from '../../core/routing/network.js';
import { excluding } from '../../src/routing/graph/exclude.js';
import { answerDirections } from '../../src/routing/answer/directions.js';
import { answerIsochrone } from '../../src/routing/answer/isochrone.js';
import { SNAP_RADIUS_METRES } from '../../src/routing/answer/task.js';
import type { RoutingGraph } from '../../src/routing/graph/load.js';
import { route } from '../../src/routing/graph/route.js';
import { snap } from '../../src/routing/graph/snap.js';
import { sanitizeDirections, sanitizeIsochrone } from '../../src/routing/sanitize/endpoints.js';
import { timeCalls, type CallTimings } from '../lib/timings.js';
import { latLng, snappedPairs, type Position, type SnappedPair } from './random-points.js';

export const ISOCHRONE_MINUTES = [5, 15, 30] as const;

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
