/**
 * `waymark worker`: consumes the BullMQ import queue (WAYMARK_REDIS_URL) for the data folder it is
 * started with, logging JSON lines, until SIGINT or SIGTERM: the first signal stops taking jobs and
 * lets a running import finish, a second one aborts it (the job is retried later).
 */
import { probeRedis, redactedUrl } from '../../data-pipeline/queue/settings.js';
import { startImportWorker } from '../../data-pipeline/queue/worker.js';
import { createLogging } from '../observability/logger.js';
import type { Command } from './command.js';
import { requireRedis } from './queue-redis.js';

export const worker: Command = {
  name: 'worker',
  summary:
    'Runs import jobs from the BullMQ queue on WAYMARK_REDIS_URL (key prefix WAYMARK_REDIS_PREFIX, default "waymark"), one at a ' +
    'time, into the data folder; jobs for another data folder fail. Stops on SIGINT/SIGTERM once the running import ' +
    'has finished (a second signal aborts it; the job is tried again later), then exits 0.',
  synopsis: '',
  flags: [],
  async run(input) {
    const settings = requireRedis('waymark worker');
    await probeRedis(settings);
    const { logger } = createLogging();
    const importWorker = startImportWorker(settings, input.dataDir, logger);
    logger.info({ dataDir: input.dataDir, redis: redactedUrl(settings.url), prefix: settings.prefix }, 'worker waiting for import jobs');
    await new Promise<void>((resolve) => {
      let signals = 0;
      const stop = (signal: NodeJS.Signals) => {
        if (++signals === 1) {
          logger.info({ signal }, 'stopping: no new jobs; a running import finishes first (send the signal again to abort it)');
          importWorker.close().then(resolve, resolve);
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
  },
};
