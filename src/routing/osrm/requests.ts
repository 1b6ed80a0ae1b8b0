/**
 * OSRM requests turned into the parameters of Waymark's own endpoints: the path's coordinates
 * become `origin`/`waypoints`/`destination` or `sources`/`destinations`, OSRM's options of the same
 * name pass through, and Waymark's checks run on the result; every refusal carries OSRM's code.
 */
import { quoted } from '../../http/params/messages.js';
import type { Request } from '../../http/request.js';
import type { NearestParams } from '../answer/task.js';
import { sanitizeDirections, type DirectionsParams } from '../sanitize/endpoints.js';
import { MAX_MATCH_RADIUS, MAX_TRACE_POINTS, sanitizeMatch, type MatchParams } from '../sanitize/match.js';
import { checkElementCount, sanitizeMatrix, type MatrixParams } from '../sanitize/matrix.js';
import { MAX_WAYPOINTS } from '../sanitize/points.js';
import { parsePosition } from '../../http/params/position.js';
import { osrmError, withOsrmCode } from './errors.js';
import { parseOsrmPath } from './path.js';
import { checkOsrmQuery, onlyValue, type SharedOptions } from './query.js';

export type OsrmRequest<P> = SharedOptions & { params: P };

/** Options of OSRM's route service that `/directions` takes under the same name and syntax. */
const ROUTE_OPTIONS = ['alternatives', 'steps', 'geometries', 'overview', 'snapping', 'continue_straight'] as const;
/** Options of OSRM's route service with one entry per coordinate, which `/directions` takes with `|` for `;`. */
const PER_POINT_OPTIONS = ['bearings', 'radiuses'] as const;

export function osrmRouteRequest(req: Request): OsrmRequest<DirectionsParams> {
  const { query } = req;
  const shared = checkOsrmQuery('route', query);
  const { mode, positions } = parseOsrmPath(req.params);
  if (positions.length < 2) throw osrmError('InvalidValue', 'a route needs at least two coordinates');
  if (positions.length > MAX_WAYPOINTS + 2) throw osrmError('TooBig', `too many coordinates: a route takes at most ${MAX_WAYPOINTS + 2}`);
  onlyValue(query, 'annotations', ['false'], 'routes carry no annotations');
  const directions = new URLSearchParams({ mode, origin: positions[0]!, destination: positions[positions.length - 1]! });
  if (positions.length > 2) directions.set('waypoints', positions.slice(1, -1).join('|'));
  for (const name of ROUTE_OPTIONS) {
    const value = query.get(name);
    if (value !== null) directions.set(name, value);
  }
  // One entry per coordinate, `;`-separated in OSRM, `|` in Waymark's own parameters.
  for (const name of PER_POINT_OPTIONS) {
    const value = query.get(name);
    if (value !== null) directions.set(name, value.split(';').join('|'));
  }
  return { ...shared, params: withOsrmCode('InvalidValue', () => sanitizeDirections(directions).params) };
}

/** `sources` / `destinations` of OSRM's table: `all` (the default) or indexes into the coordinates, `;`-separated. */
function pickCoordinates(query: URLSearchParams, name: string, positions: readonly string[]): string[] {
  const raw = query.get(name) ?? 'all';
  if (raw === 'all') return [...positions];
  return raw.split(';').map((entry) => {
    const index = /^\d{1,6}$/.test(entry) ? Number(entry) : NaN;
    if (!(index < positions.length)) {
      throw osrmError(
        'InvalidValue',
        `invalid parameter '${name}': ${quoted(entry)} is not the index of one of the ${positions.length} coordinates`,
      );
    }
    return positions[index]!;
  });
}

export function osrmTableRequest(req: Request): OsrmRequest<MatrixParams> {
  const { query } = req;
  const shared = checkOsrmQuery('table', query);
  const { mode, positions } = parseOsrmPath(req.params);
  const sources = pickCoordinates(query, 'sources', positions);
  const destinations = pickCoordinates(query, 'destinations', positions);
  withOsrmCode('TooBig', () => checkElementCount(sources.length * destinations.length));
  // OSRM's default is durations only.
  const annotations = query.get('annotations') ?? 'duration';
  const matrix = new URLSearchParams({ mode, sources: sources.join('|'), destinations: destinations.join('|'), annotations });
  return { ...shared, params: withOsrmCode('InvalidValue', () => sanitizeMatrix(matrix)) };
}

export function osrmNearestRequest(req: Request): OsrmRequest<NearestParams> {
  const { query } = req;
  const shared = checkOsrmQuery('nearest', query);
  const { mode, positions } = parseOsrmPath(req.params);
  if (positions.length !== 1) throw osrmError('InvalidValue', `nearest takes exactly one coordinate, not ${positions.length}`);
  const number = query.get('number');
  if (number !== null && number !== '1') {
    if (!/^\d+$/.test(number) || Number(number) < 1)
      throw osrmError('InvalidValue', `invalid parameter 'number': ${quoted(number)} is not a whole number from 1`);
    throw osrmError('InvalidOptions', `unsupported parameter 'number': only 1 is supported (Waymark answers the one nearest road)`);
  }
  return { ...shared, params: { mode, point: parsePosition('coordinate 0', positions[0]!).value } };
}

/** Options of OSRM's match service that `/match` takes under the same name and syntax. */
const MATCH_OPTIONS = ['steps', 'geometries', 'overview', 'gaps', 'tidy'] as const;
/** Options of OSRM's match service with an entry per coordinate (`waypoints`: indexes of them), `;`-separated; `/match` takes them with `|`. */
const MATCH_LISTS = ['timestamps', 'radiuses', 'waypoints'] as const;

/** As OSRM's match service: wrong list lengths and fewer than two coordinates are InvalidOptions, too many coordinates or too large a radius TooBig. */
export function osrmMatchRequest(req: Request): OsrmRequest<MatchParams> {
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
  onlyValue(query, 'annotations', ['false'], 'routes carry no annotations');
  const match = new URLSearchParams({ mode, points: positions.join('|') });
  for (const name of MATCH_OPTIONS) {
    const value = query.get(name);
    if (value !== null) match.set(name, value);
  }
  for (const name of MATCH_LISTS) {
    const value = query.get(name);
    if (value !== null) match.set(name, value.split(';').join('|'));
  }
  return { ...shared, params: withOsrmCode('InvalidValue', () => sanitizeMatch(match)) };
}
