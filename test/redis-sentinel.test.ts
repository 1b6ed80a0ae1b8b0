/**
 * Issue 27: Redis high availability as operators run it — a primary, a replica and three Sentinels
 * (real redis-server and redis-sentinel processes, helpers/sentinel.ts) and two API nodes on the
 * redis+sentinel:// URL, tiles requested from both without pause. The primary is killed (a crash)
 * or switched over (`SENTINEL FAILOVER`, the old primary staying up); Sentinel promotes the
 * replica. Meanwhile every answer is the tile or PRODUCT.md's 503; then the nodes serve again by
 * themselves, keys and plans change on every node through the new primary, and usage counts every
 * success once (docs/OPERATIONS.md, "Redis with Sentinel", states the bound). The two scenarios
 * take turns on one group and the same two nodes, each with a customer of its own: the switchover
 * first, then the crash of the primary it made — the old primary, by then Sentinel's replica again.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisClient } from '../core/redis.js';
import { controlKeys } from '../src/control-plane/redis/keys.js';
import { defineScripts } from '../src/control-plane/redis/scripts.js';
import { waymark } from './helpers/cli.js';
import {
  cliCustomer,
  cluster,
  fileScope,
  largestTile,
  monthCounters,
  monthUsageKey,
  type ApiNode,
  type Cluster,
} from './helpers/cluster.js';
import { rateLimit } from './helpers/http.js';
import { SMALL_OSM } from './helpers/queue.js';
import { MASTER_NAME, sentinelGroup, sentinelTest, type SentinelGroup } from './helpers/sentinel.js';
import { fetchTile, TileLoad, wrongAnswer } from './helpers/tile-answers.js';
import { patientTest, within } from './helpers/waits.js';

/** The data folder both nodes serve: a small hand-written extract, imported once without Redis. */
const dataDir = mkdtempSync(join(tmpdir(), 'waymark-sentinel-'));
let tile: ReturnType<typeof largestTile>;

test.before(async () => {
  const run = await waymark(['import', '--osm', SMALL_OSM, '--data', dataDir]);
  if (run.code !== 0) throw new Error(`the import failed: ${run.stderr}`);
  tile = largestTile(dataDir);
});

/** What the scenarios share: the Sentinel group, and two nodes on its URL. */
const shared = fileScope();
let sharedSetUp: Promise<{ group: SentinelGroup; c: Cluster; nodes: ApiNode[] }> | undefined;

/** The shared group and nodes, started by the first scenario. */
function groupAndNodes(t: ExecutionContext) {
  patientTest(t);
  sharedSetUp ??= (async () => {
    const group = await sentinelGroup(shared);
    const c = cluster(shared, dataDir, group.url);
    return { group, c, nodes: await Promise.all([c.startNode(), c.startNode()]) };
  })();
  return sharedSetUp;
}

test.after.always(async () => {
  await shared.end();
  rmSync(dataDir, { recursive: true, force: true });
});

type Phase = 'before' | 'failover' | 'after';

/** A scenario's start: the shared group once settled (which node is which now), its nodes, and the load of a customer of the scenario's own. */
async function loadedScenario(t: ExecutionContext) {
  const { group, c, nodes } = await groupAndNodes(t);
  const roles = await group.settled();
  return { group, roles, c, nodes, ...(await loadedCustomer(t, c, nodes)) };
}

/** A customer of the scenario's own with a quota far above the load, and the load on both nodes started. */
async function loadedCustomer(t: ExecutionContext, c: Cluster, nodes: ApiNode[]) {
  const customer = await cliCustomer(c, 'maps=10000000');
  const usageKey = await monthUsageKey(c, customer.org);
  const load = new TileLoad<Phase>(nodes, tile.path, customer.key, tile.bytes, [200, 503], 'before');
  t.teardown(() => load.stop());
  await within('every node serves', async () => load.everyNodeAnswered(200) || undefined);
  return { ...customer, usageKey, load };
}

/** The load's phase once the Sentinels agree on the new primary: every node serves again, and goes on serving; then the load stops. */
async function servesAgain(load: TileLoad<Phase>): Promise<void> {
  load.phase = 'after';
  await within('every node serves again', async () => load.everyNodeAnswered(200) || undefined);
  await within('200 more successes after the failover', async () => load.count('after', 200) >= 200 || undefined);
  await load.stop();
}

/**
 * The quota counters once every lease is back in Redis: the nodes return idle ones; a lease Redis
 * still counts as out but no node reports any more (its last report lost with the old primary)
 * lapses after WAYMARK_QUOTA_LEASE_TTL_MS and is settled here, as the next grant would.
 */
async function settledCounters(c: Cluster, usageKey: string) {
  const client = redisClient({ url: c.redisUrl, prefix: c.prefix });
  try {
    const names = controlKeys(c.prefix);
    const scripts = defineScripts(client);
    return await within('every lease is returned or settled', async () => {
      await scripts.settleExpiredLeases([names.leases], [names.leasePrefix]);
      const counters = await monthCounters(c, usageKey);
      return counters.leased === 0 ? counters : undefined;
    });
  } finally {
    client.disconnect();
  }
}

