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
import { messages } from './messages.js';
import { SNAP_RADIUS_METRES, type BearingFilter, type SnapRule } from '../../../workers/routing/task.js';

/** How many points a directions request has: origin, the waypoints, destination. */
function pointCount(query: URLSearchParams): number {
  const waypoints = query.get('waypoints');
  return 2 + (waypoints === null ? 0 : waypoints.split('|').length);
}

/** The entries of a per-point list, or an error when their number is not the points' (`which` names them). */
function entries(query: URLSearchParams, name: string, count: number, which: string): { list: string[] | null; error?: string } {
  const raw = query.get(name);
  if (raw === null) return { list: null };
  const list = raw.split('|');
  if (list.length !== count) return { list, error: messages.perPointCount(name, list.length, count, which) };
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

/** One rule per point of a directions request, in order; the defaults for every point when none of the three is given. */
export const sanitizeSnapRules: Sanitizer<SnapRule[]> = (query) => snapRulesOf(query, pointCount(query));

/**
 * One rule for each of `count` points from `{prefix}bearings`, `{prefix}radiuses` (`|`-separated)
 * and `snapping`; `which` names the points in a count error.
 */
export function snapRulesOf(
  query: URLSearchParams,
  count: number,
  prefix = '',
  which = 'origin, waypoints, destination',
): Sanitized<SnapRule[]> {
  const errors: string[] = [];
  const bearings = entries(query, `${prefix}bearings`, count, which);
  const radiuses = entries(query, `${prefix}radiuses`, count, which);
  for (const { error } of [bearings, radiuses]) if (error) errors.push(error);
  const snapping = query.get('snapping') ?? 'default';
  if (snapping !== 'default' && snapping !== 'any') errors.push(messages.unknownValue('snapping', snapping, ['default', 'any']));
  if (errors.length > 0) return rejected([], ...errors);
  const rules: SnapRule[] = [];
  for (let i = 0; i < count; i++) {
    const bearing = parseBearing(`${prefix}bearings`, bearings.list?.[i] ?? '');
    const radius = parseRadius(`${prefix}radiuses`, radiuses.list?.[i] ?? '');
    for (const { error } of [bearing, radius]) if (error) errors.push(error);
    rules.push({ radius: radius.value, bearing: bearing.value, anySegment: snapping === 'any', approach: null });
  }
  return errors.length > 0 ? rejected([], ...errors) : clean(rules);
}
