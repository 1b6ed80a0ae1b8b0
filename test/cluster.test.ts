/**
 * Issue 13: several nodes on one Redis, as real processes — 3 API nodes (`waymark serve`) and 2
 * import workers (`waymark worker`) on one data folder, driven over loopback HTTP and the CLI.
 * Issue 27: quotas are exact across nodes on quota leases, to the last units of a month; a
 * revocation or a tier change made on one node (or the CLI) applies on every node at its next
 * request; a node killed mid-load never gives a wrong answer, and its lapsed lease counts as lost;
 * usage equals what was served once the leases are back; a Redis restart gives 503s once the
 * nodes' blocks run out, then service again with every success counted; a killed worker's import is finished by
 * the other worker and every node switches to the new dataset. Serial: each scenario starts its
 * own processes on its own key prefix, and the last one changes the shared data folder.
 */
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TIER_QUOTAS } from '../src/control-plane/tiers.js';
import { waymark } from './helpers/cli.js';
import {
  cliCustomer,
  cluster,
  fileScope,
  largestTile,
  monthCounters,
  monthUsageKey,
  OPERATOR_TOKEN,
  ownRedis,
  signUp,
  usedUnits,
  type ApiNode,
  type Child,
  type Cluster,
} from './helpers/cluster.js';
import { rateLimit } from './helpers/http.js';
import { deleteKeys, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { patientTest, within, WAIT_CEILING_MS } from './helpers/waits.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { fetchTile, Tally, TileLoad, wrongAnswer as wrongTileAnswer, type TileAnswer } from './helpers/tile-answers.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
/** The data folder every node and worker serves: Monaco, imported once without Redis. */
const dataDir = mkdtempSync(join(tmpdir(), 'waymark-cluster-'));
let tile: ReturnType<typeof largestTile>;

test.before(async () => {
  const run = await waymark(['import', '--osm', MONACO, '--data', dataDir]);
  if (run.code !== 0) throw new Error(`the Monaco import failed: ${run.stderr}`);
  tile = largestTile(dataDir);
});

/** What the scenarios that stop no node and need no settings of their own share: one cluster, each on an organization of its own. */
const shared = fileScope();
let sharedNodes: Promise<{ c: Cluster; nodes: ApiNode[] }> | undefined;

/** The shared cluster's 3 nodes, started by the first scenario that asks. */
function sharedCluster(t: ExecutionContext): Promise<{ c: Cluster; nodes: ApiNode[] }> {
  patientTest(t);
  sharedNodes ??= (async () => {
    const c = cluster(shared, dataDir);
    return { c, nodes: await startNodes(c) };
  })();
  return sharedNodes;
}

test.after.always('no Redis key is left behind', async (t) => {
  await shared.end();
  rmSync(dataDir, { recursive: true, force: true });
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

const startNodes = (c: Cluster) => Promise.all([c.startNode(), c.startNode(), c.startNode()]);

/** `waymark usage` once it counts at least `units`: the nodes report what they served every second. */
const reported = (c: Cluster, org: string, units: number) =>
  within(`${units} units are reported`, async () => {
    const used = await usedUnits(c, org);
    return used >= units ? used : undefined;
  });

const getTile = (node: ApiNode, key: string) => fetchTile(node.url, tile.path, key);
const wrongAnswer = (answer: TileAnswer, allowed: number[]) => wrongTileAnswer(answer, allowed, tile.bytes);

dataTest(
  'quota is exact across nodes: 600 concurrent tile requests over 3 nodes, 200 units left → 200 served, 400 refused, 200 counted',
  [MONACO],
  async (t) => {
    const { c, nodes } = await sharedCluster(t);
    const { org, key } = await cliCustomer(c, 'maps=200');

    const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => getTile(nodes[i % 3]!, key)));
    const tally = new Tally(tile.bytes);
    for (const answer of answers) tally.add(answer, [200, 429]);
    t.deepEqual(tally.wrong, []);
    t.is(tally.count(200), 200);
    t.is(tally.count(429), 400);
    t.is(await reported(c, org, 200), 200);
    const refused = await getTile(nodes[1]!, key);
    t.like(rateLimit(refused!.headers), { limit: '200', remaining: '0' });
  },
  true,
);

dataTest(
  'a revocation and a tier upgrade made in node A’s dashboard apply at once on nodes B and C',
  [MONACO],
  async (t) => {
    const {
      c,
      nodes: [a, b, node3],
    } = await sharedCluster(t);
    const session = await signUp(a!.url, `${c.prefix}-owner@example.com`);
    const created = await session.call('POST', '/keys', { name: 'shared', scopes: ['maps'] });
    t.is(created.status, 201);
    const { key, value } = (await created.json()) as { key: { id: string }; value: string };

    // B and C serve the new key at once (a key their directory lacks is looked up in Redis), on the free tier's limit.
    for (const node of [b!, node3!]) t.is((await getTile(node, value))!.status, 200, `${node.url} serves the new key on its first request`);
    t.is(rateLimit((await getTile(node3!, value))!.headers).limit, String(TIER_QUOTAS.free.maps));

    t.is((await session.call('PUT', '/billing', { tier: 'pro' })).status, 200);
    const upgraded = (await getTile(node3!, value))!;
    t.is(upgraded.status, 200);
    t.is(rateLimit(upgraded.headers).limit, String(TIER_QUOTAS.pro.maps));

    t.is((await session.call('POST', `/keys/${key.id}/revoke`)).status, 200);
    for (const node of [b!, node3!]) {
      const refused = (await getTile(node, value))!;
      t.is(refused.status, 401, node.url);
      t.is(wrongAnswer(refused, [401]), null);
    }
  },
  true,
);

dataTest(
  'a node killed mid-load: clients that move to the next node never get a wrong answer; usage matches what they saw',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    const nodes = await startNodes(c);
    const { org, key } = await cliCustomer(c, 'maps=300');
    const CLIENTS = 8;
    const ANSWERS = 600;
    const KILL_AFTER = 150;

    const tally = new Tally(tile.bytes);
    let killing: Promise<void> | undefined;
    /** Requests that failed after being sent before the kill: each may have been counted without being answered. */
    let lostInFlight = 0;
    let next = 0;
    const client = async () => {
      while (tally.answers < ANSWERS) {
        const sentBeforeKill = killing === undefined;
        const answer = await getTile(nodes[next++ % 3]!, key); // On a failed connection, the next turn goes to the next node.
        if (answer === null) {
          if (sentBeforeKill) lostInFlight++;
          continue;
        }
        tally.add(answer, [200, 429]);
        if (tally.answers === KILL_AFTER) killing = nodes[1]!.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await killing;

    t.deepEqual(tally.wrong, []);
    t.true(tally.count(429) > 0, 'the quota ran out during the load');
    // Quota leases: the killed node's open blocks stay counted against the quota (as lost once they
    // lapse), so the cluster never serves more than the quota; usage counts what the live nodes and
    // the killed one reported, so the killed node's last unreported tiles are missing from it.
    t.true(tally.count(200) <= 300, `${tally.count(200)} tiles served on a quota of 300`);
    t.true(lostInFlight <= CLIENTS);
    const used = await usedUnits(c, org);
    t.true(used <= tally.count(200), `used ${used}, 200s ${tally.count(200)}`);
  },
  true,
);

dataTest(
  'the last units of a month are exact across 3 nodes: blocks shrink, never more 200s than remain, and every one is served',
  [MONACO],
  async (t) => {
    const { c, nodes } = await sharedCluster(t);
    const { org, key } = await cliCustomer(c, 'maps=100000');
    // The month's earlier traffic, as Redis counts it: 30 units remain.
    const usageKey = await monthUsageKey(c, org);
    const redis = new Redis(c.redisUrl);
    t.teardown(() => redis.disconnect());
    await redis.hset(usageKey, 'maps', 99_970);

    const tally = new Tally(tile.bytes);
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => getTile(nodes[i % 3]!, key)));
    for (const answer of burst) tally.add(answer, [200, 429]);
    t.true(tally.count(200) <= 30, `${tally.count(200)} tiles served with 30 units left`);
    // Units a node still holds come back once its block is idle; then another node serves them.
    let next = 0;
    await within('every unit left is served', async () => {
      const answer = await getTile(nodes[next++ % 3]!, key);
      tally.add(answer, [200, 429]);
      return tally.count(200) >= 30 || undefined;
    });
    for (const node of nodes) {
      const refused = (await getTile(node, key))!;
      t.is(refused.status, 429, node.url);
      t.like(rateLimit(refused.headers), { limit: '100000', remaining: '0' });
    }
    t.deepEqual(tally.wrong, []);
    t.is(tally.count(200), 30);
    t.is(await reported(c, org, 100_000), 100_000);
  },
  true,
);

