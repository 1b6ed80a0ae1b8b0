/**
 * A Redis control-plane store of a test's own: a fresh key prefix on a Redis (the machine's, or a
 * redis-server the test started), an organization with a key, and its quota ledger driven directly.
 * The store is closed and, on the machine's Redis, every key under the prefix deleted when the test ends.
 */
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { createKey } from '../../src/control-plane/accounts.js';
import { RedisStore } from '../../src/control-plane/redis/index.js';
import { controlKeys } from '../../src/control-plane/redis/keys.js';
import type { ReserveRequest } from '../../src/control-plane/store.js';
import type { Service } from '../../src/control-plane/types.js';
import { deleteKeys, REDIS_URL, TEST_PREFIX_ROOT } from './queue.js';

const MONTH = new Date().toISOString().slice(0, 7);

export async function storeWithKey(t: ExecutionContext, url = REDIS_URL) {
  const prefix = `${TEST_PREFIX_ROOT}-store-${randomBytes(3).toString('hex')}`;
  const store = await RedisStore.open({ url, prefix });
  t.teardown(async () => {
    await store.close().catch(() => {});
    if (url === REDIS_URL) await deleteKeys(`${prefix}:*`);
  });
  const { org } = await store.createUserWithOrg({ email: `${prefix}@example.com`, passwordHash: 'unused', orgName: prefix });
  const { key } = await createKey(store, org.id, { name: 'test', scopes: ['maps', 'geocoding'] }, Date.now());
  const names = controlKeys(prefix);
  /** A reservation of one unit of `service` this month, without a limit. */
  const request = (service: Service): ReserveRequest => ({
    org,
    key,
    service,
    month: MONTH,
    day: new Date().toISOString().slice(0, 10),
    limit: null,
    units: 1,
  });
  /** One unit served: the scripts are loaded in Redis after it, so that later grants are one round trip each. */
  const serveOne = async (service: Service) => {
    const reservation = await store.ledger.reserve(request(service));
    store.ledger.commit(reservation);
  };
  /** Another node on the same Redis and prefix (connections, directory and ledger of its own), closed when the test ends. */
  const anotherNode = async () => {
    const node = await RedisStore.open({ url, prefix });
    t.teardown(() => node.close().catch(() => {}));
    return node;
  };
  return { store, names, org, request, serveOne, anotherNode, usageKey: names.monthUsage(org.id, MONTH) };
}
