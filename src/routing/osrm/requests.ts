/**
 * OSRM requests turned into the parameters of Waymark's own endpoints: the path's coordinates
 * become `origin`/`waypoints`/`destination` or `sources`/`destinations`, OSRM's options of the same
 * name pass through, and Waymark's checks run on the result; every refusal carries OSRM's code.
 */
import { list, quoted } from '../../http/params/messages.js';
import { EXCLUDABLE_CLASSES, type RoadClass, type TravelMode } from '../../../core/routing/network.js';
import { avoidWordOf } from '../sanitize/avoid.js';
import type { Request } from '../../http/request.js';
import { messages } from '../sanitize/messages.js';
import { sanitizeDirections } from '../sanitize/endpoints.js';
import { MAX_MATCH_RADIUS, MAX_TRACE_POINTS, sanitizeMatch } from '../sanitize/match.js';
import { checkElementCount, sanitizeMatrix } from '../sanitize/matrix.js';
import { MAX_WAYPOINTS } from '../sanitize/points.js';
import { isSupportedTrip, MAX_TRIP_POINTS, sanitizeOptimize, sanitizeTripEnds } from '../sanitize/optimize.js';
import { sanitize } from '../../http/params/compose.js';
import { sanitizeContinueStraight } from '../sanitize/route-options.js';
import { parsePosition } from '../../http/params/position.js';
import { osrmError, withOsrmCode, type OsrmErrorCode } from './errors.js';
import { parseOsrmPath } from './path.js';
import { checkOsrmQuery, type SharedOptions } from './query.js';
import { osrmSnapRules } from './snapping.js';
import {
  type AnnotationExtras,
  type MatchExtras,
  type NearestParams,
  type OsrmExtras,
  type RouteExtras,
  ROUTE_ANNOTATIONS,
  type RouteAnnotation,
  type DirectionsParams,
  type MatchParams,
  type MatrixParams,
  type OptimizeParams,
  filterOf,
  type SnapRule,
} from '../../../workers/routing/task.js';

export type OsrmRequest<P> = SharedOptions & { params: P };

/** Most roads nearest asks for (`number`): osrm-routed's default `--max-nearest-size`. */
export const MAX_NEAREST = 100;

/** One entry of a `;`-separated list of indexes into the `count` coordinates, or OSRM's `code` naming `name`. */
function coordinateIndex(name: string, entry: string, count: number, code: OsrmErrorCode): number {
  const index = /^\d{1,6}$/.test(entry) ? Number(entry) : NaN;
  if (!(index < count))
    throw osrmError(code, `invalid parameter '${name}': ${quoted(entry)} is not the index of one of the ${count} coordinates`);
  return index;
}

/** Options of OSRM's route service that `/directions` takes under the same name and syntax. */
const ROUTE_OPTIONS = ['alternatives', 'steps', 'geometries', 'overview', 'continue_straight'] as const;
/** Options of OSRM's trip service that `/optimize` takes under the same name and syntax. */
const TRIP_OPTIONS = ['roundtrip', 'source', 'destination', 'steps', 'geometries', 'overview'] as const;

/** Copies `names` from OSRM's `query` into Waymark's `into`. */
function copyOptions(query: URLSearchParams, into: URLSearchParams, names: readonly string[]): void {
  for (const name of names) {
    const value = query.get(name);
    if (value !== null) into.set(name, value);
  }
}

/** OSRM's route `annotations`: `true` (all of them), `false`, or a comma list. */
function routeAnnotations(query: URLSearchParams): RouteAnnotation[] {
  const raw = query.get('annotations');
  if (raw === null || raw === 'false') return [];
  if (raw === 'true') return [...ROUTE_ANNOTATIONS];
  const words = raw.split(',');
  const unknown = words.find((word) => !(ROUTE_ANNOTATIONS as readonly string[]).includes(word));
  if (unknown !== undefined)
    throw osrmError('InvalidValue', messages.unknownValue('annotations', unknown, ['true', 'false', ...ROUTE_ANNOTATIONS]));
  if (new Set(words).size !== words.length) throw osrmError('InvalidValue', messages.repeatedAnnotation('annotations', raw));
  return words as RouteAnnotation[];
}

/** OSRM's route `waypoints`: the indexes of the coordinates that end legs, ascending, the first and last among them; null when absent. */
function legEnds(query: URLSearchParams, count: number): number[] | null {
  const raw = query.get('waypoints');
  if (raw === null) return null;
  // An index past the coordinates fails OSRM's RouteParameters::IsValid: InvalidOptions.
  const indexes = raw.split(';').map((entry) => coordinateIndex('waypoints', entry, count, 'InvalidOptions'));
  if (indexes[0] !== 0 || indexes[indexes.length - 1] !== count - 1)
    throw osrmError('InvalidValue', 'First and last coordinates must be specified as waypoints.');
  if (indexes.some((index, k) => k > 0 && index <= indexes[k - 1]!))
    throw osrmError('InvalidValue', `invalid parameter 'waypoints': ${quoted(raw)} is not in ascending order without repeats`);
  return indexes;
}

