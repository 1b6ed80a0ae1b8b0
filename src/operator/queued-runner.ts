/**
 * Imports through the BullMQ queue (with `WAYMARK_REDIS_URL`): `waymark worker` processes for this
 * server's data folder run them; status comes from the jobs in Redis. The queue is connected on
 * first use, and an unreachable or silent Redis is a 503 within `WAYMARK_OPERATOR_TIMEOUT_MS` (5 s),
 * not a request that hangs; an import whose 503 was sent is never enqueued after it (add-before.ts).
 */
import { ImportQueue } from '../../data-pipeline/queue/client.js';
import { statusOfJob, type ImportStatus } from '../../data-pipeline/queue/job.js';
import { probeRedis, withTimeout } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { redactedUrl } from '../../core/redis-url.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../observability/logger.js';
import type { ImportRequest } from './import-request.js';
import { RECENT_IMPORTS, type ImportRunner } from './runner.js';
import { setting } from '../../core/config.js';

export class QueuedImports implements ImportRunner {
  private queue: ImportQueue | undefined;
  /** The operator API answers within this (docs/OPERATIONS.md): 503 when Redis has not answered by then. */
  private readonly timeoutMs = setting('operatorTimeoutMs');

  constructor(
    private readonly settings: RedisSettings,
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs `work` on the queue, connecting it first (a probe of Redis, in the same time limit), and
   * answers 503 once `timeoutMs` have passed; `work` gets the time (`performance.now()`) the
   * 503 is due at.
   */
  private async call<T>(work: (queue: ImportQueue, answerBy: number) => Promise<T>): Promise<T> {
    const answerBy = performance.now() + this.timeoutMs;
    const connected = async () => {
      if (!this.queue) {
        await probeRedis(this.settings, this.timeoutMs);
        this.queue ??= new ImportQueue(this.settings, (error) =>
          this.logger.warn({ err: error }, 'import queue: Redis connection error; reconnecting'),
        );
      }
      return work(this.queue, answerBy);
    };
    try {
      return await withTimeout(
        connected(),
        this.timeoutMs,
        `Redis at ${redactedUrl(this.settings.url)} did not answer within ${this.timeoutMs / 1000} s`,
      );
    } catch (error) {
      this.logger.error({ err: error }, 'import queue unavailable');
      throw new ApiError(503, `the import queue is unavailable: ${(error as Error).message}; try again later`);
    }
  }

  async start(request: ImportRequest): Promise<ImportStatus> {
    const job = await this.call((queue, answerBy) => queue.enqueue({ dataDir: this.dataDir, ...request }, answerBy));
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
