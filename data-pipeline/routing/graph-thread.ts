/**
 * The Piscina task of an import's routing step: one travel mode's graph file, contracted and
 * written in a thread of its own (build.ts runs the modes side by side). The
 * network arrives with its buffers transferred, not copied; progress goes back over the task's port.
 * Its big component's cells may go to helper threads while the import has threads free (cell-threads.ts).
 */
import type { RoutingGraphTask } from './build.js';
import { writeRoutingGraph, type RoutingGraphStats } from './graph/write.js';
import { ThreadLeases, reportTo, type WithProgressPort } from '../threads.js';

export default function routingGraphTask({
  network,
  file,
  threads,
  leases,
  progress,
}: WithProgressPort<RoutingGraphTask>): RoutingGraphStats {
  return writeRoutingGraph(network, file, reportTo(progress), { threads, leases: new ThreadLeases(leases) });
}
