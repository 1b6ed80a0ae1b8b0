/**
 * A bounded in-memory cache for hot tiles: any value under a string key, each entry charged its
 * byte size, evicted past the bound by CLOCK (second chance): an approximation of least recently
 * used whose hits cost one map look-up. One cache per served data folder
 * (`datasetTileCache`) holds every kind of tile; keys start with the dataset id, and the cache is
 * emptied when the dataset switches, so it never answers with another dataset's tiles.
 */
import { setting } from '../../core/config.js';
import type { DatasetHolder } from '../dataset/index.js';

/** Charged per entry on top of its value's bytes: the key, the map slot, the value's objects. */
export const ENTRY_OVERHEAD_BYTES = 256;

export class TileCache<V> {
  /** Oldest first. A hit only marks its entry used, so that hits never write to the map. */
  private readonly entries = new Map<string, { value: V; bytes: number; used: boolean }>();
  private usedBytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes charged for the entries held. */
  get bytes(): number {
    return this.usedBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Stores `value`, charged `bytes` plus the entry overhead; a value that alone exceeds the bound is not stored. */
  set(key: string, value: V, bytes: number): void {
    const charged = bytes + ENTRY_OVERHEAD_BYTES;
    this.delete(key);
    if (charged > this.maxBytes) return;
    while (this.usedBytes + charged > this.maxBytes) this.evictOne();
    this.entries.set(key, { value, bytes: charged, used: false });
    this.usedBytes += charged;
  }

  /** The oldest entry not used since it was last passed over goes; used ones get a second chance at the end. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.usedBytes -= entry.bytes;
        return;
      }
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.usedBytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.usedBytes = 0;
  }
}

const byHolder = new WeakMap<DatasetHolder, TileCache<unknown> | null>();

/**
 * The tile cache of a data folder's server, created on first use with `WAYMARK_TILE_CACHE_MB`
 * (0 turns it off: null) and emptied whenever the served dataset switches. Every tile kind shares
 * it and its bound; each stores one value type under keys of its own (`<dataset id>/<kind>/…`).
 */
export function datasetTileCache<V>(datasets: DatasetHolder): TileCache<V> | null {
  let cache = byHolder.get(datasets);
  if (cache === undefined) {
    const maxBytes = setting('tileCacheMb') * 1024 * 1024;
    cache = maxBytes === 0 ? null : new TileCache<unknown>(maxBytes);
    if (cache) datasets.onSwitch(cache.clear.bind(cache));
    byHolder.set(datasets, cache);
  }
  return cache as TileCache<V> | null;
}
