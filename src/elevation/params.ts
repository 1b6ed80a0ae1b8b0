/**
 * The elevation API's parameters, as Google's Elevation API takes them: `locations` (up to
 * MAX_POINTS points, `lat,lng|lat,lng…` or `enc:<polyline>`), or `path` (two or more points, the
 * same two ways) with `samples` (1 to MAX_POINTS points evenly spaced along it). Every problem is
 * named in one 400.
 */
import { pointsAlongPath } from '../../core/geo/great-circle.js';
import { sanitize } from '../http/params/compose.js';
import { messages } from '../http/params/messages.js';
import { wholeNumber } from '../http/params/number.js';
import { decodePolyline } from '../http/params/polyline.js';
import { parsePositionList } from '../http/params/position.js';
import type { LonLat } from '../../core/geo/types.js';
import { clean, rejected, type Sanitized } from '../http/params/sanitized.js';

export const MAX_POINTS = 512;
const PARAMETERS = ['locations', 'path', 'samples'] as const;

/** `lat,lng|lat,lng…` or `enc:<polyline>`. */
function pointList(name: string, raw: string): Sanitized<LonLat[]> {
  if (raw === '') return rejected([], messages.empty(name));
  if (!raw.startsWith('enc:')) return parsePositionList(name, raw);
  const points = decodePolyline(raw.slice(4));
  return points === null ? rejected([], messages.badPolyline(name)) : clean(points);
}

const round7 = (value: number) => Math.round(value * 1e7) / 1e7;

/** The locations asked, or the samples along the path (computed: rounded to 1e-7°, about a centimetre). */
function elevationPoints(query: URLSearchParams): Sanitized<LonLat[]> {
  const [locations, path, samples] = [query.get('locations'), query.get('path'), query.get('samples')];
  const nothing: LonLat[] = [];
  if (locations !== null && path !== null) return rejected(nothing, messages.both('locations', 'path'));
  if (locations === null && path === null) {
    return rejected(
      nothing,
      `missing parameter 'locations' or 'path': give the points to answer (locations=lat,lng|lat,lng… or enc:<polyline>) or a path to sample (path=…&samples=N)`,
    );
  }
  if (locations !== null) {
    const errors = samples === null ? [] : [`invalid parameter 'samples': it goes with 'path', not with 'locations'`];
    const points = pointList('locations', locations);
    errors.push(...points.errors);
    if (points.value.length > MAX_POINTS) errors.push(messages.tooMany('locations', MAX_POINTS));
    return errors.length > 0 ? rejected(nothing, ...errors) : clean(points.value);
  }
  const vertices = pointList('path', path ?? '');
  const errors = [...vertices.errors];
  if (errors.length === 0 && vertices.value.length < 2) errors.push(`invalid parameter 'path': it needs at least 2 points`);
  let count = 0;
  if (samples === null) errors.push(messages.lone('path', 'samples'));
  else {
    const parsed = wholeNumber('samples', samples);
    count = parsed.value;
    if (parsed.errors.length > 0) errors.push(...parsed.errors);
    else if (count < 1 || count > MAX_POINTS) errors.push(messages.outOfRange('samples', 1, MAX_POINTS));
  }
  if (errors.length > 0) return rejected(nothing, ...errors);
  return clean(pointsAlongPath(vertices.value, count).map(([lon, lat]): LonLat => [round7(lon), round7(lat)]));
}

/** The [lon, lat] points a request asks about; throws the 400 naming every problem. */
export function sanitizeElevation(query: URLSearchParams): LonLat[] {
  return sanitize(query, { points: elevationPoints }, PARAMETERS).params.points;
}
