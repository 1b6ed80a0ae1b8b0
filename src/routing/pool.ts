/**
 * The routing pool of a dataset: a serving pool (../dataset/serving-pool.ts) of threads running
 * workers/routing/thread.ts, sharing the dataset's routing graphs, read once into
 * SharedArrayBuffers here, and the path of its elevation store, which each thread opens for itself
 * (routes with elevation). The front end awaits its answers and never runs a route itself.
 */
import type { Piscina } from 'piscina';
import { paths } from '../../core/dataset-layout.js';
import type { TravelMode } from '../../core/routing/network.js';
import { loadRoutingGraph } from '../../core/routing/graph-file.js';
import { servingPool } from '../dataset/serving-pool.js';
import { type RoutingAnswer, type RoutingTask, ROUTING_THREAD_FILE, type RoutingWorkerData } from '../../workers/routing/task.js';

/** Tasks waiting per thread before new ones are refused (503) rather than queued without bound. */
const QUEUE_PER_THREAD = 256;

export class RoutingPool {
  private readonly pool: Piscina<RoutingTask, RoutingAnswer>;
  readonly modes: ReadonlySet<string>;
  /** Whether the dataset has elevations, so that its routes may carry them (`elevation=true`). */
  readonly hasElevation: boolean;

  /** `elevationFile`: the dataset's elevation store, null when it was imported without DEMs. */
  constructor(datasetDir: string, modes: readonly string[], threads: number, elevationFile: string | null) {
    const graphs: Partial<Record<TravelMode, SharedArrayBuffer>> = {};
    for (const mode of modes) graphs[mode as TravelMode] = loadRoutingGraph(paths.routingGraph(datasetDir, mode)).shared;
    this.modes = new Set(modes);
    this.hasElevation = elevationFile !== null;
    const workerData: RoutingWorkerData = { graphs, elevationFile };
    this.pool = servingPool({ filename: ROUTING_THREAD_FILE, threads, workerData, maxQueue: threads * QUEUE_PER_THREAD });
  }

  run(task: RoutingTask): Promise<RoutingAnswer> {
    return this.pool.run(task);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
