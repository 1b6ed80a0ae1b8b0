/** `origin`, `destination` (required) and `waypoints` (`lat,lng|lat,lng`, at most 23) of directions. */
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { messages } from './messages.js';
import { parsePositionList, requiredPosition } from '../../http/params/position.js';
import type { LonLat } from '../../../core/geo/types.js';

export const MAX_WAYPOINTS = 23;

export const sanitizeOrigin = requiredPosition('origin');
export const sanitizeDestination = requiredPosition('destination');

/** The intermediate points in order; an empty list when the parameter is absent. */
export const sanitizeWaypoints: Sanitizer<LonLat[]> = (query) => {
  const raw = query.get('waypoints');
  if (raw === null) return clean([]);
  if (raw.split('|').length > MAX_WAYPOINTS) return rejected([], messages.tooMany('waypoints', MAX_WAYPOINTS));
  return parsePositionList('waypoints', raw);
};
