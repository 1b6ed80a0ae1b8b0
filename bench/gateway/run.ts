/**
 * Issue 2's gateway benchmark: requests per second and p50/p99 latency of an authenticated,
 * metered, cheap request served by Waymark, against the same request from bare uWebSockets.js (no
 * gateway) and from Fastify with @fastify/bearer-auth. Loopback, wrk with one thread; each server
 * in its own child process pinned to one CPU, wrk pinned to the other. Two more rows price a key's
 * restrictions (issue 21): one server, the same request from a web page (an Origin header) with an
 * unrestricted key and with a key restricted to origins, address ranges and an expiry. Four more
 * price the short-window rate limit (issue 36): a key with a per-minute limit (one it never
 * reaches) against one without, on the embedded store and on Redis (the machine's, under a prefix
 * of the run's own).
 *
 *   npm run bench:gateway [-- --duration 10 --warmup 2 --connections 64 --rounds 3 --cpu-prof]
 *
 * Timing never fails the run; a wrong answer (not 200, another body, missing rate-limit headers,
 * usage not counted) does.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { startChild, type ServerChild } from '../lib/child.js';
import {
  describeMeasurement,
  interference,
  measureServers,
  LOAD_ARGS,
  loadSettings,
  summarize,
  type Summary,
  type Target,
} from '../lib/load.js';
import { describeSource, fmtInt, fmtMs, fmtPct, fmtUs, markdownTable, publishReport, RESULTS_DIR } from '../lib/report.js';
import { checkUsageCounted, usedUnits, type Metered } from '../lib/usage-check.js';
import { INSTALL_HINT, wrkAvailable } from '../lib/wrk.js';
import { BODY_TEXT, PATH, RESTRICTED_ORIGIN, SERVICE } from './common.js';
import { deletePrefix } from '../lib/redis-prefix.js';
import { runBenchmark } from '../lib/run.js';

const REDIS_URL = process.env.WAYMARK_REDIS_URL ?? 'redis://127.0.0.1:6379';

const { values: args } = parseArgs({
  options: {
    ...LOAD_ARGS,
    /** Writes a V8 CPU profile of each server to bench/results/profiles/. */
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const load = loadSettings(args);

for (const [name, value] of Object.entries({ duration: load.durationS, connections: load.connections, rounds: load.rounds })) {
  if (!(value > 0)) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
}
if (!(load.warmupS >= 0) || !(load.quietWaitMs >= 0)) {
  console.error('--warmup and --quiet-wait must be zero or more seconds');
  process.exit(2);
}
if (!wrkAvailable()) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

