/** The import queue's connection to Redis, as BullMQ takes it. */
import type { ConnectionOptions } from 'bullmq';
import { redisTarget } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';

/** ioredis options for BullMQ, which requires `maxRetriesPerRequest: null` (its blocking commands wait indefinitely). */
export function redisConnection(settings: RedisSettings): ConnectionOptions {
  return { ...redisTarget(settings), maxRetriesPerRequest: null };
}
