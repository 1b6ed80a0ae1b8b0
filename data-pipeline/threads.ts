/**
 * The import's heavy work in worker threads: a Piscina pool per kind of task (the default export of
 * a module beside the step that starts the pool: tiles/spill-thread.ts, tiles/cut-thread.ts, routing/graph-thread.ts), a task
 * reporting progress back over a MessagePort, and cancellation by the import's AbortSignal (Piscina
 * stops the thread running a cancelled task).
 */
import { MessageChannel, type MessagePort, type TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ProgressReporter } from './progress.js';
import { setting } from '../core/config.js';
import { ESM_WORKER_EXEC_ARGV } from '../core/worker-exec-argv.js';

type Progress = Parameters<ProgressReporter>[0];

/** The young generation a pool's threads get unless told otherwise. */
const DEFAULT_YOUNG_GENERATION_MIB = 64;

/** Threads for the import's parallel work: every core, unless `WAYMARK_IMPORT_THREADS` says fewer (or more). */
export const importThreads = (): number => setting('importThreads');

export interface PoolHeap {
  /** A task holds one job's data; a thread's heap needs no more than the job's share of the budget. */
  maxHeapMiB?: number;
  /**
   * Parsing and cutting make short-lived objects by the million: a larger young generation collects
   * them in fewer scavenges, and promotes fewer of them into the old one.
   */
  youngGenerationMiB?: number;
}

/** A pool of `threads` threads running the default export of the worker module at `workerUrl`. */
export function pipelinePool<Task, Result>(workerUrl: URL, threads: number, heap: PoolHeap = {}): Piscina<Task, Result> {
  return new Piscina<Task, Result>({
    filename: workerUrl.href,
    execArgv: [...ESM_WORKER_EXEC_ARGV],
    minThreads: threads,
    maxThreads: threads,
    resourceLimits: {
      maxYoungGenerationSizeMb: heap.youngGenerationMiB ?? DEFAULT_YOUNG_GENERATION_MIB,
      ...(heap.maxHeapMiB === undefined ? {} : { maxOldGenerationSizeMb: heap.maxHeapMiB }),
    },
  });
}

/** A task's payload plus the port its progress comes back on. */
export type WithProgressPort<Task> = Task & { progress: MessagePort };

/**
 * Runs `task` on the pool, handing the worker a port whose messages are passed to `onProgress`.
 * `transfer` moves buffers to the worker instead of copying them.
 */
export async function runWithProgress<Task extends object, Result>(
  pool: Piscina<WithProgressPort<Task>, Result>,
  task: Task,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
  transfer: TransferListItem[] = [],
): Promise<Result> {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (progress: Progress) => onProgress(progress));
  try {
    return await pool.run({ ...task, progress: port2 }, { transferList: [port2, ...transfer], signal: signal ?? null });
  } finally {
    port1.close();
  }
}

/** In a worker: a ProgressReporter that posts to the task's port. */
export function reportTo(port: MessagePort): ProgressReporter {
  return (progress) => port.postMessage(progress);
}

/**
 * The import's threads, counted across its worker threads: a task holds one for its own thread and
 * may borrow more for helpers while some are free (the routing step's cells, cell-threads.ts), so
 * the threads busy together stay within importThreads(). The count lives in a SharedArrayBuffer,
 * which goes to a task as it is (shared, not copied).
 */
export class ThreadLeases {
  private readonly free: Int32Array;

  /** `threads` free, or the count of `shared` (another thread's leases). */
  constructor(threadsOrShared: number | SharedArrayBuffer) {
    if (typeof threadsOrShared === 'number') {
      this.free = new Int32Array(new SharedArrayBuffer(4));
      this.free[0] = threadsOrShared;
    } else this.free = new Int32Array(threadsOrShared);
  }

  get shared(): SharedArrayBuffer {
    return this.free.buffer as SharedArrayBuffer;
  }

  /** One thread, even when none is free (a task that must run). */
  take(): void {
    Atomics.sub(this.free, 0, 1);
  }

  /** One thread if one is free. */
  tryTake(): boolean {
    for (;;) {
      const free = Atomics.load(this.free, 0);
      if (free <= 0) return false;
      if (Atomics.compareExchange(this.free, 0, free, free - 1) === free) return true;
    }
  }

  give(): void {
    Atomics.add(this.free, 0, 1);
  }
}
