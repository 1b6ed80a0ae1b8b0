/**
 * The API nodes of a cluster announce themselves in Redis (a hash `<prefix>:nodes`, one JSON field
 * per node) every few seconds, so `waymark status` can list them and tell the silent ones.
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

/** How often a node rewrites its record. */
export const NODE_HEARTBEAT_MS = 5000;
/** A node silent for this long is reported down. */
export const NODE_SILENT_AFTER_MS = 3 * NODE_HEARTBEAT_MS;
/** A node silent for this long is forgotten (removed from the hash when listed). */
const NODE_FORGOTTEN_AFTER_MS = 10 * 60_000;

export interface NodeRecord {
  id: string;
  /** Where other machines reach the node (src/cluster/address.ts: WAYMARK_NODE_URL, or its listening address). */
  url: string;
  host: string;
  pid: number;
  startedAt: string;
  lastSeen: string;
  /** The dataset it serves, or null before the first import. */
  dataset: string | null;
}

export interface ListedNode extends NodeRecord {
  up: boolean;
}

const nodesKey = (prefix: string) => `${prefix}:nodes`;

/**
 * Writes this node's record now and every NODE_HEARTBEAT_MS (failures are skipped: Redis being away
 * is reported elsewhere); the returned function stops and removes the record.
 */
export function announceNode(
  redis: Redis,
  prefix: string,
  node: { id: string; url: string; dataset: () => string | null },
): () => Promise<void> {
  const startedAt = new Date().toISOString();
  const write = () =>
    redis
      .hset(
        nodesKey(prefix),
        node.id,
        JSON.stringify({
          id: node.id,
          url: node.url,
          host: hostname(),
          pid: process.pid,
          startedAt,
          lastSeen: new Date().toISOString(),
          dataset: node.dataset(),
        } satisfies NodeRecord),
      )
      .catch(() => undefined);
  void write();
  const timer = setInterval(write, NODE_HEARTBEAT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.hdel(nodesKey(prefix), node.id).catch(() => undefined);
  };
}

/** The nodes that announced themselves, oldest start first; long-silent ones are removed. */
export async function listNodes(redis: Redis, prefix: string, now = Date.now()): Promise<ListedNode[]> {
  const fields = await redis.hgetall(nodesKey(prefix));
  const nodes: ListedNode[] = [];
  for (const [id, json] of Object.entries(fields)) {
    const record = JSON.parse(json) as NodeRecord;
    const silentMs = now - Date.parse(record.lastSeen);
    if (silentMs > NODE_FORGOTTEN_AFTER_MS) await redis.hdel(nodesKey(prefix), id);
    else nodes.push({ ...record, up: silentMs <= NODE_SILENT_AFTER_MS });
  }
  return nodes.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
