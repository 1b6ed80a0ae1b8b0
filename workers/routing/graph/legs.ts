/**
 * The legs of a route through its snapped points in order. Without `continueStraight` each leg is
 * the fastest on its own, so a route may turn round at a via point. With it (OSRM's
 * `continue_straight`, the car profile's default), the route leaves each via point in the direction
 * it arrived: each via point gets the direction along its segment (forward or backward) that makes
 * the whole route fastest, by a dynamic programme over at most two directions per point, so at
 * most four searches per leg.
 */
import type { RouteLeg } from '../path.js';
import { endpointOfSnap } from './endpoint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { route } from './route.js';
import { snapOnSegment, type Snap } from './snap.js';

/** The legs, or the index of the first leg no path joins. */
export type Legs = { ok: true; legs: RouteLeg[] } | { ok: false; noRouteLeg: number };

interface Best {
  duration: number;
  /** Of it, the seconds to the previous point. */
  before: number;
  legs: RouteLeg[];
}

/** The snap once per direction of travel it allows (on its segment or another at the same place). */
function perDirection(graph: RoutingGraph, snap: Snap): Snap[] {
  return endpointOfSnap(graph, snap).nodes.map(
    (node): Snap => ({ ...snapOnSegment(snap, node >> 1), alsoOn: undefined, only: node & 1 ? 'backward' : 'forward' }),
  );
}

/** Seconds within which two routes through the via points are equally fast. */
const TIE_SECONDS = 1e-6;

/**
 * Whether arriving `before` seconds into the previous point, `total` seconds in all, beats `best`;
 * of equally fast ones the one that reaches the previous point later, as OSRM's search seeded with
 * both directions of a via point settles the tie (its seed beats a path through it): a detour to
 * turn round goes in the leg that arrives, not the one that leaves (car/restrictions.feature:119).
 */
function isBetter(total: number, before: number, best: Best): boolean {
  if (Math.abs(total - best.duration) > TIE_SECONDS) return total < best.duration;
  return before > best.before + TIE_SECONDS;
}

export function routeLegs(graph: RoutingGraph, snaps: readonly Snap[], continueStraight: boolean): Legs {
  const last = snaps.length - 1;
  const choices = snaps.map((snap, i) => (continueStraight && i > 0 && i < last ? perDirection(graph, snap) : [snap]));
  let previous: (Best | null)[] = [{ duration: 0, before: 0, legs: [] }];
  for (let i = 1; i <= last; i++) {
    const current = choices[i]!.map((to) => {
      let best: Best | null = null;
      for (const [j, from] of choices[i - 1]!.entries()) {
        const before = previous[j];
        if (!before) continue;
        const leg = route(graph, from, to);
        if (leg && (best === null || isBetter(before.duration + leg.duration, before.duration, best))) {
          best = { duration: before.duration + leg.duration, before: before.duration, legs: [...before.legs, leg] };
        }
      }
      return best;
    });
    if (current.every((best) => best === null)) return { ok: false, noRouteLeg: i - 1 };
    previous = current;
  }
  const best = previous.find((b) => b !== null)!;
  return { ok: true, legs: best.legs };
}

/**
 * One leg through consecutive legs (OSRM's via points, which `waypoints` leaves out, do not end a
 * leg): their polylines joined at the shared point, the run arriving at it continued by the run
 * leaving it when both are the same road.
 */
export function joinLegs(legs: readonly RouteLeg[]): RouteLeg {
  const [first, ...rest] = legs as [RouteLeg, ...RouteLeg[]];
  const joined: RouteLeg = {
    ...first,
    coordinates: [...first.coordinates],
    nodes: [...first.nodes],
    roadElevations: [...(first.roadElevations ?? first.coordinates.map(() => NaN))],
    segments: first.segments.map((run) => ({ ...run })),
    spans: [...first.spans],
  };
  for (const leg of rest) {
    const end = joined.coordinates[joined.coordinates.length - 1]!;
    const start = leg.coordinates[0]!;
    // The via point's snap may lie on another segment at the same place: then a piece of no length joins them.
    const same = end[0] === start[0] && end[1] === start[1];
    const offset = joined.coordinates.length - (same ? 1 : 0);
    joined.coordinates.push(...(same ? leg.coordinates.slice(1) : leg.coordinates));
    // At the via point the arriving leg's node id stays (the one ahead of it when it lies inside a piece).
    joined.nodes.push(...(same ? leg.nodes.slice(1) : leg.nodes));
    const roads = leg.roadElevations ?? leg.coordinates.map(() => NaN);
    joined.roadElevations!.push(...(same ? roads.slice(1) : roads));
    for (const span of leg.spans) joined.spans.push({ ...span, first: span.first + offset, last: span.last + offset });
    const arriving = joined.segments[joined.segments.length - 1]!;
    arriving.last = offset;
    for (const [i, run] of leg.segments.entries()) {
      const shifted = { ...run, first: run.first + offset, last: run.last + offset };
      const sameRoad =
        !run.roundabout && !arriving.roundabout && run.name === arriving.name && run.ref === arriving.ref && run.travel === arriving.travel;
      if (i === 0 && sameRoad) {
        arriving.distance += run.distance;
        arriving.duration += run.duration;
        arriving.last = shifted.last;
        if (run.junctionsPassed) arriving.junctionsPassed = (arriving.junctionsPassed ?? 0) + run.junctionsPassed;
      } else joined.segments.push(shifted);
    }
    joined.distance += leg.distance;
    joined.duration += leg.duration;
  }
  return joined;
}
