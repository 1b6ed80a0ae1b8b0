/**
 * A POST to the elevation API carries the query's parameters in its body, for requests longer
 * than a URL should be: as a form (`application/x-www-form-urlencoded`: the query string itself,
 * as `curl -d` and HTML forms send it) or as a JSON object of the same parameters, whose
 * `locations` and `path` may also be arrays of `{"lat", "lng"}` (Google's LatLng literals).
 * Either way the body becomes query parameters, read as a GET's are; the key may come with them.
 */
import { ApiError, badRequest } from '../http/errors.js';
import type { Request } from '../http/request.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const POINT_LISTS = new Set(['locations', 'path']);

const notALatLng = (name: string, i: number) =>
  badRequest(`invalid parameter '${name}[${i}]': a point of a JSON body is {"lat": number, "lng": number}`);

/** `[{lat, lng}…]` as the query's `lat,lng|lat,lng…`. */
function pointList(name: string, points: unknown[]): string {
  return points
    .map((point, i) => {
      if (typeof point !== 'object' || point === null || Array.isArray(point)) throw notALatLng(name, i);
      const { lat, lng, ...rest } = point as Record<string, unknown>;
      if (typeof lat !== 'number' || typeof lng !== 'number' || Object.keys(rest).length > 0) throw notALatLng(name, i);
      return `${lat},${lng}`;
    })
    .join('|');
}

function jsonAsQuery(body: Buffer): string {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('the body is not JSON: send a JSON object of the parameters, e.g. {"locations": "43.7384,7.4246|43.7311,7.4197"}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('the body must be a JSON object of the parameters, e.g. {"path": "enc:…", "samples": 100}');
  const query = new URLSearchParams();
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') query.append(name, String(item));
    else if (Array.isArray(item) && POINT_LISTS.has(name)) query.append(name, pointList(name, item));
    else
      throw badRequest(
        `invalid parameter '${name}': the values of a JSON body are strings or numbers (locations and path also arrays of {"lat", "lng"})`,
      );
  }
  return query.toString();
}

/** The body's parameters as a query string; throws 415 for another content type, 400 for a JSON body it cannot take. */
export function elevationBodyAsQuery(req: Request): string {
  if (req.body.length === 0) return '';
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === FORM) return req.body.toString('utf8');
  if (type === JSON_TYPE) return jsonAsQuery(req.body);
  throw new ApiError(
    415,
    `the body must be the parameters as a form (Content-Type: ${FORM}) or as JSON (${JSON_TYPE}), not ${type === '' ? 'without a Content-Type' : type}`,
  );
}
