/** The OSRM v5 route service body from the legs the routing core found: routes, legs, steps and waypoints. */
import type { RouteLeg, SnappedPoint } from '../path.js';
import { legAnnotation } from './annotation.js';
import { encodeGeometry, overviewIndices } from './geometry.js';
import type { DirectionsBody, OsrmLeg, OsrmRoute, OsrmWaypoint } from './osrm.js';
import { position, tenths } from './rounding.js';
import { routeElevation, type ElevationLookup } from './route-elevation.js';
import { legSteps, type StepOptions } from './steps.js';
import { legSummary } from './summary.js';
import type { Overview, RouteAnnotation } from '../task.js';
import type { LonLat } from '../../../core/geo/types.js';

export interface DirectionsOptions extends StepOptions {
  steps: boolean;
  overview: Overview;
  /** OSRM's route `annotations` asked (none when absent or empty). */
  annotations?: readonly RouteAnnotation[];
  /** Where a route's ascent, descent and elevation profile come from (`elevation=true`); none when absent. */
  elevation?: ElevationLookup;
}

/**
 * The body options of a request's parameters (directions, match, trip: they share these names);
 * `elevation`: the dataset's elevations, for a request that asks `elevation=true`.
 */
export function directionsOptionsOf(
  params: Omit<DirectionsOptions, 'elevation'> & { elevation?: boolean },
  elevation: ElevationLookup | null,
): DirectionsOptions {
  const { steps, overview, geometries, lang, mode, annotations } = params;
  if (params.elevation && elevation === null) throw new Error('elevation=true on a dataset without elevations');
  return {
    steps,
    overview,
    geometries,
    lang,
    mode,
    ...(annotations ? { annotations } : {}),
    ...(params.elevation && elevation ? { elevation } : {}),
  };
}

/** The route's whole line: each leg's points, without repeating the waypoint where one leg meets the next. */
function routeCoordinates(legs: readonly RouteLeg[]): readonly LonLat[] {
  if (legs.length === 1) return legs[0]!.coordinates;
  return legs.flatMap((leg, index) => (index === 0 ? leg.coordinates : leg.coordinates.slice(1)));
}

/** The way's elevations along the route's whole line (RouteLeg.roadElevations, NaN on the ground), as `routeCoordinates` joins the legs; undefined when no leg has them. */
function routeRoadElevations(legs: readonly RouteLeg[]): number[] | undefined {
  if (legs.every((leg) => leg.roadElevations === undefined)) return undefined;
  const ofLeg = (leg: RouteLeg) => leg.roadElevations ?? leg.coordinates.map(() => NaN);
  const joined = [...ofLeg(legs[0]!)];
  for (const leg of legs.slice(1)) {
    const [meeting, ...rest] = ofLeg(leg);
    // The waypoint where two legs meet is one point: a bridge's elevation there if either has one.
    if (Number.isNaN(joined[joined.length - 1]!)) joined[joined.length - 1] = meeting!;
    joined.push(...rest);
  }
  return joined;
}

function osrmLeg(leg: RouteLeg, legIndex: number, legCount: number, options: DirectionsOptions): OsrmLeg {
  return {
    distance: tenths(leg.distance),
    duration: tenths(leg.duration),
    weight: tenths(leg.duration),
    summary: legSummary(leg),
    steps: options.steps ? legSteps(leg, options, { legIndex, legCount }) : [],
    annotation: options.annotations?.length ? legAnnotation(leg, options.annotations) : undefined,
  };
}

/**
 * One route of the body: its legs in order, their sum and the route's line; with `elevation`, its
 * ascent, descent and profile (at the points of its geometry; along the whole line with overview=false).
 */
export function osrmRoute(legs: readonly RouteLeg[], options: DirectionsOptions): OsrmRoute {
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const duration = legs.reduce((sum, leg) => sum + leg.duration, 0);
  const line = routeCoordinates(legs);
  const kept = overviewIndices(line, options.overview);
  const route: OsrmRoute = {
    distance: tenths(distance),
    duration: tenths(duration),
    weight: tenths(duration),
    weight_name: 'duration',
    geometry:
      kept === undefined
        ? undefined
        : encodeGeometry(
            kept.map((index) => line[index]!),
            options.geometries,
          ),
    legs: legs.map((leg, index) => osrmLeg(leg, index, legs.length, options)),
  };
  if (options.elevation)
    Object.assign(route, routeElevation(line, kept ?? line.map((_, index) => index), options.elevation, routeRoadElevations(legs)));
  return route;
}

/** A field that does not apply is undefined, which JSON leaves out (rather than spread in: V8 copies spreads slowly). */
export function osrmWaypoint(point: SnappedPoint): OsrmWaypoint {
  return {
    hint: point.hint,
    name: point.name,
    location: position(point.location),
    distance: tenths(point.distance),
  };
}

/**
 * `routes`: the best route first, then the alternatives, each given as its legs (one per pair of
 * consecutive waypoints); `waypoints`: the snapped origin, waypoints and destination in order.
 */
export function directionsBody(
  routes: readonly (readonly RouteLeg[])[],
  waypoints: readonly SnappedPoint[],
  options: DirectionsOptions,
): DirectionsBody {
  return {
    code: 'Ok',
    routes: routes.map((legs) => osrmRoute(legs, options)),
    waypoints: waypoints.map(osrmWaypoint),
  };
}
