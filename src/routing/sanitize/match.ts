/**
 * The parameters of `/match` (map matching, docs/ROUTING.md "Map matching"): `points` (`lat,lng|…`,
 * 2 to 100, OSRM's default limit), and per point, `|`-separated, `timestamps` (whole seconds, never
 * decreasing), `radiuses` (the GPS precision in metres, empty for the default) and `waypoints`
 * (indexes of the points that end a leg, the first and last among them); `gaps`, `tidy`, `mode`,
 * and the directions options `steps`, `geometries`, `overview`, `lang`. Checked in the gateway's
 * `units` too, so a refused request is never metered.
 */
import { sanitize } from '../../http/params/compose.js';
import { flag, oneOf } from '../../http/params/choice.js';
import { quoted } from '../../http/params/messages.js';
import { parsePositionList } from '../../http/params/position.js';
import type { LonLat } from '../../../core/geo/types.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { sanitizeInstructionLanguage } from './instruction-language.js';
import { messages } from './messages.js';
import { sanitizeElevation, sanitizeGeometries, sanitizeMode, sanitizeOverview, sanitizeSteps } from './route-options.js';
import { sanitizeAvoid } from './avoid.js';
import type { MatchParams } from '../../../workers/routing/task.js';

/** Trace points of one request at most (OSRM's `max-matching-size` default). */
export const MAX_TRACE_POINTS = 100;
/** Trace points per `routing` unit: a request costs one unit per started hundred. */
export const TRACE_POINTS_PER_UNIT = 100;
/** The largest GPS precision a point may give, in metres (its search radius is three times it). */
export const MAX_MATCH_RADIUS = 100;
/** Timestamps are seconds that fit OSRM's unsigned 32 bits. */
const MAX_TIMESTAMP = 2 ** 32 - 1;

export const GAPS = ['split', 'ignore'] as const;

export const MATCH_PARAMETERS = [
  'points',
  'timestamps',
  'radiuses',
  'waypoints',
  'gaps',
  'tidy',
  'mode',
  'steps',
  'geometries',
  'overview',
  'lang',
  'avoid',
  'elevation',
] as const;

const matchMessages = {
  tooFewPoints: (given: number) => `invalid parameter 'points': a trace needs at least 2 points, ${given} given`,
  perPoint: (name: string, given: number, points: number) =>
    `invalid parameter '${name}': ${given} entries for ${points} points; give one per point`,
  badTimestamp: (index: number, entry: string) =>
    `invalid parameter 'timestamps': entry ${index} ${quoted(entry)} is not whole seconds from 0 to ${MAX_TIMESTAMP}`,
  decreasing: (index: number) =>
    `invalid parameter 'timestamps': entry ${index} is earlier than entry ${index - 1}; timestamps must not decrease`,
  badMatchRadius: (index: number, entry: string) =>
    `invalid parameter 'radiuses': entry ${index} ${quoted(entry)} is not a GPS precision in metres above 0 and at most ${MAX_MATCH_RADIUS} (or empty for the default)`,
  badWaypoint: (entry: string, points: number) =>
    `invalid parameter 'waypoints': ${quoted(entry)} is not the index of one of the ${points} points`,
  waypointOrder: () => `invalid parameter 'waypoints': the indexes must increase`,
  waypointEnds: () => `invalid parameter 'waypoints': the first and last points must be waypoints`,
};

/** How many points the request has (0 when `points` is absent), for the per-point lists. */
function pointCount(query: URLSearchParams): number {
  const raw = query.get('points');
  return raw === null ? 0 : raw.split('|').length;
}

const sanitizePoints: Sanitizer<LonLat[]> = (query) => {
  const raw = query.get('points');
  if (raw === null) return rejected([], messages.missing('points'));
  const count = raw.split('|').length;
  if (count > MAX_TRACE_POINTS) return rejected([], messages.tooMany('points', MAX_TRACE_POINTS));
  if (count < 2) return rejected([], matchMessages.tooFewPoints(count));
  return parsePositionList('points', raw);
};

