/**
 * The Piscina task of the routing pool (pool.ts): directions, isochrones, matrices, nearest roads, map matching and trips. Each thread lays views over the
 * graphs the main thread loaded into shared memory (workerData), so a graph is in memory once, and
 * opens the dataset's elevation store for itself on the first request that asks `elevation=true`.
 */
import { workerData } from 'piscina';
import type { TravelMode } from '../../core/routing/network.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { answerDirections } from './answer/directions.js';
import { answerIsochrone } from './answer/isochrone.js';
import { answerMatch } from './answer/match.js';
import { answerMatrix } from './answer/matrix.js';
import { answerNearest } from './answer/nearest.js';
import { answerTrip } from './answer/trip.js';
import { openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import type { RoutingAnswer, RoutingTask, RoutingWorkerData } from './task.js';

const { graphs: shared, elevationFile } = workerData as RoutingWorkerData;
const graphs = new Map<TravelMode, RoutingGraph>();
for (const [mode, buffer] of Object.entries(shared)) graphs.set(mode as TravelMode, openRoutingGraph(buffer));
let elevationStore: ElevationStore | null = null;

/** The dataset's elevation store when the task asks for elevations (the front end checked that there is one); else null. */
function elevationFor(task: RoutingTask): ElevationStore | null {
  if (!('elevation' in task.params && task.params.elevation) || elevationFile === null) return null;
  elevationStore ??= ElevationStore.open(elevationFile);
  return elevationStore;
}

export default function routingTask(task: RoutingTask): RoutingAnswer {
  const graph = graphs.get(task.params.mode);
  if (graph === undefined) throw new Error(`no ${task.params.mode} graph in this pool`);
  switch (task.kind) {
    case 'directions':
      return answerDirections(graph, task.params, elevationFor(task));
    case 'isochrone':
      return answerIsochrone(graph, task.params);
    case 'matrix':
      return answerMatrix(graph, task.params);
    case 'nearest':
      return answerNearest(graph, task.params);
    case 'match':
      return answerMatch(graph, task.params, elevationFor(task));
    case 'trip':
      return answerTrip(graph, task.params, task.body, elevationFor(task));
  }
}
