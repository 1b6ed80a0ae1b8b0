/** The OSRM v5 match service body: each matching a route (directions-body.ts) with its confidence, and the tracepoints. */
import type { RouteLeg, SnappedPoint } from '../path.js';
import { osrmRoute, osrmWaypoint, type DirectionsOptions } from './directions-body.js';
import type { MatchBody, OsrmTracepoint } from './osrm.js';

/** One matched part of the trace: its legs (one per pair of consecutive waypoints) and OSRM's confidence. */
export interface Matching {
  legs: readonly RouteLeg[];
  confidence: number;
}

/** Where one trace point was matched. */
export interface Tracepoint {
  point: SnappedPoint;
  matchingIndex: number;
  waypointIndex: number;
  alternativesCount: number;
}

function osrmTracepoint(tracepoint: Tracepoint): OsrmTracepoint {
  return {
    ...osrmWaypoint(tracepoint.point),
    matchings_index: tracepoint.matchingIndex,
    waypoint_index: tracepoint.waypointIndex,
    alternatives_count: tracepoint.alternativesCount,
  };
}

/** `tracepoints`: one per trace point given, null where it was not matched (or tidied away). */
export function matchBody(
  matchings: readonly Matching[],
  tracepoints: readonly (Tracepoint | null)[],
  options: DirectionsOptions,
): MatchBody {
  return {
    code: 'Ok',
    matchings: matchings.map(({ legs, confidence }) => ({ ...osrmRoute(legs, options), confidence })),
    tracepoints: tracepoints.map((tracepoint) => (tracepoint === null ? null : osrmTracepoint(tracepoint))),
  };
}
