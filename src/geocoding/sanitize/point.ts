/** `point.lat` / `point.lon` of reverse geocoding: both required, latitude -90..90, longitude -180..180. */
import { optionalLatLon, type LatLon } from './coordinates.js';
import { messages } from './messages.js';
import { rejected, type Sanitizer } from '../../http/params/sanitized.js';

const NOWHERE: LatLon = { lat: NaN, lon: NaN };

export const sanitizePoint: Sanitizer<LatLon> = (query) => {
  const point = optionalLatLon(query, 'point');
  if (point.errors.length > 0) return { ...point, value: NOWHERE };
  return point.value === undefined
    ? rejected(NOWHERE, messages.missing('point.lat'), messages.missing('point.lon'))
    : { ...point, value: point.value };
};