/** A plan change, then a revocation, made through the CLI (on the new primary), apply on every node's next request. */
async function changesApplyOnEveryNode(
  t: ExecutionContext,
  c: Cluster,
  nodes: ApiNode[],
  customer: { org: string; key: string; keyId: string },
) {
  await c.cliJson(['org', 'set-tier', '--org', customer.org, '--tier', 'enterprise', '--quota', 'maps=1']);
  for (const node of nodes) {
    const refused = (await fetchTile(node.url, tile.path, customer.key))!;
    t.is(refused.status, 429, `${node.url} applies the plan change`);
    t.is(rateLimit(refused.headers).limit, '1');
  }
  await c.cliJson(['key', 'revoke', '--org', customer.org, '--id', customer.keyId]);
  for (const node of nodes) {
    const refused = (await fetchTile(node.url, tile.path, customer.key))!;
    t.is(refused.status, 401, `${node.url} applies the revocation`);
    t.is(wrongAnswer(refused, [401], tile.bytes), null);
  }
}

sentinelTest(
  'a switchover (SENTINEL FAILOVER) mid-load, the old primary staying up: the nodes follow the new primary at once and a revocation right after applies on every node; nothing is counted twice',
  async (t) => {
    const { group, roles, c, nodes, usageKey, load, ...customer } = await loadedScenario(t);

    await group.switchover();
    load.phase = 'failover';
    await within('the Sentinels agree on the replica as the primary', async () =>
      (await group.agreedPrimary()) === roles.replica ? true : undefined,
    );
    await servesAgain(load);
    // Sentinel demotes the old primary only seconds later: nodes still on it would miss these changes.
    await changesApplyOnEveryNode(t, c, nodes, customer);

    const { tally } = load;
    t.deepEqual(tally.wrong, [], 'only the tile or the uniform 503');
    const counters = await settledCounters(c, usageKey);
    const successes = tally.count(200);
    t.log(`${successes} tiles served, ${tally.count(503)} 503s; counted: ${JSON.stringify(counters)}`);
    // Reports the old primary took after the promotion (it takes writes until Sentinel announces
    // the new primary) are made good on the new one, as after a crash.
    t.is(counters.served, successes, 'every success counted once');
  },
);

sentinelTest(
  'the primary killed mid-load: Sentinel promotes the replica, the nodes answer the tile or a 503 meanwhile and recover by themselves; every success is counted once',
  async (t) => {
    // The roles as the switchover left them, once Sentinel has made the old primary a replica of the new one.
    const { group, roles, c, nodes, usageKey, load, ...customer } = await loadedScenario(t);

    // The Sentinels hold off while the replica's copy of the counters is read (the state the
    // promoted replica starts from), then fail over as they would have.
    const downAfter = (ms: number) => group.everySentinel('SET', MASTER_NAME, 'down-after-milliseconds', String(ms));
    await downAfter(10 * 60_000);
    await roles.primary.process.kill('SIGKILL');
    load.phase = 'failover';
    const replica = roles.replica.client();
    await within(
      'the replica has lost its primary',
      async () => /^master_link_status:down\r?$/m.test(await replica.info('replication')) || undefined,
    );
    const leasedAtCrash = Number((await replica.hget(usageKey, 'leased:maps')) ?? 0);
    await downAfter(1000);
    const released = Date.now();
    await within('the Sentinels agree on the replica as the primary', async () =>
      (await group.agreedPrimary()) === roles.replica ? true : undefined,
    );
    const promoted = Date.now();
    await servesAgain(load);
    t.log(`promoted ${promoted - released} ms after the Sentinels were let go; every node served again ${Date.now() - promoted} ms later`);

    const { tally } = load;
    t.deepEqual(tally.wrong, [], 'only the tile or the uniform 503');
    t.true(load.count('failover', 503) > 0, 'requests during the failover were refused, not held');
    const counters = await settledCounters(c, usageKey);
    const successes = tally.count(200);
    t.log(
      `${successes} tiles served, ${tally.count(503)} 503s; counted: ${JSON.stringify(counters)}; ${leasedAtCrash} units out on leases at the crash`,
    );
    // The bound: Redis replicates asynchronously, so the dead primary may have acknowledged reports
    // its replica never had. Reports carry totals: a lease a node still holds is made good by its
    // next report, one it closed by its final report, sent again on the new connection (when the
    // old one closed within 10 s of it); one sent twice is counted once. So for nodes that live
    // through the failover usage misses nothing and counts nothing twice. What a failover may cost
    // is quota, not usage: a block granted as the primary died, whose reply never came, is counted
    // as lost once it lapses (WAYMARK_QUOTA_LEASE_TTL_MS) — at most what was out on leases in the
    // replica's copy, each lease at most MAX_BLOCK (5,000) units.
    t.is(counters.served, successes, 'every success counted once');
    t.true(counters.lost <= leasedAtCrash, `${counters.lost} units lost, ${leasedAtCrash} out on leases at the crash`);
    for (const node of nodes) {
      const report = (await (await fetch(`${node.url}/api/v1/usage/current?key=${customer.key}`)).json()) as any;
      t.is(report.services.maps.used, counters.served, `${node.url}: the month's usage`);
      t.is(report.keys[0].used.maps, counters.served, `${node.url}: the key's usage, from the day counts`);
    }

    const status = await c.cliJson(['status']);
    t.like(status.redis, { primary: `127.0.0.1:${roles.replica.port}`, replicas: 0 });
    t.regex(status.redis.url, /^redis\+sentinel:\/\/:\*\*\*@/, 'the password is not shown');
    await changesApplyOnEveryNode(t, c, nodes, customer);
  },
);
