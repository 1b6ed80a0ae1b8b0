/**
 * The routing product's part of a dataset: the pool of worker threads over its routing graphs
 * (pool.ts), none for a dataset without any (no OSM input).
 */
import type { DatasetSource } from '../dataset/source.js';
import { RoutingPool } from './pool.js';

export const routingPoolSource: DatasetSource<RoutingPool> = {
  open: ({ dir, manifest, threads }) => {
    const modes = manifest.routingModes ?? [];
    return modes.length > 0 ? new RoutingPool(dir, modes, threads) : null;
  },
  close: (pool) => pool.close(),
};
