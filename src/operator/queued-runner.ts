/**
 * Imports through the BullMQ queue (with `WAYMARK_REDIS_URL`): `waymark worker` processes for this
 * server's data folder run them; status comes from the jobs in Redis. The queue is connected on
 * first use, and an unreachable or silent Redis is a 503, not a request that hangs.
 */
import { ImportQueue } from '../../data-pipeline/queue/client.js';
import { statusOfJob, type ImportStatus } from '../../data-pipeline/queue/job.js';
import { probeRedis, withTimeout, type RedisSettings } from '../../core/redis.js';
import { redactedUrl } from '../../core/redis-url.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../observability/logger.js';
import type { ImportRequest } from './import-request.js';
import { RECENT_IMPORTS, type ImportRunner } from './runner.js';

const CALL_TIMEOUT_MS = 5000;

export class QueuedImports implements ImportRunner {
  private queue: ImportQueue | undefined;

  constructor(
    private readonly settings: RedisSettings,
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  private async call<T>(work: (queue: ImportQueue) => Promise<T>): Promise<T> {
    try {
      if (!this.queue) {
        await probeRedis(this.settings);
        this.queue ??= new ImportQueue(this.settings, (error) =>
          this.logger.warn({ err: error }, 'import queue: Redis connection error; reconnecting'),
        );
      }
      const answer = work(this.queue);
      return await withTimeout(
        answer,
        CALL_TIMEOUT_MS,
        `Redis at ${redactedUrl(this.settings.url)} did not answer within ${CALL_TIMEOUT_MS / 1000} s`,
      );
    } catch (error) {
      this.logger.error({ err: error }, 'import queue unavailable');
      throw new ApiError(503, `the import queue is unavailable: ${(error as Error).message}; try again later`);
    }
  }

  async start(request: ImportRequest): Promise<ImportStatus> {
    const job = await this.call((queue) => queue.enqueue({ dataDir: this.dataDir, ...request }));
    return statusOfJob(job, 'waiting');
  }

  status(id: string): Promise<ImportStatus | null> {
    return this.call((queue) => queue.status(id, this.dataDir));
  }

  recent(): Promise<ImportStatus[]> {
    return this.call((queue) => queue.recent(this.dataDir, RECENT_IMPORTS));
  }

  async close(): Promise<void> {
    await this.queue?.close();
  }
}
