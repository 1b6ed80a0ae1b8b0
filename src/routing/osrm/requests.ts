/**
 * OSRM requests turned into the parameters of Waymark's own endpoints: the path's coordinates
 * become `origin`/`waypoints`/`destination` or `sources`/`destinations`, OSRM's options of the same
 * name pass through, and Waymark's checks run on the result; every refusal carries OSRM's code.
 */
import { list, quoted } from '../../http/params/messages.js';
import { EXCLUDABLE_CLASSES, type RoadClass, type TravelMode } from '../../../core/routing/network.js';
import { avoidWordOf } from '../sanitize/avoid.js';
import type { Request } from '../../http/request.js';
import type { NearestParams } from '../answer/task.js';
import { sanitizeDirections, type DirectionsParams } from '../sanitize/endpoints.js';
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
  passExclude(query, mode, directions);
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
  passExclude(query, mode, matrix);
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
