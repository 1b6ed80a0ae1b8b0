/**
 * The routing job of an import: the road network of every travel mode read from the OSM extracts
 * in one pass, then one contracted graph file per mode (`routing/<mode>.graph` in the dataset),
 * the modes built side by side in worker threads (graph-thread.ts) as far as the threads
 * and the memory budget allow. With an elevation store (the import's DEMs), the walking and
 * cycling segment times follow the slopes first, and every mode's bridges and tunnels get their
 * elevations (slope-times.ts).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Piscina } from 'piscina';
import { throwIfAborted } from '../abort.js';
import { paths } from '../../core/dataset-layout.js';
import type { ProgressReporter } from '../progress.js';
import { ThreadLeases, importThreads, pipelinePool, runWithProgress, type WithProgressPort } from '../threads.js';
import type { RoutingGraphStats } from './graph/write.js';
import { TRAVEL_MODES, networkBuffers, type RoadNetwork, type TravelMode } from '../../core/routing/network.js';
import { graphBuildBytes, runWithinBudget } from './build-schedule.js';
import { readRoadNetworks } from './osm-network.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { applySlopeTimes, offGroundPointElevations } from './slope-times.js';

const WORKER = new URL('./graph-thread.js', import.meta.url);

/** What the worker gets: the network (its buffers transferred), the file to write, and the import's thread count its cells may borrow from. */
export interface RoutingGraphTask {
  network: RoadNetwork;
  file: string;
  threads: number;
  /** A ThreadLeases' count, shared. */
  leases: SharedArrayBuffer;
}

export interface RoutingBuildOptions {
  /** Graphs built at once, at most (default: importThreads()). */
  threads?: number;
  /** This step's memory budget in bytes: fewer graphs are built at once when their estimates would not fit (default: no limit). */
  memoryBytes?: number;
  /** The dataset's elevation store, written by the elevation step: walking and cycling times follow its slopes (default: none). */
  elevationFile?: string;
}

export async function buildRoutingGraphs(
  osmFiles: readonly string[],
  datasetDir: string,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
  { threads = importThreads(), memoryBytes = Infinity, elevationFile }: RoutingBuildOptions = {},
): Promise<Record<TravelMode, RoutingGraphStats>> {
  const networks: Partial<Record<TravelMode, RoadNetwork>> = await readRoadNetworks([...osmFiles], onProgress, signal);
  if (elevationFile !== undefined) {
    // One store, its block cache bounded (28 MiB), read on this thread: a few seconds per million segments.
    const store = ElevationStore.open(elevationFile);
    try {
      for (const mode of TRAVEL_MODES) {
        throwIfAborted(signal);
        applySlopeTimes(networks[mode]!, store, onProgress);
        // Every mode's routes draw their elevation profile along bridges and tunnels from these.
        networks[mode]!.segments.roadElevation = offGroundPointElevations(networks[mode]!, store);
      }
    } finally {
      store.close();
    }
  }
  // Biggest first: with fewer threads than modes, the longest build does not come last.
  const jobs = TRAVEL_MODES.map((mode) => ({ mode, bytes: graphBuildBytes(networks[mode]!, threads) })).sort((a, b) => b.bytes - a.bytes);
  // What this process holds already (the networks among it) counts against the budget too.
  const budget = memoryBytes - process.memoryUsage.rss();
  const stats = {} as Record<TravelMode, RoutingGraphStats>;
  const pools = new Set<Piscina<WithProgressPort<RoutingGraphTask>, RoutingGraphStats>>();
  // Each build holds a thread; its big component's cells borrow the threads the other builds leave free.
  const leases = new ThreadLeases(threads);
  try {
    await runWithinBudget(jobs, threads, budget, async ({ mode }) => {
      throwIfAborted(signal);
      const network = networks[mode]!;
      delete networks[mode];
      const file = paths.routingGraph(datasetDir, mode);
      mkdirSync(dirname(file), { recursive: true });
      const report: ProgressReporter = (progress) => onProgress({ ...progress, phase: `${mode} graph: ${progress.phase}` });
      // A thread of its own, ended with the build: an idle thread keeps what its last task dropped
      // resident (V8 collects only as it allocates), and the budget counts a finished build as freed.
      const pool = pipelinePool<WithProgressPort<RoutingGraphTask>, RoutingGraphStats>(WORKER, 1);
      pools.add(pool);
      leases.take();
      try {
        stats[mode] = await runWithProgress(
          pool,
          { network, file, threads, leases: leases.shared },
          report,
          signal,
          networkBuffers(network),
        );
      } finally {
        leases.give();
        pools.delete(pool);
        await pool.destroy();
      }
    });
  } catch (error) {
    throwIfAborted(signal);
    throw error;
  } finally {
    // After a failure, the builds still running stop too.
    await Promise.all([...pools].map((pool) => pool.destroy()));
  }
  return Object.fromEntries(TRAVEL_MODES.map((mode) => [mode, stats[mode]])) as Record<TravelMode, RoutingGraphStats>;
}
