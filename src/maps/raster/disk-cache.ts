/**
 * The on-disk cache of rendered raster tiles: files under `<dataset folder>/raster-cache/`, named by
 * their key (style, language, z/x/y, scale, format). A new dataset has its own folder, so its
 * cache starts empty; the previous dataset's cache folder is deleted when another is swapped in.
 * The cache only saves work: a failed read is a miss, a failed write is ignored.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Dataset, DatasetHolder } from '../../dataset/index.js';

const FOLDER = 'raster-cache';

export class RasterDiskCache {
  constructor(datasets: DatasetHolder) {
    let served = datasets.current();
    datasets.onSwitch(() => {
      // A stop (no dataset) keeps the cache for the next start; a new dataset makes the old one dead weight.
      if (served !== null && datasets.current() !== null)
        void rm(join(served.dir, FOLDER), { recursive: true, force: true }).catch(() => undefined);
      served = datasets.current();
    });
  }

  /** `key` is a relative path of safe segments, e.g. `light/local/12/2144/1395@2x.png`. */
  async read(dataset: Dataset, key: string): Promise<Buffer | null> {
    try {
      return await readFile(join(dataset.dir, FOLDER, key));
    } catch {
      return null;
    }
  }

  async write(dataset: Dataset, key: string, data: Uint8Array): Promise<void> {
    const file = join(dataset.dir, FOLDER, key);
    try {
      await mkdir(dirname(file), { recursive: true });
      // Written aside, then renamed: a reader never sees a half-written tile.
      const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(aside, data);
      await rename(aside, file);
    } catch {
      // Read-only or full disk: tiles are still served from the renderer and the memory cache.
    }
  }
}
