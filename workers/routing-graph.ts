/**
 * The Piscina task of an import's routing step: one travel mode's graph file, contracted and
 * written in a thread of its own (data-pipeline/routing/build.ts runs the modes side by side). The
 * network arrives with its buffers transferred, not copied; progress goes back over the task's port.
 */
import type { RoutingGraphTask } from '../data-pipeline/routing/build.js';
import { writeRoutingGraph, type RoutingGraphStats } from '../data-pipeline/routing/graph/write.js';
import { reportTo, type WithProgressPort } from '../data-pipeline/threads.js';

export default function routingGraphTask({ network, file, progress }: WithProgressPort<RoutingGraphTask>): RoutingGraphStats {
  return writeRoutingGraph(network, file, reportTo(progress));
}