const profileDir = join(RESULTS_DIR, 'profiles');
/** Node flags of a server; profiles are named after the scenario and the run's start. */
const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');
const nodeArgs = (label: string) =>
  args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${label}-${stamp}.cpuprofile`] : [];
// Before the servers load it: src/ may change while the benchmark runs.
const source = describeSource();
const children: ServerChild[] = [];
const dataDirs: string[] = [];

async function startServer(name: string, label: string, env: Record<string, string> = {}): Promise<ServerChild> {
  const script = new URL(`./servers/${name}.js`, import.meta.url).pathname;
  const child = await startChild(script, { env, cpu: load.serverCpu, nodeArgs: nodeArgs(label) });
  children.push(child);
  if (child.info.uws === 'fallback') {
    throw new Error('uWebSockets.js fell back to its Node.js implementation (no binary for this Node); the figures would be meaningless');
  }
  return child;
}

async function startWaymarkServer(label: string, env: Record<string, string> = {}): Promise<ServerChild> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-bench-'));
  dataDirs.push(dataDir);
  return startServer('waymark', label, { BENCH_DATA_DIR: dataDir, ...env });
}

interface Scenario extends Target {
  child: ServerChild;
  /** Fastify and Waymark must refuse the request without its key. */
  authenticates: boolean;
  /** Waymark: the key whose usage must count every request, and its server's port. */
  metered?: Metered;
  /** Waymark with a per-minute limit: the reply carries the `RateLimit-Policy` field. */
  windowed?: boolean;
}

/** Each server answers 200 with the same body; the authenticating ones refuse a request without key. */
async function checkAnswers(s: Scenario): Promise<void> {
  const res = await fetch(s.url, { headers: s.headers });
  const body = await res.text();
  if (res.status !== 200 || body !== BODY_TEXT) throw new Error(`${s.name}: answered ${res.status} ${body}, expected 200 ${BODY_TEXT}`);
  if (s.metered) {
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      if (!res.headers.get(h)) throw new Error(`${s.name}: the reply has no ${h} header`);
    }
  }
  if (Boolean(s.windowed) !== res.headers.has('ratelimit-policy')) {
    throw new Error(`${s.name}: the reply ${s.windowed ? 'lacks' : 'has'} a RateLimit-Policy header`);
  }
  if (!s.authenticates) return;
  const anonymous = await fetch(s.url.replace(/\?key=.*$/, ''));
  await anonymous.arrayBuffer();
  if (anonymous.status !== 401) throw new Error(`${s.name}: answered ${anonymous.status} without a key, expected 401`);
}

async function main(): Promise<void> {
  if (args['cpu-prof']) mkdirSync(profileDir, { recursive: true });
  const bare = await startServer('uws', 'uws');
  const wmQuery = await startWaymarkServer('waymark-query');
  const wmBearer = await startWaymarkServer('waymark-bearer');
  // The access log is on by default; operators who rely on /metrics alone can turn it off.
  const wmQuiet = await startWaymarkServer('waymark-no-access-log', { WAYMARK_LOG_LEVEL: 'warn' });
  const queryKey = String(wmQuery.info.key);
  const quietKey = String(wmQuiet.info.key);
  const bearerKey = String(wmBearer.info.key);
  // Its organization's usage mixes two rows, so those rows are not usage-checked (the others are).
  const wmPage = await startWaymarkServer('waymark-restrictions');
  const fromPage = { Origin: RESTRICTED_ORIGIN };
  const wmWindow = await startWaymarkServer('waymark-window');
  const redisPrefix = `waymark-bench-gateway-${process.pid}`;
  const wmRedis = await startWaymarkServer('waymark-redis', { WAYMARK_REDIS_URL: REDIS_URL, WAYMARK_REDIS_PREFIX: redisPrefix });
  // Fastify accepts the same key as the Waymark-with-header scenario.
  const fastify = await startServer('fastify', 'fastify', { BENCH_KEY: bearerKey });

  const url = (c: ServerChild, query = '') => `http://127.0.0.1:${c.port}${PATH}${query}`;
  const bearer = { Authorization: `Bearer ${bearerKey}` };
  /** One server's two keys of the short-window rows: without a per-minute limit, then with one. */
  const windowPair = (without: string, limited: string, child: ServerChild): Scenario[] =>
    (['key', 'limitedKey'] as const).map((key, i) => ({
      name: i === 0 ? without : limited,
      child,
      pid: child.pid,
      url: url(child, `?key=${String(child.info[key])}`),
      authenticates: true,
      windowed: i === 1,
    }));
  const scenarios: Scenario[] = [
    {
      name: 'bare uWebSockets.js, no gateway (?key= ignored)',
      child: bare,
      pid: bare.pid,
      url: url(bare, `?key=${queryKey}`),
      authenticates: false,
    },
    {
      name: 'Waymark, key in ?key=',
      child: wmQuery,
      pid: wmQuery.pid,
      url: url(wmQuery, `?key=${queryKey}`),
      authenticates: true,
      metered: { key: queryKey, port: wmQuery.port, service: SERVICE },
    },
    {
      name: 'Waymark, key in Authorization: Bearer',
      child: wmBearer,
      pid: wmBearer.pid,
      url: url(wmBearer),
      headers: bearer,
      authenticates: true,
      metered: { key: bearerKey, port: wmBearer.port, service: SERVICE },
    },
    {
      name: 'Fastify 5 + @fastify/bearer-auth, Authorization: Bearer',
      child: fastify,
      pid: fastify.pid,
      url: url(fastify),
      headers: bearer,
      authenticates: true,
    },
    // Informative only, after the four rows the aims are computed from.
    {
      name: 'Waymark, key in ?key=, access log off (WAYMARK_LOG_LEVEL=warn)',
      child: wmQuiet,
      pid: wmQuiet.pid,
      url: url(wmQuiet, `?key=${quietKey}`),
      authenticates: true,
      metered: { key: quietKey, port: wmQuiet.port, service: SERVICE },
    },
    {
      name: 'Waymark, key in ?key=, from a web page (Origin header), unrestricted key',
      child: wmPage,
      pid: wmPage.pid,
      url: url(wmPage, `?key=${String(wmPage.info.key)}`),
      headers: fromPage,
      authenticates: true,
    },
    {
      name: 'Waymark, the same with a key restricted to 3 origins (matched by wildcard), 3 address ranges, an expiry',
      child: wmPage,
      pid: wmPage.pid,
      url: url(wmPage, `?key=${String(wmPage.info.restrictedKey)}`),
      headers: fromPage,
      authenticates: true,
    },
    // The short-window rows, in pairs: without, then with a per-minute limit.
    ...windowPair(
      'Waymark, key in ?key= (embedded store, one more server)',
      'Waymark, the same with a key limited per minute (embedded store)',
      wmWindow,
    ),
    ...windowPair('Waymark on Redis, key in ?key=', 'Waymark on Redis, the same with a key limited per minute', wmRedis),
  ];

  for (const s of scenarios) await checkAnswers(s);
  // The restricted key is really checked: the same request without its Origin header is refused.
  const restricted = scenarios.find((s) => s.url.endsWith(String(wmPage.info.restrictedKey)))!;
  const withoutOrigin = await fetch(restricted.url);
  await withoutOrigin.arrayBuffer();
  if (withoutOrigin.status !== 403) throw new Error(`${restricted.name}: answered ${withoutOrigin.status} without an Origin, expected 403`);
  const usageBefore = new Map<Scenario, number>();
  for (const s of scenarios) if (s.metered) usageBefore.set(s, await usedUnits(s.metered));

  const measured = await measureServers('gateway benchmark', scenarios, load);

  const usageLines: string[] = [];
  for (const m of measured) {
    const s = m.target;
    if (!s.metered) continue;
    usageLines.push(checkUsageCounted((await usedUnits(s.metered)) - usageBefore.get(s)!, m, load.connections));
  }

  // The first four scenarios, in order, are the ones the aims compare; rows 6–7 price restrictions, the last four the short window.
  const rows = measured.map((m) => summarize(m.runs));
  const [bareRow, queryRow, bearerRow, fastifyRow] = rows as [Summary, Summary, Summary, Summary];
  const [pageRow, restrictedRow, ...windowRows] = rows.slice(-6) as [Summary, Summary, ...Summary[]];
  const table = markdownTable(
    ['Scenario', 'req/s', 'p50', 'p99', 'req/s vs bare', 'server CPU busy', 'server CPU per request', 'req/s per round'],
    measured.map((m) => {
      const r = summarize(m.runs);
      return [
        m.target.name,
        fmtInt(r.rps),
        fmtMs(r.p50),
        fmtMs(r.p99),
        fmtPct(r.rps / bareRow.rps),
        r.cpuUse === null ? 'n/a' : fmtPct(r.cpuUse),
        r.cpuPerReq === null ? 'n/a' : fmtUs(r.cpuPerReq),
        r.perRound,
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );

  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const cost = (row: Summary) => 1 - row.rps / bareRow.rps;
  const ratio = bearerRow.rps / fastifyRow.rps;
  const aims = [
    `- Gateway cost in req/s vs bare uWebSockets.js (aim < 10 %): ${fmtPct(cost(queryRow))} with ?key=, ` +
      `${fmtPct(cost(bearerRow))} with Authorization: Bearer: ${verdict(Math.max(cost(queryRow), cost(bearerRow)) < 0.1)}`,
    `- Waymark / Fastify + bearer-auth in req/s, both with Authorization: Bearer (aim ≥ 2×): ${ratio.toFixed(2)}×: ${verdict(ratio >= 2)}`,
  ];
  const restrictionCost = 1 - restrictedRow.rps / pageRow.rps;
  const restrictionCpu =
    pageRow.cpuPerReq === null || restrictedRow.cpuPerReq === null
      ? ''
      : `; in server CPU per request ${fmtPct(restrictedRow.cpuPerReq / pageRow.cpuPerReq - 1)}`;
  aims.push(
    `- A restricted key's checks vs an unrestricted key, same request (aim < 5 %): ${fmtPct(restrictionCost)} in req/s${restrictionCpu}: ${verdict(restrictionCost < 0.05)}`,
  );
  for (const [store, without, limited] of [
    ['embedded', windowRows[0]!, windowRows[1]!],
    ['on Redis', windowRows[2]!, windowRows[3]!],
  ] as const) {
    const inRps = 1 - limited.rps / without.rps;
    const inCpu = without.cpuPerReq === null || limited.cpuPerReq === null ? null : limited.cpuPerReq / without.cpuPerReq - 1;
    const cpuText = inCpu === null ? '' : `, in server CPU per request ${fmtPct(inCpu)}`;
    aims.push(
      `- The short-window check ${store}, a key limited per minute vs one that is not (aim < 3 %): ${fmtPct(inRps)} in req/s${cpuText}: ${verdict(Math.max(inRps, inCpu ?? 0) < 0.03)}`,
    );
  }
  if (bareRow.cpuPerReq !== null && queryRow.cpuPerReq !== null && bearerRow.cpuPerReq !== null && fastifyRow.cpuPerReq !== null) {
    // CPU per request bounds throughput once the server's core is saturated, whatever limits wrk.
    const cpuCost = (row: Summary) => 1 - bareRow.cpuPerReq! / row.cpuPerReq!;
    const cpuRatio = fastifyRow.cpuPerReq / bearerRow.cpuPerReq;
    aims.push(
      `- The same aims in server CPU per request (the throughput of a saturated core): gateway cost ${fmtPct(cpuCost(queryRow))} / ` +
        `${fmtPct(cpuCost(bearerRow))}: ${verdict(Math.max(cpuCost(queryRow), cpuCost(bearerRow)) < 0.1)}; ` +
        `Waymark / Fastify ${cpuRatio.toFixed(2)}×: ${verdict(cpuRatio >= 2)}`,
    );
  }

  publishReport('gateway', 'Gateway benchmark', source, [
    [
      describeMeasurement(load, 'scenario'),
      interference(measured.flatMap((m) => m.runs)),
      '',
      table,
      '',
      ...aims,
      '',
      'Usage check:',
      ...usageLines.map((l) => `- ${l}`),
    ],
  ]);
}

await runBenchmark(main, children, async () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  const redis = new Redis(REDIS_URL);
  await deletePrefix(redis, `waymark-bench-gateway-${process.pid}`);
  redis.disconnect();
  if (args['cpu-prof']) console.error(`CPU profiles of the servers are in ${profileDir}`);
});
