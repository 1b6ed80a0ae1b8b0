/**
 * The time limit of a control-plane Redis command (src/control-plane/redis/command-timeout.ts), on
 * the Redis store's quota leases against a real Redis: a node whose event loop is held up past the
 * limit (as answering a crowd of requests in one go does, or a machine loaded beyond its cores)
 * while Redis grants its block serves from the block; a grant Redis runs only after the limit
 * (Redis paused) refuses its request, and its block goes back to the quota at the next report
 * rather than lapsing as lost.
 */
import test from 'ava';
import { Redis } from 'ioredis';
import { spawnSync } from 'node:child_process';
import { StoreUnavailable } from '../src/control-plane/store.js';
import { monthCounters, ownRedis } from './helpers/cluster.js';
import { REDIS_URL, tempDir } from './helpers/queue.js';
import { storeWithKey } from './helpers/redis-store.js';
import { WAIT_CEILING_MS, within } from './helpers/waits.js';

const TIMEOUT_MS = 200;
// Read when a store opens its connection; the test configuration's 20 s would make the tests slow.
process.env.WAYMARK_REDIS_COMMAND_TIMEOUT_MS = String(TIMEOUT_MS);

/**
 * Holds the event loop, from the check phase on, for at least `ms` and until `done()`: the next
 * turn of the loop runs due timers before it reads sockets, as after any long stretch of work.
 */
function holdLoop(ms: number, done: () => boolean): Promise<void> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      const start = performance.now();
      while (performance.now() - start < ms);
      while (!done()) if (performance.now() - start > WAIT_CEILING_MS) return reject(new Error('the grant never ran in Redis'));
      resolve();
    }),
  );
}

test('a node held up past the time limit while Redis grants its block serves from the block: the reply is read before the limit is judged', async (t) => {
  const s = await storeWithKey(t, REDIS_URL);
  await s.serveOne('geocoding');

  const pending = s.store.ledger.reserve(s.request('maps'));
  t.true(pending instanceof Promise, 'the first reservation of a pool waits for a block');
  // Redis has run the grant (and so written its reply) once the block shows as leased.
  const granted = () =>
    Number(spawnSync('redis-cli', ['-u', REDIS_URL, 'HGET', s.usageKey, 'leased:maps'], { encoding: 'utf8' }).stdout) > 0;
  await holdLoop(2 * TIMEOUT_MS, granted);
  const reservation = await pending;
  t.true(reservation.granted);
  s.store.ledger.commit(reservation);

  await s.store.close();
  t.deepEqual(
    await monthCounters({ redisUrl: REDIS_URL }, s.usageKey),
    { served: 1, leased: 0, lost: 0 },
    'the block was used and given back',
  );
});

test('a grant Redis runs only after the time limit: the request is refused as Redis unavailable, and the block goes back to the quota at the next report', async (t) => {
  const redis = await ownRedis(t, tempDir(t, 'timeout-redis'));
  const s = await storeWithKey(t, redis.url);
  await s.serveOne('geocoding');
  const control = new Redis(redis.url);
  t.teardown(() => control.disconnect());

  // Writes, and so every lease script, wait while Redis is paused; reads do not.
  await control.call('CLIENT', 'PAUSE', String(WAIT_CEILING_MS), 'WRITE');
  await t.throwsAsync(async () => s.store.ledger.reserve(s.request('maps')), { instanceOf: StoreUnavailable });
  await control.call('CLIENT', 'UNPAUSE');
  // Redis runs the grant after all: the maps lease joins the geocoding one.
  await within('Redis runs the grant', async () => ((await control.keys(`${s.names.leasePrefix}*`)).length === 2 ? true : undefined));

  await s.store.flush();
  t.deepEqual(await monthCounters({ redisUrl: redis.url }, s.usageKey), { served: 0, leased: 0, lost: 0 });
});