/**
 * OSRM's `exclude` (classes `motorway`, `toll`, `ferry`, comma-separated) as Waymark's `avoid` of
 * `target`; a class that is not one of the mode's is OSRM's InvalidValue with OSRM's message, and
 * what it was.
 */
export function passExclude(query: URLSearchParams, mode: TravelMode, target: URLSearchParams): void {
  const raw = query.get('exclude');
  if (raw === null) return;
  const excludable = EXCLUDABLE_CLASSES[mode];
  const classes = raw.split(',');
  const refused = classes.find((name) => !(excludable as readonly string[]).includes(name));
  const repeated = new Set(classes).size !== classes.length;
  if (refused !== undefined || repeated) {
    const why = repeated ? `${quoted(raw)} names a class twice` : `${quoted(refused!)} is not a class ${mode} may exclude`;
    throw osrmError('InvalidValue', `Exclude flag combination is not supported: ${why} (${list(excludable)}).`);
  }
  target.set('avoid', classes.map((name) => avoidWordOf(name as RoadClass)).join(','));
}

export function osrmRouteRequest(req: Request): OsrmRequest<DirectionsParams & RouteExtras> {
  const { query } = req;
  const shared = checkOsrmQuery('route', query);
  const { mode, positions } = parseOsrmPath(req.params);
  if (positions.length < 2) throw osrmError('InvalidValue', 'a route needs at least two coordinates');
  if (positions.length > MAX_WAYPOINTS + 2) throw osrmError('TooBig', `too many coordinates: a route takes at most ${MAX_WAYPOINTS + 2}`);
  const snapRules = osrmSnapRules(query, positions.length);
  const annotations = routeAnnotations(query);
  const ends = legEnds(query, positions.length);
  const directions = new URLSearchParams({ mode, origin: positions[0]!, destination: positions[positions.length - 1]! });
  if (positions.length > 2) directions.set('waypoints', positions.slice(1, -1).join('|'));
  copyOptions(query, directions, ROUTE_OPTIONS);
  passExclude(query, mode, directions);
  const params = withOsrmCode('InvalidValue', () => sanitizeDirections(directions).params);
  return {
    ...shared,
    params: {
      ...params,
      snapRules,
      generateHints: shared.generateHints,
      ...(annotations.length > 0 ? { annotations } : {}),
      ...(ends ? { legEnds: ends } : {}),
    },
  };
}

/** `sources` / `destinations` of OSRM's table: `all` (the default) or indexes into the coordinates, `;`-separated. */
function pickIndexes(query: URLSearchParams, name: string, count: number): number[] {
  const raw = query.get(name) ?? 'all';
  if (raw === 'all') return Array.from({ length: count }, (_, i) => i);
  return raw.split(';').map((entry) => coordinateIndex(name, entry, count, 'InvalidValue'));
}

export function osrmTableRequest(req: Request): OsrmRequest<MatrixParams & OsrmExtras> {
  const { query } = req;
  const shared = checkOsrmQuery('table', query);
  const { mode, positions } = parseOsrmPath(req.params);
  const sources = pickIndexes(query, 'sources', positions.length);
  const destinations = pickIndexes(query, 'destinations', positions.length);
  withOsrmCode('TooBig', () => checkElementCount(sources.length * destinations.length));
  const rules = osrmSnapRules(query, positions.length);
  // OSRM's default is durations only.
  const annotations = query.get('annotations') ?? 'duration';
  const matrix = new URLSearchParams({
    mode,
    sources: sources.map((i) => positions[i]).join('|'),
    destinations: destinations.map((i) => positions[i]).join('|'),
    annotations,
  });
  passExclude(query, mode, matrix);
  const params = withOsrmCode('InvalidValue', () => sanitizeMatrix(matrix));
  return {
    ...shared,
    params: {
      ...params,
      sourceRules: sources.map((i) => rules[i]!),
      destinationRules: destinations.map((i) => rules[i]!),
      generateHints: shared.generateHints,
    },
  };
}

