/**
 * Segments that lie on one another (two ways sharing nodes, such as `icde` and its `cde` part
 * tagged access=destination) keep one way per direction, as OSRM v6's ExtractionContainers::
 * PrepareEdges keeps one edge per node pair and direction: the quickest, of equally quick ones the
 * one whose name sorts first by bytes, a named one before an unnamed one
 * (CmpEdgeByInternalSourceTargetAndName), of equal names the first read. The others' directions
 * become impassable, so that a route, a snapped point and a restricted-access penalty all see the
 * one way OSRM keeps (car/destination.feature:85).
 */
import type { RoadSegments } from '../../../core/routing/network.js';

/** Whether segments a and b have the same points, b in reverse when `reversed`. */
function samePoints(segments: RoadSegments, a: number, b: number, reversed: boolean): boolean {
  const { pointFirst, coordinates } = segments;
  const first = pointFirst[a]!;
  const count = pointFirst[a + 1]! - first;
  if (pointFirst[b + 1]! - pointFirst[b]! !== count) return false;
  for (let i = 0; i < count; i++) {
    const p = first + i;
    const q = reversed ? pointFirst[b + 1]! - 1 - i : pointFirst[b]! + i;
    if (coordinates[2 * p] !== coordinates[2 * q] || coordinates[2 * p + 1] !== coordinates[2 * q + 1]) return false;
  }
  return true;
}

/** OSRM's order of two names for the same node pair: named before unnamed, then by UTF-8 bytes. */
function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * Makes every direction of a segment that lies on an earlier-kept one impassable, unless it is
 * the one OSRM keeps; `strings` are the names segments point to.
 */
export function keepOneOfParallelSegments(segments: RoadSegments, junctionCount: number, strings: readonly string[]): void {
  const { from, to } = segments;
  const pairKey = (s: number) => Math.min(from[s]!, to[s]!) * junctionCount + Math.max(from[s]!, to[s]!);
  const firstOfPair = new Map<number, number>();
  const groups = new Map<number, number[]>();
  for (let s = 0; s < segments.count; s++) {
    if (from[s] === to[s]) continue;
    const key = pairKey(s);
    const first = firstOfPair.get(key);
    if (first === undefined) firstOfPair.set(key, s);
    else groups.set(key, [...(groups.get(key) ?? [first]), s]);
  }
  for (const group of groups.values()) {
    const pending = [...group];
    while (pending.length > 1) {
      const lead = pending.shift()!;
      const same = [lead];
      for (let i = pending.length - 1; i >= 0; i--) {
        const s = pending[i]!;
        if (samePoints(segments, lead, s, from[s] !== from[lead])) same.push(...pending.splice(i, 1));
      }
      if (same.length > 1)
        keepQuickest(
          segments,
          same.sort((a, b) => a - b),
          lead,
          strings,
        );
    }
  }
}

/** Of segments on the same points, per direction of `lead`, leaves only the one OSRM keeps passable. */
function keepQuickest(segments: RoadSegments, same: readonly number[], lead: number, strings: readonly string[]): void {
  for (const alongLead of [true, false]) {
    const secondsOf = (s: number): Float64Array =>
      (segments.from[s] === segments.from[lead]) === alongLead ? segments.forwardSeconds : segments.backwardSeconds;
    let kept = -1;
    for (const s of same) {
      const seconds = secondsOf(s)[s]!;
      if (Number.isNaN(seconds)) continue;
      const keptSeconds = kept < 0 ? Infinity : secondsOf(kept)[kept]!;
      if (
        seconds < keptSeconds ||
        (seconds === keptSeconds && compareNames(strings[segments.name[s]!]!, strings[segments.name[kept]!]!) < 0)
      ) {
        kept = s;
      }
    }
    for (const s of same) if (s !== kept) secondsOf(s)[s] = NaN;
  }
}
