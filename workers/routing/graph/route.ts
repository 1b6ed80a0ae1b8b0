/** The fastest path between two snapped positions, by a bidirectional search on the hierarchy. */
import type { RouteLeg } from '../path.js';
import { type Meeting, pathThrough, searchHierarchy } from './ch-search.js';
import { type Endpoint, endpointOfSnap, positionOf, targetOfSnap } from './endpoint.js';
import { buildLeg } from './leg.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Snap } from './snap.js';
import { workspaceOf } from './workspace.js';

/**
 * The source without its nodes on which the target lies behind the start, or null when it has none
 * (or nothing else). On such a node the route must leave and come back; but its start label (the
 * cheaper one) hides the way in from another source node, such as the other direction of the same
 * segment turned round at a dead end beyond the target, so that way needs a search of its own.
 */
function sourceWithoutNodesBehind(source: Endpoint, target: Endpoint): Endpoint | null {
  const kept: Endpoint = { nodes: [], positions: [] };
  source.nodes.forEach((node, i) => {
    if (!(positionOf(target, node) < source.positions[i]!)) kept.nodes.push(node), kept.positions.push(source.positions[i]!);
  });
  return kept.nodes.length === source.nodes.length || kept.nodes.length === 0 ? null : kept;
}

/** The fastest leg from `from` to `to`, or null when no path joins them. */
export function route(graph: RoutingGraph, from: Snap, to: Snap): RouteLeg | null {
  const workspace = workspaceOf(graph);
  const source = endpointOfSnap(graph, from);
  const target = targetOfSnap(graph, to);
  let meeting: Meeting | null = searchHierarchy(graph, workspace, source, target);
  const others = sourceWithoutNodesBehind(source, target);
  if (others) {
    const around = searchHierarchy(graph, workspace, others, target);
    // The workspace holds the last search's labels, which the path is read from.
    if (around === null || (meeting !== null && meeting.weight <= around.weight))
      meeting = searchHierarchy(graph, workspace, source, target);
    else meeting = around;
  }
  if (!meeting) return null;
  return buildLeg(graph, pathThrough(graph, workspace, meeting.node, meeting.loopEdge), from, to);
}
