/** Positions written `lat,lng` (origin, destination, waypoints, center), returned as [lon, lat] like the routing core. */
import { decimalInRange } from './number.js';
import { clean, rejected, type Sanitized, type Sanitizer } from './sanitized.js';
import { messages } from './messages.js';
import type { LonLat } from '../../../core/geo/types.js';

/** Placeholder of a refused position; never used because the request is refused. */
export const NOWHERE: LonLat = [NaN, NaN];

/** One `lat,lng`: two plain decimals (blanks around the comma allowed), latitude -90..90, longitude -180..180. */
export function parsePosition(name: string, raw: string): Sanitized<LonLat> {
  const halves = raw.split(',');
  if (halves.length !== 2) return rejected(NOWHERE, messages.badPosition(name, raw));
  const lat = decimalInRange(`${name} latitude`, halves[0]!.trim(), -90, 90);
  const lng = decimalInRange(`${name} longitude`, halves[1]!.trim(), -180, 180);
  const errors = [...lat.errors, ...lng.errors];
  return errors.length > 0 ? rejected(NOWHERE, ...errors) : clean([lng.value, lat.value]);
}

/** A required `lat,lng` parameter. */
export function requiredPosition(name: string): Sanitizer<LonLat> {
  return (query) => {
    const raw = query.get(name);
    return raw === null ? rejected(NOWHERE, messages.missing(name)) : parsePosition(name, raw);
  };
}

/** A plain `lat,lng` of two decimals, as `decimalInRange` reads them (no blanks: those go the long way). */
const PLAIN_POSITION = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)),([+-]?(?:\d+(?:\.\d*)?|\.\d+))$/;

/** The list's positions when every entry is a plain, valid `lat,lng`; else null. Hundreds of points cost microseconds. */
function plainPositions(raw: string): LonLat[] | null {
  const points: LonLat[] = [];
  for (const entry of raw.split('|')) {
    const match = PLAIN_POSITION.exec(entry);
    if (match === null) return null;
    const [lat, lng] = [Number(match[1]), Number(match[2])];
    if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) return null;
    points.push([lng, lat]);
  }
  return points;
}

/** A `lat,lng|lat,lng…` list; each bad entry is named by its index (`name[i]`). */
export function parsePositionList(name: string, raw: string): Sanitized<LonLat[]> {
  const plain = plainPositions(raw);
  if (plain !== null) return clean(plain);
  const points = raw.split('|').map((entry, index) => parsePosition(`${name}[${index}]`, entry));
  const errors = points.flatMap((point) => point.errors);
  return errors.length > 0 ? rejected([], ...errors) : clean(points.map((point) => point.value));
}
