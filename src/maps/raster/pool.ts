/**
 * The raster pool: Piscina threads running workers/render/thread.ts, one pool per served dataset, created
 * at the first raster request and closed when another dataset is swapped in. Every failure of a
 * job becomes one clean ApiError: a full queue or a job past its time limit a 503 (Piscina ends the
 * thread of an aborted job and starts another), a crashed thread or a renderer error a 500.
 */
import { Piscina } from 'piscina';
import { currentDataset, type Dataset, type DatasetHolder } from '../../dataset/index.js';
import { ApiError } from '../../http/errors.js';
import { RENDER_THREAD_FILE, type RasterAnswer, type RasterJob } from '../../../workers/render/task.js';
import { ESM_WORKER_EXEC_ARGV } from '../../../core/worker-exec-argv.js';
import { setting } from '../../../core/config.js';

/** Jobs waiting per thread before new ones are refused (503): rendering is slow, a long queue only adds latency. */
const QUEUE_PER_THREAD = 32;
/**
 * Render threads run at this nice increment (Linux, through Piscina's optional @napi-rs/nice): a
 * saturated pool then takes the cores only when the event loop and the routing threads leave them
 * idle, so vector tiles, geocoding and routing keep their latency while maps render.
 */
const RENDER_NICENESS = 10;
/** Requests that already hold the previous dataset's pool finish with it before it is closed. */
const CLOSE_OLD_AFTER_MS = 60_000;

export class RasterPool {
  private readonly pool: Piscina<RasterJob, RasterAnswer>;
  /** Jobs accepted and not yet answered, running or waiting. */
  private jobs = 0;
  private readonly maxJobs: number;

  constructor(
    threads: number,
    /** A job taking longer (waiting included) is aborted and its thread replaced. */
    private readonly timeoutMs = setting('renderTimeoutMs'),
    worker = RENDER_THREAD_FILE,
  ) {
    // Piscina's `maxQueue` does not count tasks that carry an abort signal (they wait in another
    // queue while no thread is free), so the bound on waiting jobs is kept here.
    // Threads stay alive: each keeps its opened archives, sprites, fonts and compiled styles, which
    // a new thread would have to build again (Piscina ends idle threads above minThreads at once).
    this.pool = new Piscina({
      filename: worker,
      execArgv: [...ESM_WORKER_EXEC_ARGV],
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      niceIncrement: RENDER_NICENESS,
    });
    this.maxJobs = threads * (1 + QUEUE_PER_THREAD);
  }

  async run(job: RasterJob): Promise<RasterAnswer> {
    if (this.jobs >= this.maxJobs)
      throw new ApiError(503, 'rendering is busy: too many maps are waiting; try again shortly', { 'Retry-After': '1' });
    const signal = AbortSignal.timeout(this.timeoutMs);
    this.jobs++;
    try {
      return await this.pool.run(job, { signal });
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

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/** The pool of the served dataset, made on first use; the previous dataset's pool is closed a minute after a switch. */
export function rasterPools(datasets: DatasetHolder): () => { dataset: Dataset; pool: RasterPool } {
  let current: { dataset: Dataset; pool: RasterPool } | null = null;
  const retire = (pool: RasterPool, delay: number) => setTimeout(() => void pool.close(), delay).unref();
  datasets.onSwitch(() => {
    if (current === null) return;
    retire(current.pool, datasets.current() === null ? 0 : CLOSE_OLD_AFTER_MS);
    current = null;
  });
  return () => {
    const dataset = currentDataset(datasets);
    if (current?.dataset !== dataset) current = { dataset, pool: new RasterPool(datasets.threads) };
    return current;
  };
}
