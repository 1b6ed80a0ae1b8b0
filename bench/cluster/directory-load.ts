/**
 * How a node's start (and its reload after a Redis reconnect, when keys answer 503 until it ends)
 * grows with the customer base: N keys in N/10 organizations written under a fresh key prefix of
 * the machine's Redis, then `RedisStore.open` timed (the directory's full load) with the heap it
 * takes. The prefix is deleted after each size.
 *
 *   node --expose-gc dist/bench/cluster/directory-load.js [N …]   (default 1000 10000 100000)
 */
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/control-plane/redis/index.js';
import { controlKeys } from '../../src/control-plane/redis/keys.js';
import { keyFields, orgFields } from '../../src/control-plane/redis/records.js';

const REDIS_URL = process.env.WAYMARK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BATCH = 5000;

async function writeCustomers(client: Redis, prefix: string, keys: number): Promise<number> {
  const names = controlKeys(prefix);
  const orgs = Math.max(1, Math.floor(keys / 10));
  let batch = client.pipeline();
  for (let o = 0; o < orgs; o++) {
    const id = `org_${o}`;
    batch
      .hset(
        names.org(id),
        orgFields({ id, name: `org ${o}`, tier: 'pro', customQuotas: {}, customPerMinute: {}, createdAt: '2026-11-01T00:00:00Z' }),
      )
      .sadd(names.orgs, id);
  }
  for (let k = 0; k < keys; k++) {
    const hash = k.toString(16).padStart(64, '0');
    const key = {
      id: `key_${k}`,
      orgId: `org_${k % orgs}`,
      name: 'bench',
      hint: 'wmk_…',
      hash,
      scopes: ['maps' as const],
      status: 'active' as const,
      createdBy: null,
      allowedOrigins: [],
      allowedIps: [],
      expiresAt: null,
      perMinute: {},
      previousHash: null,
      previousHashExpiresAt: null,
      createdAt: '2026-11-01T00:00:00Z',
      lastUsedAt: null,
      revokedAt: null,
    };
    batch.hset(names.key(hash), keyFields(key)).sadd(names.keys, hash);
    if (k % BATCH === BATCH - 1) {
      await batch.exec();
      batch = client.pipeline();
    }
  }
  await batch.exec();
  return orgs;
}

async function deletePrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', BATCH);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

const heapMiB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const sizes = process.argv.slice(2).map(Number);
const client = new Redis(REDIS_URL);
for (const keys of sizes.length > 0 ? sizes : [1000, 10_000, 100_000]) {
  const prefix = `waymark-bench-directory-${process.pid}-${keys}`;
  try {
    const orgs = await writeCustomers(client, prefix, keys);
    const heapBefore = heapMiB();
    const started = performance.now();
    const store = await RedisStore.open({ url: REDIS_URL, prefix });
    const ms = performance.now() - started;
    console.log(
      `${keys} keys, ${orgs} organizations: directory loaded in ${ms.toFixed(0)} ms, ${(heapMiB() - heapBefore).toFixed(1)} MiB of heap`,
    );
    await store.close();
  } finally {
    await deletePrefix(client, prefix);
  }
}
client.disconnect();
