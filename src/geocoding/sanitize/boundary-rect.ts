/**
 * `boundary.rect.min_lat/min_lon/max_lat/max_lon` (search, structured, autocomplete): results
 * whose point lies in the box. All four or none (Pelias' `_geo_common.sanitize_rect`); latitudes
 * -90..90, longitudes -180..180; each minimum strictly below its maximum, so a box across the
 * antimeridian is refused, as Pelias does.
 */
import { messages } from './messages.js';
import { decimalInRange } from '../../http/params/number.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

export interface BoundaryRect {
  west: number;
  south: number;
  east: number;
  north: number;
}

const CORNERS = ['min_lat', 'max_lat', 'min_lon', 'max_lon'] as const;
export const RECT_PARAMETERS = CORNERS.map((corner) => `boundary.rect.${corner}`);

export const sanitizeBoundaryRect: Sanitizer<BoundaryRect | undefined> = (query) => {
  const given = RECT_PARAMETERS.filter((name) => query.has(name));
  if (given.length === 0) return clean(undefined);
  const missing = RECT_PARAMETERS.filter((name) => !query.has(name));
  if (missing.length > 0) return rejected(undefined, ...missing.map((name) => messages.incomplete(name, RECT_PARAMETERS)));
  const parsed = RECT_PARAMETERS.map((name) => {
    const limit = name.endsWith('lat') ? 90 : 180;
    return decimalInRange(name, query.get(name)!, -limit, limit);
  });
  const errors = parsed.flatMap((corner) => corner.errors);
  if (errors.length > 0) return rejected(undefined, ...errors);
  const [minLat, maxLat, minLon, maxLon] = parsed.map((corner) => corner.value) as [number, number, number, number];
  const [minLatName, maxLatName, minLonName, maxLonName] = RECT_PARAMETERS as [string, string, string, string];
  if (maxLat <= minLat) errors.push(messages.notLess(minLatName, minLat, maxLatName, maxLat));
  if (maxLon <= minLon) errors.push(messages.notLess(minLonName, minLon, maxLonName, maxLon));
  if (errors.length > 0) return rejected(undefined, ...errors);
  return clean({ west: minLon, south: minLat, east: maxLon, north: maxLat });
};
