/**
 * The process's Redis, whoever uses it (the control-plane store, the cluster, dataset offers, the
 * import queue): the clients of the settings' Redis (redis-settings.ts) — one Redis, or the primary
 * Sentinel names (redis-url.ts, redis-sentinel.ts) —, a one-shot reachability probe, and a time
 * limit for Redis calls.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisSettings } from './redis-settings.js';
import { sentinelOptions, type SentinelOptions } from './redis-sentinel.js';
import { isSentinelUrl, parseSentinelUrl, redactedUrl } from './redis-url.js';

/** Where the settings' Redis is, for a client that takes a URL or ioredis options (BullMQ): the redis(s):// URL as given, or Sentinel's options. */
export function redisTarget(settings: RedisSettings): { url: string } | SentinelOptions {
  return isSentinelUrl(settings.url) ? sentinelOptions(parseSentinelUrl(settings.url)) : { url: settings.url };
}

/** A client of the settings' Redis with `options` (timeouts, retries…); not connected yet unless ioredis connects at once. */
export function redisClient<Client extends Redis = Redis>(
  settings: RedisSettings,
  options: RedisOptions = {},
  Class: RedisClass<Client> = Redis as unknown as RedisClass<Client>,
): Client {
  const target = redisTarget(settings);
  return 'url' in target ? new Class(target.url, options) : new Class({ ...target, ...options });
}

/** Redis or a subclass of it with the same constructors. */
interface RedisClass<Client extends Redis> {
  new (url: string, options: RedisOptions): Client;
  new (options: RedisOptions): Client;
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

/** How long `probeRedis` waits for Redis by default: the commands' documented 10 s (docs/OPERATIONS.md). */
export const PROBE_TIMEOUT_MS = 10_000;

/**
 * Connects once and pings, then disconnects: rejects with one clear line when Redis cannot be
 * reached or does not answer within `ms` — connecting and the ping together, for a Redis that
 * accepts connections but does not answer (hung, stopped with SIGSTOP) never fails either. Run it
 * before creating BullMQ clients, which would otherwise wait (and retry) forever.
 */
export async function probeRedis(settings: RedisSettings, ms = PROBE_TIMEOUT_MS): Promise<void> {
  const client = redisClient(settings, {
    lazyConnect: true,
    connectTimeout: ms,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    // Once round the Sentinels: when none names a primary, that is the answer.
    sentinelRetryStrategy: () => null,
  });
  let cause: Error | undefined; // The socket's error (ECONNREFUSED…); connect() only says the connection closed.
  client.on('error', (error: Error) => void (cause ??= error));
  const ping = async () => {
    await client.connect();
    await client.ping();
  };
  try {
    await withTimeout(ping(), ms, `no answer within ${ms / 1000} s`);
  } catch (error) {
    throw new Error(`cannot reach Redis at ${redactedUrl(settings.url)} (WAYMARK_REDIS_URL): ${(cause ?? (error as Error)).message}`);
  } finally {
    client.disconnect();
  }
}
