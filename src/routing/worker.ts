/**
 * The Piscina task of the routing pool (pool.ts): directions, isochrones, matrices, nearest roads, map matching and trips. Each thread lays views over the
 * graphs the main thread loaded into shared memory (workerData), so a graph is in memory once.
 */
import { workerData } from 'piscina';
import type { TravelMode } from '../../core/routing/network.js';
import { answerDirections } from './answer/directions.js';
import { answerIsochrone } from './answer/isochrone.js';
import { answerMatch } from './answer/match.js';
import { answerMatrix } from './answer/matrix.js';
import { answerNearest } from './answer/nearest.js';
import type { RoutingAnswer, RoutingTask } from './answer/task.js';
import { answerTrip } from './answer/trip.js';
import { openRoutingGraph, type RoutingGraph } from './graph/load.js';

const shared = (workerData as { graphs: Partial<Record<TravelMode, SharedArrayBuffer>> }).graphs;
const graphs = new Map<TravelMode, RoutingGraph>();
for (const [mode, buffer] of Object.entries(shared)) graphs.set(mode as TravelMode, openRoutingGraph(buffer));

export default function routingTask(task: RoutingTask): RoutingAnswer {
  const graph = graphs.get(task.params.mode);
  if (graph === undefined) throw new Error(`no ${task.params.mode} graph in this pool`);
  switch (task.kind) {
    case 'directions':
      return answerDirections(graph, task.params);
    case 'isochrone':
      return answerIsochrone(graph, task.params);
    case 'matrix':
      return answerMatrix(graph, task.params);
    case 'nearest':
      return answerNearest(graph, task.params);
    case 'match':
      return answerMatch(graph, task.params);
    case 'trip':
      return answerTrip(graph, task.params, task.body);
  }
}
