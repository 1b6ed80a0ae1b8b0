/**
 * The consumer's side of the import queue (`waymark worker`): one job at a time, only for the data
 * folder the worker was started with, running the pipeline's `runImport` with progress forwarded
 * to the job. A failure that a retry cannot fix fails the job at once; a data folder being imported
 * into (its Redis folder lock or the pipeline's import lock taken) delays the job instead of
 * running a second import beside the first.
 */
import { DelayedError, UnrecoverableError, Worker, type Processor } from 'bullmq';
import type { Logger } from 'pino';
import { isBadInput, isLockTaken, runImport } from '../index.js';
import { FolderLock } from './folder-lock.js';
import type { ImportJob, ImportJobData, ImportProgress, ImportResult } from './job.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { redisConnection } from './connection.js';
import { DEFAULT_JOB_LOCK_MS, IMPORT_QUEUE_NAME } from './settings.js';
import { throttleProgress } from './throttle.js';

/** How long a job waits before it tries again a data folder another import holds. */
export const LOCKED_RETRY_MS = 15_000;
/** BullMQ's default interval of the check for stalled jobs; shorter job locks check more often. */
const MAX_STALLED_CHECK_MS = 30_000;

/** How the worker holds its jobs. */
export interface WorkerOptions {
  /** The job lock's duration in ms (DEFAULT_JOB_LOCK_MS unless given). */
  jobLockMs?: number;
}

/** Runs one job. */
function importProcessor(dataDir: string, folderLock: FolderLock, logger: Logger): Processor<ImportJobData, ImportResult> {
  const later = async (job: ImportJob, token: string | undefined, holder: string): Promise<never> => {
    logger.info(
      { jobId: job.id, requestId: job.data.requestId, importing: holder, retryInMs: LOCKED_RETRY_MS },
      'another import runs on this data folder; job delayed',
    );
    await job.moveToDelayed(Date.now() + LOCKED_RETRY_MS, token);
    throw new DelayedError();
  };
  return async (job, token, signal) => {
    const { requestId: _requestId, dataDir: _dataDir, ...inputs } = job.data;
    if (job.data.dataDir !== dataDir) {
      throw new UnrecoverableError(
        `this job imports into ${job.data.dataDir}, but the worker that took it serves ${dataDir}; ` +
          'run the workers of each data folder on their own queue (WAYMARK_REDIS_PREFIX)',
      );
    }
    let updates = Promise.resolve();
    const report = throttleProgress((progress: ImportProgress) => {
      updates = updates
        .then(() => job.updateProgress(progress))
        .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, 'cannot record import progress'));
    });
    const holder = job.id!;
    const otherJob = await folderLock.acquire(holder);
    if (otherJob !== null) return later(job, token, `job ${otherJob}`);
    try {
      return await folderLock.hold(holder, () => runImport({ dataDir, ...inputs, resume: true }, report, signal));
    } catch (error) {
      if (isLockTaken(error)) return later(job, token, (error as Error).message);
      if (isBadInput(error)) throw new UnrecoverableError((error as Error).message);
      throw error;
    } finally {
      await updates;
    }
  };
}

export function startImportWorker(
  settings: RedisSettings,
  dataDir: string,
  logger: Logger,
  { jobLockMs = DEFAULT_JOB_LOCK_MS }: WorkerOptions = {},
): Worker<ImportJobData, ImportResult> {
  const folderLock = new FolderLock(settings, dataDir);
  const worker = new Worker<ImportJobData, ImportResult>(IMPORT_QUEUE_NAME, importProcessor(dataDir, folderLock, logger), {
    connection: redisConnection(settings),
    prefix: settings.prefix,
    concurrency: 1,
    lockDuration: jobLockMs,
    // A lapsed lock is noticed by the next check (one that saw the job active before): at most about
    // jobLockMs + 2 checks after the worker holding it died.
    stalledInterval: Math.min(MAX_STALLED_CHECK_MS, Math.round(jobLockMs / 2)),
  });
  worker.on('active', (job) =>
    logger.info({ jobId: job.id, osm: job.data.osm, world: job.data.world, attempt: job.attemptsMade + 1 }, 'import started'),
  );
  worker.on('completed', (job, result) =>
    logger.info({ jobId: job.id, dataset: result.datasetId, tiles: result.tiles, seconds: result.seconds }, 'import completed'),
  );
  worker.on('failed', (job, error) => {
    const willRetry = !!job && !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    logger.error({ jobId: job?.id, reason: error.message, willRetry }, 'import failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'queue connection error; retrying'));
  worker.on('closed', () => void folderLock.close());
  return worker;
}
