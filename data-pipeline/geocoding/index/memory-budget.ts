/**
 * The geocoder step's share of the import's memory budget. What grows with the input is kept on
 * disk — the staging table, each OSM file's spill, SQLite's sorts — so the budget sizes SQLite's
 * page caches. docs/GEOCODING.md, "Memory".
 */
import { defaultImportMemory } from '../../memory-budget.js';

const MiB = 1024 * 1024;

/** What the step takes before any input: Node, the modules, GeoNames' 135,000 places. */
const BASE_BYTES = 320 * MiB;

/** The smallest page cache a database gets, whatever the budget. */
const MIN_CACHE_BYTES = 8 * MiB;

/**
 * At most three page caches fill at once (the index, the staging table, the sort between them);
 * the rest of the budget is osmium's, whose node-location index takes about 16 bytes a node
 * while a file is read.
 */
const CACHES_IN_BUDGET = 8;

/** SQLite page cache of each database (KiB) for a budget of `memoryBytes`. */
export function sqliteCacheKiB(memoryBytes = defaultImportMemory()): number {
  return Math.max(MIN_CACHE_BYTES, (memoryBytes - BASE_BYTES) / CACHES_IN_BUDGET) / 1024;
}
