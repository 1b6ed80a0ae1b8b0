/**
 * Turning a node path between two snapped positions into a RouteLeg, in passes as OSRM assembles a
 * route (engine/guidance/assemble_*.hpp), each over the result of the one before: the geometry and
 * the travelled segments (leg-geometry.ts), their runs, the material of the steps (leg-runs.ts), then
 * the leg's summary and annotation spans. The summary follows the runs because the leg's metres and
 * seconds are the sums of theirs.
 */
import type { LegSpan, PathSegment, RouteLeg } from '../path.js';
import type { NodePath } from './ch-search.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { legGeometry, type LegGeometry } from './leg-geometry.js';
import { legRuns } from './leg-runs.js';
import type { Snap } from './snap.js';

export function buildLeg(graph: RoutingGraph, path: NodePath, start: Snap, end: Snap): RouteLeg {
  const geometry = legGeometry(graph, path, start, end);
  const segments = legRuns(graph, geometry);
  const { distance, duration } = legSummary(segments);
  const spans = legSpans(geometry, distance, duration);
  const { coordinates, nodes, roadElevations } = geometry;
  return { distance, duration, coordinates, nodes, segments, spans, roadElevations };
}

/** The leg's metres and seconds: its runs' (OSRM's assembleSummary). */
function legSummary(runs: readonly PathSegment[]): { distance: number; duration: number } {
  let distance = 0;
  let duration = 0;
  for (const run of runs) (distance += run.distance), (duration += run.duration);
  return { distance, duration };
}

/**
 * Metres and seconds over stretches of the polyline, kept as spans and shared out over the pieces
 * only when annotations are asked for: one per travelled segment with a point of its own, and last,
 * what none took (seconds carried past the last one, a part without a point of its own) on the last
 * piece, so that together they are the leg's `distance` and `duration`.
 */
function legSpans({ coordinates, travelled }: LegGeometry, distance: number, duration: number): LegSpan[] {
  const spans: LegSpan[] = [];
  let spanMetres = 0;
  let spanSeconds = 0;
  for (const { first, last, metres, seconds } of travelled) {
    if (last === first) continue;
    spans.push({ first, last, metres, seconds });
    spanMetres += metres;
    spanSeconds += seconds;
  }
  const lastPoint = coordinates.length - 1;
  spans.push({ first: lastPoint - 1, last: lastPoint, metres: distance - spanMetres, seconds: duration - spanSeconds });
  return spans;
}
