/**
 * The producer's side of the import queue: enqueue an import, look jobs up, list recent ones, and
 * follow one job's progress to its outcome through BullMQ's QueueEvents.
 */
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, type JobState } from 'bullmq';
import {
  isProgress,
  statusOfJob,
  type ImportJob,
  type ImportJobData,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
  type ImportStatus,
} from './job.js';
import { probeRedis, PROBE_TIMEOUT_MS, withTimeout } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { redactedUrl } from '../../core/redis-url.js';
import { addBefore } from './add-before.js';
import { redisConnection } from './connection.js';
import { IMPORT_JOB_OPTIONS, IMPORT_QUEUE_NAME } from './settings.js';

/** The states `recent()` lists, each looked up separately so every job's state is known without another call. */
const LISTED_STATES: readonly JobState[] = ['active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'];

export class ImportQueue {
  private readonly queue: Queue<ImportJobData, ImportResult>;

  /** `onError` receives connection errors (BullMQ keeps reconnecting meanwhile). */
  constructor(settings: RedisSettings, onError: (error: Error) => void) {
    this.queue = new Queue<ImportJobData, ImportResult>(IMPORT_QUEUE_NAME, {
      connection: redisConnection(settings),
      prefix: settings.prefix,
      defaultJobOptions: IMPORT_JOB_OPTIONS,
    });
    this.queue.on('error', onError);
  }

  /**
   * Adds an import job, its id a fresh request id, for a caller that answers its client by
   * `answerBy` (a `performance.now()` time): Redis refuses the add once that is too close
   * (add-before.ts), so it never happens after the caller said that it did not.
   */
  enqueue(options: ImportOptions, answerBy: number): Promise<ImportJob> {
    const requestId = randomUUID();
    return addBefore(this.queue, 'import', { ...options, requestId }, { jobId: requestId }, answerBy);
  }

  /** The job's status, or null when there is no such job for this data folder. */
  async status(id: string, dataDir: string): Promise<ImportStatus | null> {
    // State first: a job read before it finishes would lack the result or failure reason its state implies.
    const state = await this.queue.getJobState(id);
    const job = await this.queue.getJob(id);
    if (!job || job.data.dataDir !== dataDir) return null;
    return statusOfJob(job, state);
  }

  /** The most recent jobs for this data folder, newest first. */
  async recent(dataDir: string, limit: number): Promise<ImportStatus[]> {
    const byState = await Promise.all(
      LISTED_STATES.map(async (state) => (await this.queue.getJobs(state, 0, limit - 1)).map((job) => ({ job, state }))),
    );
    return byState
      .flat()
      .filter(({ job }) => job?.data?.dataDir === dataDir)
      .sort((a, b) => b.job.timestamp - a.job.timestamp)
      .slice(0, limit)
      .map(({ job, state }) => statusOfJob(job, state));
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  /** Drops the connection without waiting for Redis (which may not be answering). */
  disconnect(): Promise<void> {
    return this.queue.disconnect();
  }
}

export type ImportOutcome = ImportStatus & { status: 'completed' | 'failed' };

export interface FollowHandlers {
  /** Called once the job is in the queue. */
  onEnqueued(id: string): void;
  onProgress(progress: ImportProgress): void;
}

/**
 * Enqueues an import and follows it until it completes or fails for good. Events are subscribed
 * before the job is added, and the job's state is read once after, so no outcome is missed.
 * Reaching Redis and enqueueing take at most PROBE_TIMEOUT_MS together: past it, it rejects and
 * the job is not queued (Redis refuses the add if it gets it later).
 */
export async function enqueueAndFollow(settings: RedisSettings, options: ImportOptions, handlers: FollowHandlers): Promise<ImportOutcome> {
  const answerBy = performance.now() + PROBE_TIMEOUT_MS;
  await probeRedis(settings);
  const inTime = <T>(work: Promise<T>) =>
    withTimeout(
      work,
      answerBy - performance.now(),
      `cannot reach Redis at ${redactedUrl(settings.url)} (WAYMARK_REDIS_URL): no answer within ${PROBE_TIMEOUT_MS / 1000} s; the import was not queued`,
    );
  let jobId: string | undefined;
  let fail: (error: unknown) => void = () => {};
  // Following stops at the first connection error (the job itself goes on), rather than wait for Redis forever.
  const lost = (error: Error) =>
    fail(
      new Error(`lost the connection to Redis (${error.message})${jobId ? `; import job ${jobId} goes on without being followed` : ''}`),
    );
  const events = new QueueEvents(IMPORT_QUEUE_NAME, { connection: redisConnection(settings), prefix: settings.prefix });
  events.on('error', lost);
  const queue = new ImportQueue(settings, lost);
  let failed = false;
  try {
    await inTime(events.waitUntilReady());
    let settle: (outcome: ImportOutcome) => void = () => {};
    const outcome = new Promise<ImportOutcome>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const settleIfFinished = async (): Promise<void> => {
      const status = await queue.status(jobId!, options.dataDir);
      if (!status) throw new Error(`import job ${jobId} disappeared from the queue`);
      if (status.status === 'completed' || status.status === 'failed') settle(status as ImportOutcome);
    };
    const check = () => void settleIfFinished().catch(fail);
    events.on('progress', ({ jobId: id, data }) => {
      if (id === jobId && isProgress(data)) handlers.onProgress(data);
    });
    // BullMQ emits `failed` only once no attempt is left (a retry is `delayed`, then `waiting`).
    for (const event of ['completed', 'failed'] as const) {
      events.on(event, (args: { jobId: string }) => {
        if (args.jobId === jobId) check();
      });
    }
    const job = await inTime(queue.enqueue(options, answerBy));
    jobId = job.id!;
    handlers.onEnqueued(jobId);
    await settleIfFinished();
    return await outcome;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // Closing waits for Redis to answer QUIT; after a failure (Redis silent or gone) the connections are dropped at once.
    if (failed) await Promise.allSettled([events.disconnect(), queue.disconnect()]);
    else await Promise.allSettled([events.close(), queue.close()]);
  }
}