dataTest(
  'a node killed holding a lease: the quota stays exact; once the lease lapses its units count as lost and the other nodes serve the rest',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    // A's leases lapse 2 s after its last report (the shortest TTL allowed); B's and D's keep the
    // default, so that a report of theirs delayed on a loaded machine never lets theirs lapse.
    const [a, b, d] = await Promise.all([c.startNode({ WAYMARK_QUOTA_LEASE_TTL_MS: '2000' }), c.startNode(), c.startNode()]);
    const { org, key } = await cliCustomer(c, 'maps=100');
    const usageKey = await monthUsageKey(c, org);

    // A takes a block and serves a few tiles from it, then dies without returning the rest.
    for (let i = 0; i < 5; i++) t.is((await getTile(a!, key))?.status, 200);
    const before = await monthCounters(c, usageKey);
    const heldByA = before.served + before.leased;
    t.true(heldByA > 5, `A holds ${heldByA} units`);
    await a!.kill('SIGKILL');

    const tally = new Tally(tile.bytes);
    let next = 0;
    const after = await within('A’s lease lapses and the rest of the quota is served', async () => {
      const answer = await getTile([b!, d!][next++ % 2]!, key);
      tally.add(answer, [200, 429]);
      const counters = await monthCounters(c, usageKey);
      return counters.lost > 0 && counters.leased === 0 && counters.served + counters.lost === 100 ? counters : undefined;
    });
    t.deepEqual(tally.wrong, []);
    t.is(tally.count(200), 100 - heldByA, 'B and D serve every unit A did not hold');
    // A's unreported tiles and its unused units are lost: counted against the quota, not in usage.
    t.true(after.lost <= heldByA - before.served, `${after.lost} lost of the ${heldByA} A held`);
    t.true(after.served <= tally.count(200) + 5 && after.served + after.lost >= tally.count(200) + 5);
    t.is(await usedUnits(c, org), after.served);
  },
  true,
);

