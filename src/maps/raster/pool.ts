/**
 * The raster pool of a dataset: a serving pool (../../dataset/serving-pool.ts) of threads running
 * workers/render/thread.ts, opened with every dataset and closed with it like the routing pool;
 * its threads start at the dataset's first picture, so a server that draws none starts none. Every
 * failure of a job becomes one clean ApiError: a full queue or a job past its time limit a 503
 * (Piscina ends the thread of an aborted job and starts another), a crashed thread or a renderer
 * error a 500.
 */
import type { Piscina } from 'piscina';
import { currentDataset, openedBy, type Dataset, type DatasetHolder } from '../../dataset/index.js';
import type { DatasetSource } from '../../dataset/source.js';
import { servingPool } from '../../dataset/serving-pool.js';
import { ApiError } from '../../http/errors.js';
import { RENDER_THREAD_FILE, type RasterAnswer, type RasterJob } from '../../../workers/render/task.js';
import { setting } from '../../../core/config.js';

/** Jobs waiting per thread before new ones are refused (503): rendering is slow, a long queue only adds latency. */
const QUEUE_PER_THREAD = 32;
/**
 * Render threads run at this nice increment (Linux, through Piscina's optional @napi-rs/nice): a
 * saturated pool then takes the cores only when the event loop and the routing threads leave them
 * idle, so vector tiles, geocoding and routing keep their latency while maps render.
 */
const RENDER_NICENESS = 10;
export class RasterPool {
  /** Started at the first job. */
  private pool: Piscina<RasterJob, RasterAnswer> | null = null;
  /** Jobs accepted and not yet answered, running or waiting. */
  private jobs = 0;
  private readonly maxJobs: number;

  constructor(
    private readonly threads: number,
    /** A job taking longer (waiting included) is aborted and its thread replaced. */
    private readonly timeoutMs = setting('renderTimeoutMs'),
    private readonly filename = RENDER_THREAD_FILE,
  ) {
    // Piscina's `maxQueue` does not count tasks that carry an abort signal (they wait in another
    // queue while no thread is free), so the bound on waiting jobs is kept here.
    this.maxJobs = threads * (1 + QUEUE_PER_THREAD);
  }

  async run(job: RasterJob): Promise<RasterAnswer> {
    if (this.jobs >= this.maxJobs)
      throw new ApiError(503, 'rendering is busy: too many maps are waiting; try again shortly', { 'Retry-After': '1' });
    const pool = (this.pool ??= servingPool({ filename: this.filename, threads: this.threads, niceIncrement: RENDER_NICENESS }));
    const signal = AbortSignal.timeout(this.timeoutMs);
    this.jobs++;
    try {
      return await pool.run(job, { signal });
    } catch (_error) {
      if (signal.aborted) {
        throw new ApiError(503, `rendering took longer than ${this.timeoutMs / 1000} s and was stopped; try again shortly`, {
          'Retry-After': '1',
        });
      }
      throw new ApiError(500, 'the map could not be rendered: the renderer failed on this request');
    } finally {
      this.jobs--;
    }
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}

export const rasterPoolSource: DatasetSource<RasterPool> = {
  open: (dataset) => new RasterPool(dataset.threads),
  close: (pool) => pool.close(),
};

/** The served dataset and its raster pool (every dataset opens one). */
export function rasterPoolFor(datasets: DatasetHolder): { dataset: Dataset; pool: RasterPool } {
  const dataset = currentDataset(datasets);
  const pool = openedBy(dataset, rasterPoolSource);
  if (pool === null) throw new Error(`dataset ${dataset.id} was opened without its raster pool`);
  return { dataset, pool };
}
