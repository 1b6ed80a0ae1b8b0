/**
 * `waymark worker`: consumes the BullMQ import queue (WAYMARK_REDIS_URL) for the data folder it is
 * started with, logging JSON lines, until SIGINT or SIGTERM: the first signal stops taking jobs and
 * lets a running import finish, a second one aborts it (the job is retried later). With
 * WAYMARK_WORKER_URL it also serves its datasets to nodes without a shared folder (src/cluster/dataset-offer.ts).
 */
import { probeRedis } from '../../core/redis.js';
import { redactedUrl } from '../../core/redis-url.js';
import { DEFAULT_JOB_LOCK_MS } from '../../data-pipeline/queue/settings.js';
import { startImportWorker } from '../../data-pipeline/queue/worker.js';
import { startDatasetOffers, type OfferSettings } from '../cluster/dataset-offer.js';
import { createLogging } from '../observability/logger.js';
import { readSettings, setting } from '../../core/config.js';
import { UsageError, type CommandRun } from './command.js';
import { requireRedis } from './queue-redis.js';

/** Where this worker offers its datasets (WAYMARK_WORKER_URL, WAYMARK_WORKER_HOST), or null when it does not. */
function offerSettings(): OfferSettings | null {
  const { workerUrl: url, workerHost: host, operatorToken: token } = readSettings();
  if (!url) return null;
  if (!token)
    throw new UsageError('WAYMARK_WORKER_URL needs WAYMARK_OPERATOR_TOKEN: datasets are only served to holders of the operator token');
  return { url, host, token };
}

export const run: CommandRun = async (input) => {
  const settings = requireRedis('waymark worker');
  const offering = offerSettings();
  // WAYMARK_JOB_LOCK_MS: how long a job's lock outlives a worker that stopped renewing it (a crash).
  const jobLockMs = setting('jobLockMs') ?? DEFAULT_JOB_LOCK_MS;
  await probeRedis(settings);
  const { logger } = createLogging();
  const offers = offering && (await startDatasetOffers(settings, input.dataDir, offering, logger));
  const importWorker = startImportWorker(settings, input.dataDir, logger, { jobLockMs });
  if (offers) importWorker.on('completed', (_job, result) => void offers.offerDataset(result.datasetId));
  logger.info(
    { dataDir: input.dataDir, redis: redactedUrl(settings.url), prefix: settings.prefix, jobLockMs },
    'worker waiting for import jobs',
  );
  await new Promise<void>((resolve) => {
    let signals = 0;
    const stop = (signal: NodeJS.Signals) => {
      if (++signals === 1) {
        logger.info({ signal }, 'stopping: no new jobs; a running import finishes first (send the signal again to abort it)');
        importWorker
          .close()
          .then(() => offers?.close())
          .then(resolve, resolve);
      } else {
        logger.warn({ signal }, 'aborting the running import');
        importWorker.cancelAllJobs('the worker was stopped');
      }
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Its stdout is JSON lines (the logs), so the outcome is one as well.
  const stopped = { stopped: true, dataDir: input.dataDir };
  return { text: JSON.stringify(stopped), json: stopped };
};
