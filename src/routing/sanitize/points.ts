/** `origin`, `destination` (required) and `waypoints` (`lat,lng|lat,lng`, at most 23) of directions. */
import { clean, rejected, type Sanitizer } from '../../geocoding/sanitize/sanitized.js';
import { messages } from './messages.js';
import { parsePosition, requiredPosition, type LonLat } from './position.js';

export const MAX_WAYPOINTS = 23;

export const sanitizeOrigin = requiredPosition('origin');
export const sanitizeDestination = requiredPosition('destination');

/** The intermediate points in order; an empty list when the parameter is absent. */
export const sanitizeWaypoints: Sanitizer<LonLat[]> = (query) => {
  const raw = query.get('waypoints');
  if (raw === null) return clean([]);
  const entries = raw.split('|');
  if (entries.length > MAX_WAYPOINTS) return rejected([], messages.tooMany('waypoints', MAX_WAYPOINTS));
  const points = entries.map((entry, index) => parsePosition(`waypoints[${index}]`, entry));
  const errors = points.flatMap((point) => point.errors);
  return errors.length > 0 ? rejected([], ...errors) : clean(points.map((point) => point.value));
};
