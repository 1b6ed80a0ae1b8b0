/**
 * What an API node does in a cluster (WAYMARK_REDIS_URL set), besides using the Redis store:
 * warns when Redis is not set up to keep its counts, announces itself for `waymark status`, and
 * (with the operator token, which downloads need) follows the datasets the workers offer, so a
 * node without a shared folder fetches each new dataset from the worker that built it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { RedisSettings } from '../../core/redis-settings.js';
import { checkRedisDurability } from '../control-plane/redis/durability.js';
import { followDatasetOffers } from './dataset-follow.js';
import type { DatasetHolder } from '../dataset/index.js';
import type { Logger } from '../observability/logger.js';
import { advertisedUrl } from './address.js';
import { announceNode } from './registry.js';

export interface ClusterMembership {
  nodeId: string;
  leave(): Promise<void>;
}

export interface NodeSettings {
  /** Where the node answers on this machine (http://host:port). */
  url: string;
  /** The address it listens on (0.0.0.0: every interface); `waymark status` shows advertisedUrl() of it. */
  listenHost?: string;
  dataDir: string;
  datasets: DatasetHolder;
  /** The operator token; without it the node does not follow dataset offers. */
  operatorToken: string | undefined;
  logger: Logger;
}

/** `redis`: the store's command connection (RedisStore.redis), which the node's announcements share. */
export async function joinCluster(settings: RedisSettings, redis: Redis, node: NodeSettings): Promise<ClusterMembership> {
  for (const warning of await checkRedisDurability(redis)) node.logger.warn({ redis: settings.prefix }, warning);
  const nodeId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const listening = new URL(node.url);
  const url = advertisedUrl(node.listenHost ?? listening.hostname.replace(/^\[|\]$/g, ''), Number(listening.port));
  const stopAnnouncing = announceNode(redis, settings.prefix, { id: nodeId, url, dataset: () => node.datasets.current()?.id ?? null });
  const follower =
    node.operatorToken === undefined
      ? null
      : await followDatasetOffers(settings, node.dataDir, {
          token: node.operatorToken,
          logger: node.logger,
          onSwitched: () => node.datasets.reload(),
        });
  return {
    nodeId,
    async leave() {
      await follower?.close();
      await stopAnnouncing();
    },
  };
}
