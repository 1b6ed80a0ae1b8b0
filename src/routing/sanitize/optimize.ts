/**
 * The parameters of `/optimize` (a trip through the points in the best order, OSRM's trip service):
 * `points` (`lat,lng|…`, 2 to 100), `roundtrip`, `source=any|first`, `destination=any|last`, the
 * mode, and how the answer is shaped and the points snapped as in directions.
 */
import { flag, oneOf } from '../../http/params/choice.js';
import { sanitize } from '../../http/params/compose.js';
import { parsePositionList } from '../../http/params/position.js';
import type { LonLat } from '../../../core/geo/types.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { ApiError } from '../../http/errors.js';
import { ROUTING_PARAMETERS } from './endpoints.js';
import { sanitizeInstructionLanguage } from './instruction-language.js';
import { messages } from './messages.js';
import { sanitizeElevation, sanitizeGeometries, sanitizeMode, sanitizeOverview, sanitizeSteps } from './route-options.js';
import { sanitizeAvoid } from './avoid.js';
import { snapRulesOf } from './snapping.js';
import type { TripEnds, OptimizeParams } from '../../../workers/routing/task.js';

/** Points of one trip at most: OSRM's default (`--max-trip-size 100`). */
export const MAX_TRIP_POINTS = 100;

const sanitizePoints: Sanitizer<LonLat[]> = (query) => {
  const raw = query.get('points');
  if (raw === null) return rejected([], messages.missing('points'));
  const count = raw.split('|').length;
  if (count > MAX_TRIP_POINTS) return rejected([], messages.tooMany('points', MAX_TRIP_POINTS));
  if (count < 2) return rejected([], messages.tooFewPoints('points', 2));
  return parsePositionList('points', raw);
};

const roundtrip = flag('roundtrip', true);
const source = oneOf('source', ['any', 'first'] as const, 'any');
const destination = oneOf('destination', ['any', 'last'] as const, 'any');

/** `roundtrip` (default true), `source=any|first`, `destination=any|last`: which ends of the trip are fixed. */
export const sanitizeTripEnds: Sanitizer<TripEnds> = (query) => {
  const parts = [roundtrip(query), source(query), destination(query)] as const;
  const errors = parts.flatMap((part) => part.errors);
  const ends = { roundtrip: parts[0].value, fixedStart: parts[1].value === 'first', fixedEnd: parts[2].value === 'last' };
  return errors.length > 0 ? rejected(ends, ...errors) : clean(ends);
};

/** As OSRM: a one-way trip needs a fixed start or end (OSRM's `NotImplemented` combination). */
export function isSupportedTrip(ends: TripEnds): boolean {
  return ends.roundtrip || ends.fixedStart || ends.fixedEnd;
}

const optimize = {
  points: sanitizePoints,
  mode: sanitizeMode,
  ends: sanitizeTripEnds,
  steps: sanitizeSteps,
  geometries: sanitizeGeometries,
  overview: sanitizeOverview,
  lang: sanitizeInstructionLanguage,
  avoid: sanitizeAvoid,
  elevation: sanitizeElevation,
  snapRules: (query: URLSearchParams) => snapRulesOf(query, query.get('points')?.split('|').length ?? 0, '', 'points'),
};

/** `/optimize`; throws ApiError 400 naming each bad parameter, or the unsupported combination. */
export function sanitizeOptimize(query: URLSearchParams): OptimizeParams {
  const { params } = sanitize(query, optimize, ROUTING_PARAMETERS);
  if (!isSupportedTrip(params.ends)) throw new ApiError(400, messages.unsupportedTrip);
  return params;
}
