/**
 * Placing a requested point under its snap rule: from its OSRM hint when the hint matches this
 * graph and coordinate, else by snapping; and the NoSegment message when no road qualifies.
 */
import { encodeHint, snapOfHint } from '../graph/hint.js';
import type { RoutingGraph } from '../graph/load.js';
import { snap, type Snap, type SnapFilter } from '../graph/snap.js';
import type { LonLat } from '../../http/params/position.js';
import type { SnapRule } from '../sanitize/snapping.js';
import { SNAP_RADIUS_METRES } from './task.js';

/** The rule of a point no parameter narrows. */
export const DEFAULT_SNAP_RULE: SnapRule = { radius: SNAP_RADIUS_METRES, bearing: null, anySegment: false, approach: null };

export function filterOf(rule: SnapRule): SnapFilter {
  return { bearing: rule.bearing, anySegment: rule.anySegment, approach: rule.approach };
}

/** The snap of `point` under `rule`, with its hint when `withHint`; null when no road qualifies. */
export function placePoint(graph: RoutingGraph, [lon, lat]: LonLat, rule: SnapRule, withHint = false): Snap | null {
  const filter = filterOf(rule);
  const placed = (rule.hint ? snapOfHint(graph, rule.hint, lon, lat, filter) : null) ?? snap(graph, lon, lat, rule.radius, filter);
  if (placed && withHint) placed.hint = encodeHint(graph, placed);
  return placed;
}

/** Why `name` at (lon, lat) has no road under `rule` (OSRM's NoSegment). */
export function noSegmentMessage(mode: string, name: string, [lon, lat]: LonLat, rule: SnapRule): string {
  const within = Number.isFinite(rule.radius) ? ` within ${rule.radius} m` : '';
  const heading = rule.bearing ? ` heading ${rule.bearing.value}±${rule.bearing.range}°` : '';
  return `no road for ${mode}${heading}${within} of ${name} (${lat},${lon})`;
}
