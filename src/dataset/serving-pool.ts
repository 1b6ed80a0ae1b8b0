/**
 * The one lifecycle of the serving pools (routing: thread.ts of workers/routing; rendering: of
 * workers/render): each is a dataset's source (source.ts), opened with the dataset and closed
 * with it, so requests that already hold the previous dataset finish on its threads. A pool runs
 * a fixed number of threads that stay alive while it is open: each thread builds its graph views,
 * opens its archives, fonts and styles once, which a new thread would build again (Piscina ends
 * idle threads above minThreads at once).
 */
import { Piscina } from 'piscina';
import { ESM_WORKER_EXEC_ARGV } from '../../core/worker-exec-argv.js';

/** What differs between the pools: the thread's module, what it is started with, its priority and queue. */
export interface ServingPoolOptions {
  filename: string;
  threads: number;
  workerData?: unknown;
  /** Tasks that may wait for a thread before Piscina refuses more; unbounded when unset. */
  maxQueue?: number;
  /** Runs the threads at this nice increment (Linux), below the event loop and the other pool. */
  niceIncrement?: number;
}

export function servingPool<Task, Answer>({ filename, threads, ...options }: ServingPoolOptions): Piscina<Task, Answer> {
  return new Piscina<Task, Answer>({
    filename,
    execArgv: [...ESM_WORKER_EXEC_ARGV],
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // Nothing reads Piscina's run and wait time histograms; not keeping them saves work per task.
    recordTiming: false,
    ...options,
  });
}
