/**
 * The two control stores a black-box test runs a server on: the embedded SQLite file, and Redis
 * under a key prefix of the test's own, deleted when the test ends.
 */
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import type { RedisSettings } from '../../core/redis-settings.js';
import { deleteKeys, REDIS_URL, TEST_PREFIX_ROOT } from './queue.js';

export type StoreKind = 'sqlite' | 'redis';
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'redis'];

/** The `redis` option of a test server of that kind (undefined: SQLite). */
export function redisFor(t: ExecutionContext, kind: StoreKind): RedisSettings | undefined {
  if (kind === 'sqlite') return undefined;
  const redis = { url: REDIS_URL, prefix: `${TEST_PREFIX_ROOT}-store-${randomBytes(4).toString('hex')}` };
  t.teardown(() => deleteKeys(`${redis.prefix}:*`).then(() => undefined));
  return redis;
}
