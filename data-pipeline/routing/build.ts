/**
 * The routing job of an import: the road network of every travel mode read from the OSM extracts
 * in one pass, then one contracted graph file per mode (`routing/<mode>.graph` in the dataset).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { throwIfAborted } from '../abort.js';
import { paths } from '../../core/dataset-layout.js';
import type { ProgressReporter } from '../features.js';
import { writeRoutingGraph, type RoutingGraphStats } from './graph/write.js';
import { TRAVEL_MODES, type TravelMode } from '../../core/routing/network.js';
import { readRoadNetworks } from './osm-network.js';

export async function buildRoutingGraphs(
  osmFiles: readonly string[],
  datasetDir: string,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
): Promise<Record<TravelMode, RoutingGraphStats>> {
  const networks = await readRoadNetworks([...osmFiles], onProgress);
  const stats = {} as Record<TravelMode, RoutingGraphStats>;
  for (const mode of TRAVEL_MODES) {
    throwIfAborted(signal);
    const file = paths.routingGraph(datasetDir, mode);
    mkdirSync(dirname(file), { recursive: true });
    stats[mode] = writeRoutingGraph(networks[mode], file, (progress) => onProgress({ ...progress, phase: `${mode} graph: ${progress.phase}` }));
  }
  return stats;
}
