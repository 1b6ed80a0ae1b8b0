/** The matrix on a loaded graph: every point snapped to its nearest road, then one many-to-many search. */
import { endpointOfSnap, targetOfSnap } from '../graph/endpoint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { manyToMany } from '../graph/many-to-many.js';
import { excluding } from '../graph/exclude.js';
import type { Snap } from '../graph/snap.js';
import { tableBody } from '../response/table-body.js';
import type { LonLat } from '../../../core/geo/types.js';
import { noSegmentMessage, placePoint } from './place.js';
import type { MatrixParams, SnapRule, OsrmExtras, RoutingAnswer } from '../task.js';

type Snapped = { ok: true; snaps: Snap[] } | { ok: false; answer: RoutingAnswer };

function snapAll(
  graph: RoutingGraph,
  name: string,
  points: readonly LonLat[],
  rules: readonly SnapRule[],
  { generateHints = false, pointOrder }: OsrmExtras,
  cache: Map<string, Snap | null>,
): Snapped {
  const snaps: Snap[] = [];
  for (const [i, point] of points.entries()) {
    const rule = rules[i]!;
    // A point given as both a source and a destination (OSRM's usual table) is snapped once.
    const key = `${point[0]},${point[1]},${JSON.stringify(rule)}`;
    let snapped = cache.get(key);
    if (snapped === undefined) cache.set(key, (snapped = placePoint(graph, point, rule, generateHints)));
    if (snapped === null) {
      return {
        ok: false,
        answer: { ok: false, code: 'NoSegment', message: noSegmentMessage(graph.mode, `${name}[${i}]`, point, rule, pointOrder) },
      };
    }
    snaps.push(snapped);
  }
  return { ok: true, snaps };
}

export function answerMatrix(fullGraph: RoutingGraph, params: MatrixParams & OsrmExtras): RoutingAnswer {
  const graph = excluding(fullGraph, params.avoid);
  const cache = new Map<string, Snap | null>();
  const sources = snapAll(graph, 'sources', params.sources, params.sourceRules, params, cache);
  if (!sources.ok) return sources.answer;
  const destinations = snapAll(graph, 'destinations', params.destinations, params.destinationRules, params, cache);
  if (!destinations.ok) return destinations.answer;
  const costs = manyToMany(
    graph,
    sources.snaps.map((s) => endpointOfSnap(graph, s)),
    destinations.snaps.map((s) => targetOfSnap(graph, s)),
  );
  return { ok: true, body: JSON.stringify(tableBody(costs, sources.snaps, destinations.snaps, params.annotations)) };
}