export function osrmNearestRequest(req: Request): OsrmRequest<NearestParams> {
  const { query } = req;
  const shared = checkOsrmQuery('nearest', query);
  const { mode, positions } = parseOsrmPath(req.params);
  if (positions.length !== 1) throw osrmError('InvalidValue', `nearest takes exactly one coordinate, not ${positions.length}`);
  const raw = query.get('number') ?? '1';
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
    throw osrmError('InvalidValue', `invalid parameter 'number': ${quoted(raw)} is not a whole number from 1`);
  const number = Number(raw);
  // OSRM's message (nearest.cpp).
  if (number > MAX_NEAREST)
    throw osrmError('TooBig', `Number of results ${number} is higher than current maximum (${MAX_NEAREST}) of parameter 'number'`);
  const [rule] = osrmSnapRules(query, 1) as [SnapRule];
  return {
    ...shared,
    params: { mode, point: parsePosition('coordinate 0', positions[0]!).value, number, rule, generateHints: shared.generateHints },
  };
}

/** Options of OSRM's match service that `/match` takes under the same name and syntax. */
const MATCH_OPTIONS = ['steps', 'geometries', 'overview', 'gaps', 'tidy'] as const;
/** Options of OSRM's match service with an entry per coordinate (`waypoints`: indexes of them), `;`-separated; `/match` takes them with `|`. */
const MATCH_LISTS = ['timestamps', 'radiuses', 'waypoints'] as const;

/** As OSRM's match service: wrong list lengths and fewer than two coordinates are InvalidOptions, too many coordinates or too large a radius TooBig. */
export function osrmMatchRequest(req: Request): OsrmRequest<MatchParams & MatchExtras> {
  const { query } = req;
  const shared = checkOsrmQuery('match', query);
  const { mode, positions } = parseOsrmPath(req.params);
  if (positions.length > MAX_TRACE_POINTS)
    throw osrmError('TooBig', `too many trace coordinates: a match takes at most ${MAX_TRACE_POINTS}`);
  for (const name of ['timestamps', 'radiuses']) {
    const entries = query.get(name)?.split(';').length;
    if (entries !== undefined && entries !== positions.length)
      throw osrmError(
        'InvalidOptions',
        `parameter '${name}': ${entries} entries for ${positions.length} coordinates; give one per coordinate`,
      );
  }
  if (positions.length < 2) throw osrmError('InvalidOptions', 'a match needs at least two coordinates');
  if ((query.get('radiuses') ?? '').split(';').some((entry) => Number(entry) > MAX_MATCH_RADIUS))
    throw osrmError('TooBig', `parameter 'radiuses': a radius above ${MAX_MATCH_RADIUS} m is too large for map matching`);
  const snapFilters = osrmSnapRules(query, positions.length).map(filterOf);
  const match = new URLSearchParams({ mode, points: positions.join('|') });
  passExclude(query, mode, match);
  for (const name of MATCH_OPTIONS) {
    const value = query.get(name);
    if (value !== null) match.set(name, value);
  }
  for (const name of MATCH_LISTS) {
    const value = query.get(name);
    if (value !== null) match.set(name, value.split(';').join('|'));
  }
  const annotations = routeAnnotations(query);
  const params = withOsrmCode('InvalidValue', () => sanitizeMatch(match));
  return {
    ...shared,
    params: { ...params, snapFilters, generateHints: shared.generateHints, ...(annotations.length > 0 ? { annotations } : {}) },
  };
}

/**
 * OSRM's trip: its checks in OSRM's order (fewer than two coordinates `InvalidOptions`, the
 * unsupported one-way trip `NotImplemented`, then more than 100 coordinates `TooBig`), then
 * `/optimize`'s on the same points and options.
 */
export function osrmTripRequest(req: Request): OsrmRequest<OptimizeParams & OsrmExtras & AnnotationExtras> {
  const { query } = req;
  const shared = checkOsrmQuery('trip', query);
  const { mode, positions } = parseOsrmPath(req.params);
  const optimize = new URLSearchParams({ mode, points: positions.join('|') });
  copyOptions(query, optimize, TRIP_OPTIONS);
  passExclude(query, mode, optimize);
  if (positions.length < 2) throw osrmError('InvalidOptions', 'a trip needs at least two coordinates');
  const ends = withOsrmCode('InvalidValue', () => sanitize(optimize, { ends: sanitizeTripEnds }, []).params.ends);
  if (!isSupportedTrip(ends))
    throw osrmError(
      'NotImplemented',
      'this request is not supported: a trip that is not a round trip needs source=first or destination=last',
    );
  if (positions.length > MAX_TRIP_POINTS) throw osrmError('TooBig', `too many trip coordinates: a trip takes at most ${MAX_TRIP_POINTS}`);
  withOsrmCode('InvalidValue', () => sanitize(query, { continueStraight: sanitizeContinueStraight }, []));
  const snapRules = osrmSnapRules(query, positions.length);
  const params = withOsrmCode('InvalidValue', () => sanitizeOptimize(optimize));
  const annotations = routeAnnotations(query);
  return {
    ...shared,
    params: { ...params, snapRules, generateHints: shared.generateHints, ...(annotations.length > 0 ? { annotations } : {}) },
  };
}
