/** How a directions body is shaped (OSRM route service options): mode, alternatives, steps, geometries, overview. */
import { TRAVEL_MODES, type TravelMode } from '../../../core/routing/network.js';
import { wholeNumber } from '../../http/params/number.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { flag, oneOf } from '../../http/params/choice.js';
import { messages } from './messages.js';
import { CONTINUE_STRAIGHT, GEOMETRIES, OVERVIEWS } from '../../../workers/routing/task.js';

export const MAX_ALTERNATIVES = 3;

export const sanitizeContinueStraight = oneOf('continue_straight', CONTINUE_STRAIGHT, 'default');

export const sanitizeMode: Sanitizer<TravelMode> = oneOf('mode', TRAVEL_MODES, 'driving');
export const sanitizeSteps = flag('steps', true);
export const sanitizeGeometries = oneOf('geometries', GEOMETRIES, 'polyline');
export const sanitizeOverview = oneOf('overview', OVERVIEWS, 'simplified');
/** `elevation=true`: each route with its ascent, descent and elevation profile (response/route-elevation.ts). */
export const sanitizeElevation = flag('elevation', false);

/** How many alternative routes to look for: `false` 0, `true` 1 (as OSRM), or a number 0–3. */
export const sanitizeAlternatives: Sanitizer<number> = (query) => {
  const raw = query.get('alternatives');
  if (raw === null || raw === 'false') return clean(0);
  if (raw === 'true') return clean(1);
  const count = wholeNumber('alternatives', raw);
  return count.errors.length === 0 && count.value <= MAX_ALTERNATIVES
    ? count
    : rejected(0, messages.badAlternatives('alternatives', raw, MAX_ALTERNATIVES));
};
