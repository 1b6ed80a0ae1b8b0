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
import type { RoutingGraph } from './load.js';
import { route } from './route.js';
import { snapOnSegment, type Snap } from './snap.js';

/** The legs, or the index of the first leg no path joins. */
export type Legs = { ok: true; legs: RouteLeg[] } | { ok: false; noRouteLeg: number };

interface Best {
  duration: number;
  legs: RouteLeg[];
}

/** The snap once per direction of travel it allows (on its segment or another at the same place). */
function perDirection(graph: RoutingGraph, snap: Snap): Snap[] {
  return endpointOfSnap(graph, snap).nodes.map(
    (node): Snap => ({ ...snapOnSegment(snap, node >> 1), alsoOn: undefined, only: node & 1 ? 'backward' : 'forward' }),
  );
}

export function routeLegs(graph: RoutingGraph, snaps: readonly Snap[], continueStraight: boolean): Legs {
  const last = snaps.length - 1;
  const choices = snaps.map((snap, i) => (continueStraight && i > 0 && i < last ? perDirection(graph, snap) : [snap]));
  let previous: (Best | null)[] = [{ duration: 0, legs: [] }];
  for (let i = 1; i <= last; i++) {
    const current = choices[i]!.map((to) => {
      let best: Best | null = null;
      for (const [j, from] of choices[i - 1]!.entries()) {
        const before = previous[j];
        if (!before) continue;
        const leg = route(graph, from, to);
        if (leg && (best === null || before.duration + leg.duration < best.duration)) {
          best = { duration: before.duration + leg.duration, legs: [...before.legs, leg] };
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
 * Consecutive legs as one (OSRM's CollapseInternalRouteResult, for a match's `waypoints`): the
 * lines joined where one leg ends and the next starts, the runs kept in order.
 */
export function joinLegs(legs: readonly RouteLeg[]): RouteLeg {
  if (legs.length === 1) return legs[0]!;
  const joined: RouteLeg = { distance: 0, duration: 0, coordinates: [], segments: [] };
  for (const leg of legs) {
    const offset = Math.max(0, joined.coordinates.length - 1);
    joined.coordinates.push(...(joined.coordinates.length === 0 ? leg.coordinates : leg.coordinates.slice(1)));
    for (const run of leg.segments) joined.segments.push({ ...run, first: run.first + offset, last: run.last + offset });
    joined.distance += leg.distance;
    joined.duration += leg.duration;
  }
  return joined;
}