dataTest(
  'a plan change and a revocation apply on every node’s very next request while each node holds a lease',
  [MONACO],
  async (t) => {
    const { c, nodes } = await sharedCluster(t);
    const { org, key, keyId } = await cliCustomer(c, 'maps=1000');
    for (const node of nodes) for (let i = 0; i < 3; i++) t.is((await getTile(node, key))?.status, 200);

    // Lowered to what was served: every unit a node holds is above the new limit.
    await c.cliJson(['org', 'set-tier', '--org', org, '--tier', 'enterprise', '--quota', 'maps=9']);
    for (const node of nodes) {
      const refused = (await getTile(node, key))!;
      t.is(refused.status, 429, node.url);
      t.like(rateLimit(refused.headers), { limit: '9', remaining: '0' });
    }
    await c.cliJson(['org', 'set-tier', '--org', org, '--tier', 'enterprise', '--quota', 'maps=12']);
    for (const node of nodes) {
      const served = (await getTile(node, key))!;
      t.is(served.status, 200, node.url);
      t.is(rateLimit(served.headers).limit, '12');
    }
    await c.cliJson(['key', 'revoke', '--org', org, '--id', keyId]);
    for (const node of nodes) {
      const refused = (await getTile(node, key))!;
      t.is(refused.status, 401, node.url);
      t.is(wrongAnswer(refused, [401]), null);
    }
    t.is(await reported(c, org, 12), 12);
  },
  true,
);

dataTest(
  'usage reports equal the tiles served once the leases are returned (one node stopped, two idle)',
  [MONACO],
  async (t) => {
    const { c, nodes } = await sharedCluster(t);
    const { org, key } = await cliCustomer(c, 'maps=100000');
    const usageKey = await monthUsageKey(c, org);

    const tally = new Tally(tile.bytes);
    let next = 0;
    const client = async () => {
      while (next < 300) {
        const answer = await getTile(nodes[next++ % 3]!, key);
        tally.add(answer, [200]);
      }
    };
    await Promise.all(Array.from({ length: 6 }, client));
    t.deepEqual(tally.wrong, []);
    // SIGTERM returns a node's leases as it exits; the others return theirs once idle.
    await nodes[2]!.kill('SIGTERM');
    const counters = await within('every lease is returned', async () => {
      const now = await monthCounters(c, usageKey);
      return now.leased === 0 ? now : undefined;
    });
    t.deepEqual(counters, { served: 300, leased: 0, lost: 0 });
    for (const node of nodes.slice(0, 2)) {
      const report = (await (await fetch(`${node.url}/api/v1/usage/current?key=${key}`)).json()) as any;
      t.is(report.services.maps.used, 300, node.url);
      t.is(report.keys[0].used.maps, 300, `${node.url}: the key's usage, from the day counts`);
    }
    t.is(await usedUnits(c, org), 300);
  },
  true,
);

