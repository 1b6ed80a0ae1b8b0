/**
 * Where the BullMQ import queue lives and how its jobs behave: the Redis URL and key prefix (from
 * `WAYMARK_REDIS_URL` and `WAYMARK_REDIS_PREFIX`), the queue's name, retries and retention.
 */
import type { ConnectionOptions, DefaultJobOptions } from 'bullmq';
import { Redis } from 'ioredis';

export const IMPORT_QUEUE_NAME = 'waymark-import';

export interface RedisSettings {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` */
  url: string;
  /** Prefix of every key of the queue (BullMQ's `prefix`); lets several deployments share one Redis. */
  prefix: string;
}

export const DEFAULT_REDIS_PREFIX = 'waymark';

/** The Redis settings of the environment, or null when `WAYMARK_REDIS_URL` is not set (embedded mode). */
export function redisSettingsFromEnv(): RedisSettings | null {
  const url = process.env.WAYMARK_REDIS_URL?.trim();
  if (!url) return null;
  if (!/^rediss?:\/\/[^/]/.test(url)) {
    throw new Error(`WAYMARK_REDIS_URL must be a redis:// or rediss:// URL, not ${JSON.stringify(url)}`);
  }
  return { url, prefix: process.env.WAYMARK_REDIS_PREFIX?.trim() || DEFAULT_REDIS_PREFIX };
}

/** ioredis options for BullMQ, which requires `maxRetriesPerRequest: null` (its blocking commands wait indefinitely). */
export function redisConnection(settings: RedisSettings): ConnectionOptions {
  return { url: settings.url, maxRetriesPerRequest: null };
}

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

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** Settles like `work`, or rejects with `message` once `ms` have passed (Redis calls otherwise wait while it is away). */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Connects once and pings, then disconnects: rejects with one clear line when Redis cannot be
 * reached. Run it before creating BullMQ clients, which would otherwise wait (and retry) forever.
 */
export async function probeRedis(settings: RedisSettings): Promise<void> {
  const client = new Redis(settings.url, { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | undefined; // The socket's error (ECONNREFUSED…); connect() only says the connection closed.
  client.on('error', (error: Error) => void (cause ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(`cannot reach Redis at ${redactedUrl(settings.url)} (WAYMARK_REDIS_URL): ${(cause ?? (error as Error)).message}`);
  } finally {
    client.disconnect();
  }
}
