/**
 * How each point of a route is placed on the network, one `|`-separated entry per point (origin,
 * the waypoints, destination; an empty entry keeps the default), as OSRM's `bearings`, `radiuses`
 * and `snapping` do with `;`:
 * - `bearings`: `value,range` in whole degrees (0–360 clockwise from north, 0–180 either side):
 *   only a road travelled in a direction within the range is taken, and only that direction.
 * - `radiuses`: metres (a decimal ≥ 0) or `unlimited`: how far the road may be (default 2,000 m).
 * - `snapping`: `default`, or `any` to allow segments that are no start point (ferries).
 */
import { clean, rejected, type Sanitized, type Sanitizer } from '../../http/params/sanitized.js';
import { SNAP_RADIUS_METRES } from '../answer/task.js';
import type { BearingFilter } from '../graph/snap.js';
import { messages } from './messages.js';

/** Where one point may snap. */
export interface SnapRule {
  radius: number;
  bearing: BearingFilter | null;
  /** `snapping=any`: ferries too. */
  anySegment: boolean;
}

/** The points of a request the per-point lists follow: how many, and what they are called in a message. */
export interface PointList {
  count: (query: URLSearchParams) => number;
  names: string;
}

/** A directions request's points: origin, the waypoints, destination. */
const DIRECTIONS_POINTS: PointList = {
  count: (query) => {
    const waypoints = query.get('waypoints');
    return 2 + (waypoints === null ? 0 : waypoints.split('|').length);
  },
  names: 'origin, waypoints, destination',
};

/** The entries of a per-point list, or an error when their number is not the points'. */
function entries(query: URLSearchParams, name: string, points: PointList): { list: string[] | null; error?: string } {
  const raw = query.get(name);
  if (raw === null) return { list: null };
  const list = raw.split('|');
  const count = points.count(query);
  if (list.length !== count) return { list, error: messages.perPointCount(name, list.length, count, points.names) };
  return { list };
}

function parseBearing(name: string, entry: string): { value: BearingFilter | null; error?: string } {
  if (entry === '') return { value: null };
  const match = /^(\d{1,3}),(\d{1,3})$/.exec(entry);
  if (!match) return { value: null, error: messages.badBearing(name, entry) };
  const value = Number(match[1]);
  const range = Number(match[2]);
  if (value > 360 || range > 180) return { value: null, error: messages.badBearing(name, entry) };
  return { value: { value, range } };
}

function parseRadius(name: string, entry: string): { value: number; error?: string } {
  if (entry === '') return { value: SNAP_RADIUS_METRES };
  if (entry === 'unlimited') return { value: Number.POSITIVE_INFINITY };
  return /^(\d+(\.\d*)?|\.\d+)$/.test(entry) ? { value: Number(entry) } : { value: NaN, error: messages.badRadius(name, entry) };
}

/** One rule per point of `points`, in order; the defaults for every point when none of the three is given. */
function snapRules(query: URLSearchParams, points: PointList): Sanitized<SnapRule[]> {
  const errors: string[] = [];
  const bearings = entries(query, 'bearings', points);
  const radiuses = entries(query, 'radiuses', points);
  for (const { error } of [bearings, radiuses]) if (error) errors.push(error);
  const snapping = query.get('snapping') ?? 'default';
  if (snapping !== 'default' && snapping !== 'any') errors.push(messages.unknownValue('snapping', snapping, ['default', 'any']));
  if (errors.length > 0) return rejected([], ...errors);
  const rules: SnapRule[] = [];
  for (let i = 0; i < points.count(query); i++) {
    const bearing = parseBearing('bearings', bearings.list?.[i] ?? '');
    const radius = parseRadius('radiuses', radiuses.list?.[i] ?? '');
    for (const { error } of [bearing, radius]) if (error) errors.push(error);
    rules.push({ radius: radius.value, bearing: bearing.value, anySegment: snapping === 'any' });
  }
  return errors.length > 0 ? rejected([], ...errors) : clean(rules);
}

/** The snapping rules of the points of `points`. */
export const snapRulesOf =
  (points: PointList): Sanitizer<SnapRule[]> =>
  (query) =>
    snapRules(query, points);

/** The rules of a directions request's points. */
export const sanitizeSnapRules = snapRulesOf(DIRECTIONS_POINTS);
