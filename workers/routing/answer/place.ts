/**
 * Placing a requested point under its snap rule: from its OSRM hint when the hint matches this
 * graph and coordinate, else by snapping; and the NoSegment message when no road qualifies.
 */
import { encodeHint, snapOfHint } from '../graph/hint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { snap, snapWithBigAlternative, type Snap } from '../graph/snap.js';
import { echoPoint, type PointOrder } from '../../../core/geo/point-text.js';
import type { LonLat } from '../../../core/geo/types.js';
import { type SnapFilter, type SnapRule, SNAP_RADIUS_METRES, type RoutingAnswer } from '../task.js';

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

/** Why `name` at `point` has no road under `rule` (OSRM's NoSegment), the point written in the request's `order`. */
export function noSegmentMessage(mode: string, name: string, point: LonLat, rule: SnapRule, order: PointOrder = 'lat,lng'): string {
  const within = Number.isFinite(rule.radius) ? ` within ${rule.radius} m` : '';
  const heading = rule.bearing ? ` heading ${rule.bearing.value}±${rule.bearing.range}°` : '';
  return `no road for ${mode}${heading}${within} of ${name} (${echoPoint(point, order)})`;
}

export type PlacedPoints = { ok: true; snaps: Snap[] } | { ok: false; answer: RoutingAnswer };

/** Each point placed by its own rule, or the NoSegment answer naming the first without a road; `nameOf(i)` names point i (`origin`, `points[3]`). */
export function placePoints(
  graph: RoutingGraph,
  points: readonly LonLat[],
  rules: readonly SnapRule[],
  nameOf: (index: number) => string,
  withHints = false,
  order: PointOrder = 'lat,lng',
): PlacedPoints {
  const snaps: Snap[] = [];
  for (const [i, point] of points.entries()) {
    const placed = placePoint(graph, point, rules[i]!, withHints);
    if (placed === null)
      return {
        ok: false,
        answer: { ok: false, code: 'NoSegment', message: noSegmentMessage(graph.mode, nameOf(i), point, rules[i]!, order) },
      };
    snaps.push(placed);
  }
  return { ok: true, snaps };
}

/** A point's nearest snap whatever its component, and the nearest on a big component when that one is on a small one. */
export interface SnapCandidates {
  nearest: Snap;
  big: Snap | null;
}

export type PlacedCandidates = { ok: true; candidates: SnapCandidates[] } | { ok: false; answer: RoutingAnswer };

/**
 * Each point placed as OSRM v6 places a trip's (plugin_base.hpp GetPhantomNodes): from its hint
 * when the hint matches (no alternative then, as OSRM), else its nearest snap within the rule's
 * radius and the big-component alternative (graph/snap.ts snapWithBigAlternative); or the NoSegment
 * answer naming the first point without a road. Under the default radius the alternative may lie
 * further than it, as OSRM's default radius is unlimited (a point 900 m from a cut-off forest track
 * may be 2.5 km from the big network); a radius the request gives bounds both. Hints are the
 * caller's to add, once it has chosen.
 */
export function placeCandidates(
  graph: RoutingGraph,
  points: readonly LonLat[],
  rules: readonly SnapRule[],
  nameOf: (index: number) => string,
  order: PointOrder = 'lat,lng',
): PlacedCandidates {
  const candidates: SnapCandidates[] = [];
  for (const [i, [lon, lat]] of points.entries()) {
    const rule = rules[i]!;
    const filter = filterOf(rule);
    const hinted = rule.hint ? snapOfHint(graph, rule.hint, lon, lat, filter) : null;
    const bigRadius = rule.radius === SNAP_RADIUS_METRES ? Number.POSITIVE_INFINITY : rule.radius;
    const placed = hinted ? { nearest: hinted, big: null } : snapWithBigAlternative(graph, lon, lat, rule.radius, bigRadius, filter);
    if (placed === null)
      return {
        ok: false,
        answer: { ok: false, code: 'NoSegment', message: noSegmentMessage(graph.mode, nameOf(i), points[i]!, rule, order) },
      };
    candidates.push(placed);
  }
  return { ok: true, candidates };
}
