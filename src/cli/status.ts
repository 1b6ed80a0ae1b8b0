/** `waymark status`: the cluster on WAYMARK_REDIS_URL — Redis health, the API nodes, the import workers and the queue. */
import { Queue } from 'bullmq';
import { probeRedis, redisClient } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { redactedUrl } from '../../core/redis-url.js';
import { redisConnection } from '../../data-pipeline/queue/connection.js';
import { IMPORT_QUEUE_NAME } from '../../data-pipeline/queue/settings.js';
import { listNodes, type ListedNode } from '../cluster/registry.js';
import { checkRedisDurability } from '../control-plane/redis/durability.js';
import type { CommandRun } from './command.js';
import { formatInstant, formatTable } from './output.js';
import { requireRedis } from './queue-redis.js';

const JOB_STATES = ['active', 'waiting', 'delayed', 'completed', 'failed'] as const;

interface ClusterStatus {
  redis: {
    url: string;
    /** The server the commands went to (host:port): with Sentinel, the primary it names now. */
    primary: string;
    /** Replicas connected to it: none, and there is nothing to fail over to. */
    replicas: number;
    version: string;
    pingMs: number;
    usedMemory: string;
    warnings: string[];
  };
  nodes: ListedNode[];
  workers: { name: string; address: string }[];
  queue: Record<(typeof JOB_STATES)[number], number>;
}

/** One field of an INFO section (`field:value` lines). */
const infoField = (info: string, field: string) => new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '?';

async function clusterStatus(settings: RedisSettings): Promise<ClusterStatus> {
  const redis = redisClient(settings, { maxRetriesPerRequest: 1 });
  const queue = new Queue(IMPORT_QUEUE_NAME, { connection: redisConnection(settings), prefix: settings.prefix });
  try {
    const started = performance.now();
    await redis.ping();
    const pingMs = performance.now() - started;
    const [server, memory, replication, warnings, nodes, workers, counts] = await Promise.all([
      redis.info('server'),
      redis.info('memory'),
      redis.info('replication'),
      checkRedisDurability(redis),
      listNodes(redis, settings.prefix),
      queue.getWorkers(),
      queue.getJobCounts(...JOB_STATES),
    ]);
    return {
      redis: {
        url: redactedUrl(settings.url),
        primary: `${redis.stream.remoteAddress}:${redis.stream.remotePort}`,
        replicas: Number(infoField(replication, 'connected_slaves')),
        version: infoField(server, 'redis_version'),
        pingMs,
        usedMemory: infoField(memory, 'used_memory_human'),
        warnings,
      },
      nodes,
      workers: workers.map((w) => ({ name: w.name ?? '', address: w.addr ?? '' })),
      queue: Object.fromEntries(JOB_STATES.map((state) => [state, counts[state] ?? 0])) as ClusterStatus['queue'],
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

function statusText(status: ClusterStatus): string {
  const { redis, nodes, workers, queue } = status;
  const lines = [
    `Redis ${redis.url}: primary ${redis.primary} with ${redis.replicas} ${redis.replicas === 1 ? 'replica' : 'replicas'}, ` +
      `version ${redis.version}, ping ${redis.pingMs.toFixed(1)} ms, ${redis.usedMemory} used`,
    ...redis.warnings.map((warning) => `  warning: ${warning}`),
    '',
    nodes.length === 0
      ? 'No API nodes have announced themselves.'
      : formatTable(
          ['NODE', 'STATE', 'URL', 'HOST', 'PID', 'DATASET', 'STARTED', 'LAST SEEN'],
          nodes.map((n) => [
            n.id,
            n.up ? 'up' : 'silent',
            n.url,
            n.host,
            String(n.pid),
            n.dataset ?? '-',
            formatInstant(n.startedAt),
            formatInstant(n.lastSeen),
          ]),
        ),
    '',
    workers.length === 0
      ? 'No import workers are connected.'
      : formatTable(
          ['WORKER', 'ADDRESS'],
          workers.map((w) => [w.name, w.address]),
        ),
    '',
    `Import queue: ${JOB_STATES.map((state) => `${queue[state]} ${state}`).join(', ')}`,
  ];
  return lines.join('\n');
}

export const run: CommandRun = async () => {
  const settings = requireRedis('waymark status');
  await probeRedis(settings);
  const found = await clusterStatus(settings);
  return { text: statusText(found), json: found };
};
