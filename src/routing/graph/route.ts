/** The fastest path between two snapped positions, by a bidirectional search on the hierarchy. */
import type { RouteLeg } from '../path.js';
import { pathThrough, searchHierarchy } from './ch-search.js';
import { endpointOfSnap, targetOfSnap } from './endpoint.js';
import { buildLeg } from './leg.js';
import type { RoutingGraph } from './load.js';
import type { Snap } from './snap.js';
import { workspaceOf } from './workspace.js';

/** The fastest leg from `from` to `to`, or null when no path joins them. */
export function route(graph: RoutingGraph, from: Snap, to: Snap): RouteLeg | null {
  const workspace = workspaceOf(graph);
  const meeting = searchHierarchy(graph, workspace, endpointOfSnap(graph, from), targetOfSnap(graph, to));
  if (!meeting) return null;
  return buildLeg(graph, pathThrough(graph, workspace, meeting.node, meeting.loopEdge), from, to);
}
