/**
 * The routing product's part of a dataset: the pool of worker threads over its routing graphs
 * (pool.ts), none for a dataset without any (no OSM input); its threads read the dataset's
 * elevation store when it has one.
 */
import type { DatasetSource } from '../dataset/source.js';
import { elevationFileOf } from '../terrain/index.js';
import { RoutingPool } from './pool.js';

export const routingPoolSource: DatasetSource<RoutingPool> = {
  open: (dataset) => {
    const modes = dataset.manifest.routingModes ?? [];
    return modes.length > 0 ? new RoutingPool(dataset.dir, modes, dataset.threads, elevationFileOf(dataset)) : null;
  },
  close: (pool) => pool.close(),
};
