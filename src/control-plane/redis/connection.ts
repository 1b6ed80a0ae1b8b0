/** Connections to the control plane's Redis, and how their failures surface. */
import type { Redis } from 'ioredis';
import { setting } from '../../../core/config.js';
import { redisClient } from '../../../core/redis.js';
import type { RedisSettings } from '../../../core/redis-settings.js';
import { redactedUrl } from '../../../core/redis-url.js';
import { StoreUnavailable } from '../store.js';
import { timedClient } from './command-timeout.js';

const CONNECT_TIMEOUT_MS = 5000;
const MAX_RECONNECT_DELAY_MS = 2000;
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);

/**
 * The connection for commands: auto-pipelined for throughput; while disconnected, commands fail at
 * once (no offline queue, no retries) so that requests get a 503 instead of waiting. A command
 * waits for its reply at most WAYMARK_REDIS_COMMAND_TIMEOUT_MS of the time this process could have
 * read it (command-timeout.ts); a hung server then reads as down. It reconnects by itself, backing
 * off up to two seconds.
 */
export function commandConnection(settings: RedisSettings): Redis {
  return withQuietErrors(
    timedClient(
      settings,
      {
        lazyConnect: true,
        enableAutoPipelining: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: CONNECT_TIMEOUT_MS,
        retryStrategy: reconnectDelay,
      },
      setting('redisCommandTimeoutMs'),
    ),
  );
}

/** The connection that listens for changes; ioredis subscribes it again after a reconnect. */
export function subscriberConnection(settings: RedisSettings): Redis {
  return withQuietErrors(
    redisClient(settings, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: reconnectDelay,
    }),
  );
}

/** Connection errors show as StoreUnavailable and `directory.unavailable()`; the events themselves need no log line each retry. */
function withQuietErrors(client: Redis): Redis {
  client.on('error', () => {});
  return client;
}

/**
 * Replies that mean the server cannot serve right now rather than that a command is wrong: among
 * them a demoted primary's READONLY during a Sentinel failover, and NOREPLICAS from a primary set
 * to refuse writes without enough replicas (`min-replicas-to-write`).
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|NOREPLICAS)\b/;

/** A Redis failure as the store reports it: StoreUnavailable unless it is a command's own error (a bug). */
export function storeError(error: unknown, settings: RedisSettings): Error {
  if (error instanceof Error && error.name === 'ReplyError' && !TRANSIENT_REPLY.test(error.message)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailable(`the control-plane Redis at ${redactedUrl(settings.url)} is unavailable: ${reason}`);
}
