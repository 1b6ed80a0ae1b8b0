/**
 * Map matching on a loaded graph, as OSRM's match plugin (plugins/match.cpp): the trace tidied when
 * asked, each point's candidates, the hidden Markov model (graph/map-matching.ts), then each
 * matching's legs routed between its chosen candidates (merged between waypoints when `waypoints`
 * names them) and shaped as a directions route with its confidence, and a tracepoint per point.
 */
import { excluding } from '../graph/exclude.js';
import { encodeHint } from '../graph/hint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { joinLegs } from '../graph/legs.js';
import { matchTrace, traceCandidates, type SubMatching, type Trace } from '../graph/map-matching.js';
import { route } from '../graph/route.js';
import type { RouteLeg } from '../path.js';
import { matchBody, type Matching, type Tracepoint } from '../response/match-body.js';
import { directionsOptionsOf } from '../response/directions-body.js';
import type { ElevationLookup } from '../response/route-elevation.js';
import { keepAll, tidyTrace, type TidyTrace } from './tidy-trace.js';
import type { MatchParams, MatchExtras, RoutingAnswer } from '../task.js';

const noMatch = (message: string): RoutingAnswer => ({ ok: false, code: 'NoMatch', message });

/** The legs between consecutive matched points, joined between waypoints when there are any; null if a leg has no route. */
function matchedLegs(graph: RoutingGraph, matching: SubMatching, waypoints: readonly number[] | null): RouteLeg[] | null {
  const legs: RouteLeg[] = [];
  for (let i = 1; i < matching.snaps.length; i++) {
    const leg = route(graph, matching.snaps[i - 1]!, matching.snaps[i]!);
    if (leg === null) return null;
    legs.push(leg);
  }
  if (waypoints === null) return legs;
  const joined: RouteLeg[] = [];
  let first = 0;
  matching.indices.forEach((index, i) => {
    if (i > 0 && waypoints.includes(index)) joined.push(joinLegs(legs.slice(first, i))), (first = i);
  });
  return joined;
}

/** The tracepoint of each original point: null where tidied away or not matched; `hintsOn`: each with its hint on that graph (OSRM's `generate_hints`). */
function tracepointsOf(
  count: number,
  tidy: TidyTrace,
  matchings: readonly SubMatching[],
  hintsOn: RoutingGraph | null,
): (Tracepoint | null)[] {
  const tracepoints = new Array<Tracepoint | null>(count).fill(null);
  const originalWaypoints = new Set(tidy.waypoints?.map((index) => tidy.kept[index]!));
  let waypointCount = 0;
  matchings.forEach((matching, matchingIndex) => {
    matching.indices.forEach((index, i) => {
      const original = tidy.kept[index]!;
      // With `waypoints`, each waypoint numbered in order and every other point 0, as OSRM.
      const waypointIndex = tidy.waypoints === null ? i : originalWaypoints.has(original) ? waypointCount++ : 0;
      const snap = matching.snaps[i]!;
      if (hintsOn) snap.hint = encodeHint(hintsOn, snap);
      tracepoints[original] = {
        point: snap,
        matchingIndex,
        waypointIndex,
        alternativesCount: matching.alternativesCount[i]!,
      };
    });
  });
  return tracepoints;
}

/** `elevation`: the dataset's elevations, needed when the request asks `elevation=true`. */
export function answerMatch(
  fullGraph: RoutingGraph,
  params: MatchParams & MatchExtras,
  elevation: ElevationLookup | null = null,
): RoutingAnswer {
  // Avoided road classes are neither candidates nor on the routes between them, as OSRM's `exclude`.
  const graph = excluding(fullGraph, params.avoid);
  const { points, timestamps, radiuses, waypoints } = params;
  const tidy = params.tidy ? tidyTrace(points, timestamps, waypoints) : keepAll(points.length, waypoints);
  const trace: Trace = {
    points: tidy.kept.map((i) => points[i]!),
    timestamps: timestamps === null ? null : tidy.kept.map((i) => timestamps[i]!),
    precisions: tidy.kept.map((i) => radiuses[i]!),
    splitOnGaps: params.gaps === 'split',
    ...(params.snapFilters ? { filters: tidy.kept.map((i) => params.snapFilters![i]!) } : {}),
  };
  const candidates = traceCandidates(graph, trace);
  if (candidates.every((list) => list.length === 0))
    return {
      ok: false,
      code: 'NoSegment',
      message: `no road for ${params.mode} near any point of the trace: could not find a matching segment for any coordinate`,
    };
  const found = matchTrace(graph, trace, candidates);
  if (found.length === 0) return noMatch('could not match the trace: no two consecutive points could be matched onto connected roads');
  if (tidy.waypoints !== null) {
    if (found.length > 1) return noMatch('could not match the trace with the given waypoints: it is split into several matchings');
    const matched = new Set(found[0]!.indices);
    if (!tidy.waypoints.every((index) => matched.has(index))) return noMatch('a point named in waypoints could not be matched');
  }
  const matchings: Matching[] = [];
  for (const matching of found) {
    const legs = matchedLegs(graph, matching, tidy.waypoints);
    if (legs === null) return noMatch('could not match the trace: a matched leg has no route');
    matchings.push({ legs, confidence: matching.confidence });
  }
  const body = matchBody(
    matchings,
    tracepointsOf(points.length, tidy, found, params.generateHints ? graph : null),
    directionsOptionsOf(params, elevation),
  );
  return { ok: true, body: JSON.stringify(body) };
}