dataTest(
  'a Redis restart mid-load: 503s once the blocks run out (never an uncounted 200) and /healthz 200 while it is down, then the nodes recover by themselves',
  [MONACO],
  async (t) => {
    const redis = await ownRedis(t, tempDir(t, 'cluster-redis'));
    const c = cluster(t, dataDir, redis.url);
    const nodes = await startNodes(c);
    const { org, key } = await cliCustomer(c);

    const usageKey = await monthUsageKey(c, org);
    let heldAtStop = 0;
    /** Phases: where Redis was when a request was sent. */
    const load = new TileLoad<'up' | 'down' | 'back'>(nodes, tile.path, key, tile.bytes, [200, 503], 'up');
    const everyNode = (status: number) => () => Promise.resolve(load.everyNodeAnswered(status) || undefined);
    try {
      await within('every node serves', everyNode(200));

      // Writes (every lease script) wait while the units out on leases are read, so that they are
      // the units the nodes hold in their blocks when Redis stops.
      const reader = new Redis(redis.url);
      try {
        await reader.call('CLIENT', 'PAUSE', String(WAIT_CEILING_MS), 'WRITE');
        heldAtStop = Number((await reader.hget(usageKey, 'leased:maps')) ?? 0);
      } finally {
        reader.disconnect();
      }
      await redis.stop();
      load.phase = 'down';
      await within('every node answers 503', everyNode(503));
      for (const node of nodes) t.is((await fetch(`${node.url}/healthz`)).status, 200, `${node.url}/healthz while Redis is down`);

      await redis.start();
      load.phase = 'back';
      const restarted = Date.now();
      // Recovery takes about 300 ms on a quiet machine (the log line below).
      await within('every node serves again', everyNode(200));
      t.log(`every node served again within ${Date.now() - restarted} ms of Redis being back`);
    } finally {
      await load.stop();
    }

    const { tally } = load;
    t.deepEqual(tally.wrong, []);
    t.true(tally.count(503) > 0);
    // A node serves from the blocks it holds without asking Redis, so it may answer 200 while Redis
    // is down until they run out: never more than it held.
    const servedWhileDown = load.count('down', 200);
    t.true(servedWhileDown <= heldAtStop, `${servedWhileDown} tiles served while Redis was down, ${heldAtStop} units held in blocks`);
    // appendfsync always: every reported unit survived the restart, and the units served while Redis
    // was away are reported once it is back. Reports carry totals, so one that Redis ran just as it
    // stopped, whose reply never came back, is sent again without being counted twice.
    const used = await within('every 200 is counted', async () => {
      const units = await usedUnits(c, org);
      return units >= tally.count(200) ? units : undefined;
    });
    t.is(used, tally.count(200));
  },
  true,
);

dataTest(
  'a worker killed mid-import: the other worker finishes the job and every node switches to the new dataset',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    const nodes = await startNodes(c);
    // Short job locks, so that a dead worker's job is taken over within a minute; not shorter than an
    // import's main thread may block on a loaded machine (its synchronous SQLite steps), for a lock
    // that lapses twice fails the job ("stalled more than allowable limit"): 10 s did, at a load
    // average of 10–16 on 2 cores.
    const workers = await Promise.all([c.startWorker({ WAYMARK_JOB_LOCK_MS: '30000' }), c.startWorker({ WAYMARK_JOB_LOCK_MS: '30000' })]);
    const { key } = await cliCustomer(c);
    const servedDataset = async (node: ApiNode) =>
      ((await (await fetch(`${node.url}/api/v1/tiles/shortbread.json?key=${key}`)).json()) as { version: string }).version;
    const before = await servedDataset(nodes[0]!);

    const status = await c.cliJson(['status']);
    t.deepEqual(
      status.nodes.map((n: { url: string; up: boolean }) => n.up),
      [true, true, true],
    );
    t.is(status.workers.length, 2);

    const operator = (node: ApiNode, method: string, path: string, body?: unknown) =>
      fetch(`${node.url}/operator${path}`, {
        method,
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    const queued = await operator(nodes[0]!, 'POST', '/imports', { osm: [MONACO] });
    t.is(queued.status, 202);
    const jobId = queued.body.id as string;

    const started = new RegExp(`"jobId":"${jobId}".*"msg":"import started"`);
    const startedIn = (worker: Child) => worker.lines.some((line) => started.test(line));
    const taker = await within('a worker takes the job', async () => workers.find(startedIn));
    await taker.kill('SIGKILL');
    const other = workers.find((worker) => worker !== taker)!;
    await within('the other worker takes the job over', async () => startedIn(other) || undefined);

    const done = await within('the job finishes', async () => {
      const { body } = await operator(nodes[1]!, 'GET', `/imports/${jobId}`);
      return body.status === 'completed' || body.status === 'failed' ? body : undefined;
    });
    t.is(done.status, 'completed', done.failedReason ?? '');
    const completed = new RegExp(`"jobId":"${jobId}".*"msg":"import completed"`);
    await within('the other worker logs the completion', async () => other.lines.some((line) => completed.test(line)) || undefined);
    const datasetId = done.result.datasetId as string;
    t.not(datasetId, before);
    await within(
      'every node serves the new dataset',
      async () => (await Promise.all(nodes.map(servedDataset))).every((id) => id === datasetId) || undefined,
    );
    t.pass();
  },
  true,
);
