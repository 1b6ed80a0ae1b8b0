/**
 * Issue 13: several nodes on one Redis, as real processes — 3 API nodes (`waymark serve`) and 2
 * import workers (`waymark worker`) on one data folder, driven over loopback HTTP and the CLI.
 * Quotas are exact across nodes; a revocation or a tier change made on one node applies on the
 * others at their next request; a node killed mid-load never gives a wrong answer; a Redis restart
 * gives 503s, then service again without losing a count; a killed worker's import is finished by
 * the other worker and every node switches to the new dataset. Serial: each scenario starts its
 * own processes on its own key prefix, and the last one changes the shared data folder.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TIER_QUOTAS } from '../src/control-plane/tiers.js';
import { waymark } from './helpers/cli.js';
import {
  cliCustomer,
  cluster,
  largestTile,
  OPERATOR_TOKEN,
  ownRedis,
  signUp,
  usedUnits,
  type ApiNode,
  type Child,
  type Cluster,
} from './helpers/cluster.js';
import { errorBodyFault, rateLimit } from './helpers/http.js';
import { deleteKeys, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { within } from './helpers/waits.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
/** The data folder every node and worker serves: Monaco, imported once without Redis. */
const dataDir = mkdtempSync(join(tmpdir(), 'waymark-cluster-'));
let tile: ReturnType<typeof largestTile>;

test.before(async () => {
  const run = await waymark(['import', '--osm', MONACO, '--data', dataDir]);
  if (run.code !== 0) throw new Error(`the Monaco import failed: ${run.stderr}`);
  tile = largestTile(dataDir);
});

test.after.always('no Redis key is left behind', async (t) => {
  rmSync(dataDir, { recursive: true, force: true });
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

const startNodes = (c: Cluster) => Promise.all([c.startNode(), c.startNode(), c.startNode()]);

/** What a client gets for the tile: an HTTP answer, or null when the connection failed (a node that is gone). */
interface TileAnswer {
  status: number;
  body: Buffer;
  headers: Headers;
}

async function getTile(node: ApiNode, key: string): Promise<TileAnswer | null> {
  try {
    const res = await fetch(`${node.url}${tile.path}?key=${key}`);
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  } catch {
    return null;
  }
}

/**
 * What is wrong with a tile answer, or null when it is one of `allowed`: a 200 carrying exactly the
 * stored tile, or an error status with the uniform error body.
 */
function wrongAnswer(answer: TileAnswer, allowed: number[]): string | null {
  if (!allowed.includes(answer.status)) return `status ${answer.status}: ${answer.body.toString().slice(0, 200)}`;
  if (answer.status === 200)
    return answer.body.equals(tile.bytes) ? null : `a 200 with ${answer.body.length} bytes that are not the tile's`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString());
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  const fault = errorBodyFault({ status: answer.status, body });
  return fault && `a ${answer.status}: ${fault}`;
}

/** Tallies of a load: answers per status, and every wrong answer. */
class Tally {
  readonly statuses = new Map<number, number>();
  readonly wrong: string[] = [];
  answers = 0;

  add(answer: TileAnswer, allowed: number[]): void {
    this.answers++;
    this.statuses.set(answer.status, this.count(answer.status) + 1);
    const wrong = wrongAnswer(answer, allowed);
    if (wrong) this.wrong.push(wrong);
  }

  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }
}

dataTest(
  'quota is exact across nodes: 600 concurrent tile requests over 3 nodes, 200 units left → 200 served, 400 refused, 200 counted',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    const nodes = await startNodes(c);
    const { org, key } = await cliCustomer(c, 'maps=200');

    const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => getTile(nodes[i % 3]!, key)));
    const tally = new Tally();
    for (const answer of answers) {
      if (answer === null) t.fail('a connection failed');
      else tally.add(answer, [200, 429]);
    }
    t.deepEqual(tally.wrong, []);
    t.is(tally.count(200), 200);
    t.is(tally.count(429), 400);
    t.is(await usedUnits(c, org), 200);
    const refused = await getTile(nodes[1]!, key);
    t.like(rateLimit(refused!.headers), { limit: '200', remaining: '0' });
  },
  true,
);

dataTest(
  'a revocation and a tier upgrade made in node A’s dashboard apply at once on nodes B and C',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    const [a, b, node3] = await startNodes(c);
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

    const tally = new Tally();
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
  'a Redis restart mid-load: 503s (never an uncounted 200) and /healthz 200 while it is down, then the nodes recover by themselves',
  [MONACO],
  async (t) => {
    const redis = await ownRedis(t, tempDir(t, 'cluster-redis'));
    const c = cluster(t, dataDir, redis.url);
    const nodes = await startNodes(c);
    const { org, key } = await cliCustomer(c);

    const tally = new Tally();
    /** Where Redis was when a request was sent; answers are kept per phase and node. */
    let phase: 'up' | 'down' | 'back' = 'up';
    const seen = {
      up: nodes.map(() => new Set<number>()),
      down: nodes.map(() => new Set<number>()),
      back: nodes.map(() => new Set<number>()),
    };
    let running = true;
    let next = 0;
    const client = async () => {
      while (running) {
        const i = next++ % 3;
        const sentDuring = phase;
        const answer = await getTile(nodes[i]!, key);
        if (answer === null) tally.wrong.push('a connection failed');
        else {
          tally.add(answer, [200, 503]);
          seen[sentDuring][i]!.add(answer.status);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const clients = Array.from({ length: 4 }, client);
    const everyNode = (status: number) => () => Promise.resolve(seen[phase].every((statuses) => statuses.has(status)) || undefined);
    try {
      await within('every node serves', everyNode(200));

      await redis.stop();
      phase = 'down';
      await within('every node answers 503', everyNode(503));
      for (const node of nodes) t.is((await fetch(`${node.url}/healthz`)).status, 200, `${node.url}/healthz while Redis is down`);

      await redis.start();
      phase = 'back';
      const restarted = Date.now();
      // Recovery takes about 300 ms on a quiet machine (the log line below).
      await within('every node serves again', everyNode(200));
      t.log(`every node served again within ${Date.now() - restarted} ms of Redis being back`);
    } finally {
      running = false;
      await Promise.all(clients);
    }

    t.deepEqual(
      seen.down.map((statuses) => [...statuses]),
      [[503], [503], [503]],
      'only 503s while Redis was down',
    );
    t.deepEqual(tally.wrong, []);
    t.true(tally.count(503) > 0);
    // appendfsync always: every counted unit survived the restart, and every 200 was counted. A
    // reservation Redis ran just as it stopped, whose reply never came back, is counted and answered
    // 503: at most one per client, each having one request in flight.
    const used = await usedUnits(c, org);
    t.true(used >= tally.count(200) && used <= tally.count(200) + clients.length, `${used} units for ${tally.count(200)} successes`);
  },
  true,
);

dataTest(
  'a worker killed mid-import: the other worker finishes the job and every node switches to the new dataset',
  [MONACO],
  async (t) => {
    const c = cluster(t, dataDir);
    const nodes = await startNodes(c);
    // Short job locks, so that a dead worker's job is taken over within seconds; not shorter than an
    // import's main thread may block on a loaded machine (its synchronous SQLite steps), for a lock
    // that lapses twice fails the job ("stalled more than allowable limit").
    const workers = await Promise.all([c.startWorker({ WAYMARK_JOB_LOCK_MS: '10000' }), c.startWorker({ WAYMARK_JOB_LOCK_MS: '10000' })]);
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
