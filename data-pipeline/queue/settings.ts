/**
 * How the BullMQ import queue behaves: its name, retries and retention; its connection is
 * connection.ts. Where Redis is (the URL and key prefix) is the process's setting:
 * core/redis-settings.ts.
 */
import type { DefaultJobOptions } from 'bullmq';

export const IMPORT_QUEUE_NAME = 'waymark-import';

/**
 * A worker holds a job's lock for this long and renews it halfway; a job whose lock lapses is taken
 * as stalled and run again by another worker. Generous by default, so a CPU-heavy stretch of an
 * import never looks like a crash; WAYMARK_JOB_LOCK_MS shortens it (see src/cli/worker.ts).
 */
export const DEFAULT_JOB_LOCK_MS = 120_000;

/** Jobs that finished are kept for inspection (`GET /operator/imports`), up to this many of each outcome. */
export const KEEP_FINISHED_JOBS = 100;

/**
 * Every import job: a second attempt after a failure that might pass (Redis hiccup, disk full, a
 * download that broke off), 30 s later; failures that cannot pass on retry are marked unrecoverable
 * by the worker and fail at once.
 */
export const IMPORT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 2,
  backoff: { type: 'exponential', delay: 30_000 },
  removeOnComplete: { count: KEEP_FINISHED_JOBS },
  removeOnFail: { count: KEEP_FINISHED_JOBS },
};
