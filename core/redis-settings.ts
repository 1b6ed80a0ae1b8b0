/**
 * Whether and where the process uses Redis: `WAYMARK_REDIS_URL` and `WAYMARK_REDIS_PREFIX`. Apart
 * from the clients (redis.ts), so that what only asks (the CLI's commands on the embedded SQLite
 * store) does not load ioredis.
 */
import { setting } from './config.js';

export interface RedisSettings {
  /** `redis://[user:password@]host:port[/db]`, `rediss://…` or `redis+sentinel://…` (redis-url.ts) */
  url: string;
  /** Prefix of every key (BullMQ's `prefix` for the queue); lets several deployments share one Redis. */
  prefix: string;
}

/** The Redis settings of the environment, or null when `WAYMARK_REDIS_URL` is not set (embedded mode). */
export function redisSettingsFromEnv(): RedisSettings | null {
  const url = setting('redisUrl');
  return url === undefined ? null : { url, prefix: setting('redisPrefix') };
}