/** The `|`-separated entries of a per-point list, each turned into a value or an error; null when absent. */
function perPoint<T>(name: string, entry: (raw: string, index: number) => T | string): Sanitizer<T[] | null> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return clean(null);
    const entries = raw.split('|');
    const count = pointCount(query);
    if (entries.length !== count) return rejected(null, matchMessages.perPoint(name, entries.length, count));
    const values: T[] = [];
    const errors: string[] = [];
    entries.forEach((text, i) => {
      const value = entry(text, i);
      if (typeof value === 'string') errors.push(value);
      else values.push(value);
    });
    return errors.length > 0 ? rejected(null, ...errors) : clean(values);
  };
}

const timestampList = perPoint('timestamps', (raw, i) =>
  /^\d{1,10}$/.test(raw) && Number(raw) <= MAX_TIMESTAMP ? { seconds: Number(raw) } : matchMessages.badTimestamp(i, raw),
);

/** Seconds per point, never decreasing (equal ones allowed, as OSRM), or null. */
const sanitizeTimestamps: Sanitizer<number[] | null> = (query) => {
  const checked = timestampList(query);
  if (checked.value === null) return { ...checked, value: null };
  const seconds = checked.value.map((entry) => entry.seconds);
  const earlier = seconds.findIndex((value, i) => i > 0 && value < seconds[i - 1]!);
  return earlier > 0 ? rejected(null, matchMessages.decreasing(earlier)) : clean(seconds);
};

/** The GPS precision of each point in metres, null for the default; all defaults when absent. */
const sanitizeRadiuses: Sanitizer<(number | null)[]> = (query) => {
  const checked = perPoint('radiuses', (raw, i) => {
    if (raw === '') return { metres: null };
    const metres = /^(\d+(\.\d*)?|\.\d+)$/.test(raw) ? Number(raw) : NaN;
    return metres > 0 && metres <= MAX_MATCH_RADIUS ? { metres } : matchMessages.badMatchRadius(i, raw);
  })(query);
  if (checked.errors.length > 0) return rejected([], ...checked.errors);
  return clean(checked.value?.map((entry) => entry.metres) ?? Array.from({ length: pointCount(query) }, () => null));
};

/** Indexes of the points that end a leg, increasing, the first and last among them; null when absent (every matched point does). */
const sanitizeWaypoints: Sanitizer<number[] | null> = (query) => {
  const raw = query.get('waypoints');
  if (raw === null) return clean(null);
  const count = pointCount(query);
  const entries = raw.split('|');
  const bad = entries.find((entry) => !/^\d{1,6}$/.test(entry) || Number(entry) >= count);
  if (bad !== undefined) return rejected(null, matchMessages.badWaypoint(bad, count));
  const indexes = entries.map(Number);
  if (indexes.some((index, i) => i > 0 && index <= indexes[i - 1]!)) return rejected(null, matchMessages.waypointOrder());
  if (indexes[0] !== 0 || indexes[indexes.length - 1] !== count - 1) return rejected(null, matchMessages.waypointEnds());
  return clean(indexes);
};

const match = {
  points: sanitizePoints,
  timestamps: sanitizeTimestamps,
  radiuses: sanitizeRadiuses,
  waypoints: sanitizeWaypoints,
  gaps: oneOf('gaps', GAPS, 'split'),
  tidy: flag('tidy', false),
  mode: sanitizeMode,
  steps: sanitizeSteps,
  geometries: sanitizeGeometries,
  overview: sanitizeOverview,
  lang: sanitizeInstructionLanguage,
  avoid: sanitizeAvoid,
  elevation: sanitizeElevation,
};

/** `/match`; throws ApiError 400 naming each bad parameter. */
export const sanitizeMatch = (query: URLSearchParams): MatchParams => sanitize(query, match, MATCH_PARAMETERS).params;

/** What a trace of this many points costs. */
export const matchUnits = (points: number): number => Math.max(1, Math.ceil(points / TRACE_POINTS_PER_UNIT));
