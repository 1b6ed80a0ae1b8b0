/**
 * The cluster benchmark (issues 13 and 27), on Heidelberg imported once into one data folder that
 * every node serves: authenticated, metered requests per second and latency through `waymark serve`
 * with the embedded SQLite store on one node, and with the Redis store (the machine's Redis, a
 * fresh key prefix) on 1, 2 and 3 nodes:
 * - three kinds of metered request, each replayed by `wrk -t1` from a fixed list: vector tiles
 *   (every stored z10–14 tile, shuffled), geocoding autocompletes of nearly whole names (the cheap
 *   metered request of another service) and geocoding searches (a few ms of CPU each);
 * - one node embedded against one node on Redis, both running, in the order embedded, Redis,
 *   Redis, embedded per kind, so that a machine whose load drifts weighs on both alike; the ratio
 *   against issue 27's aim (≥ 90 %);
 * - 2 and 3 nodes on Redis: one `wrk -t1` per node, together `--connections`, the rates summed;
 * - the latency one request adds with Redis: one connection, one node, embedded vs Redis (p50);
 * - Redis round trips per metered request, from INFO commandstats, and Redis' own PING round trip;
 * - a loaded phase (loaded.ts): 3 nodes on Redis under 2 × cores busy loops, bursts of 600
 *   concurrent metered requests, every status counted (aim: no 503).
 * Nothing is pinned: the nodes, wrk and Redis share the machine's cores, so on a 2-core machine
 * more nodes cannot add throughput (the report says so); the per-request costs still compare.
 *
 *   npm run bench:cluster [-- --duration 10 --connections 48 --max-nodes 3 --loaded-rounds 3]
 *
 * `--max-nodes 1` leaves out 2 and 3 nodes; `--loaded-rounds 0` the loaded phase.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { ServerChild } from '../lib/child.js';
import { describeSource, fmtInt, fmtMs, fmtPct, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { seededRandom, shuffle, writeWrkScript } from '../lib/request-list.js';
import { runWrk, type WrkResult } from '../lib/wrk.js';
import { tileCoords } from '../maps/mbtiles.js';
import { createEnterpriseKey, importArgs, importedMbtiles, startWaymarkServe } from '../maps/waymark.js';
import { BURST, loadedPhase, QUOTA, statusCount, type LoadedResult } from './loaded.js';
import { combine, cpuPerRequest, measureNodes, type Rate } from './rates.js';
import { deletePrefix } from '../lib/redis-prefix.js';

const HEIDELBERG = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'heidelberg.osm.pbf');
const REDIS_URL = process.env.WAYMARK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SEARCHES = [
  'Bismarckplatz',
  'Hauptstraße',
  'Universitätsplatz',
  'Neckarstaden',
  'Römerstraße 20',
  'Bergheimer Straße',
  'Heidelberg Hauptbahnhof',
  'Kurfürsten-Anlage',
  'Plöck 5',
  'Sofienstraße',
];
/** Autocompletes of nearly whole names: a few candidates each, the cheap end of geocoding (short prefixes cost as much as searches). */
const PREFIXES = [
  'Bismarckpl',
  'Hauptstr',
  'Universitätspl',
  'Neckarstad',
  'Römerstr',
  'Bergheimer Str',
  'Kurfürsten-Anl',
  'Plöck',
  'Sofienstr',
  'Brückenstr',
];
/** Issue 27: one node on Redis serves at least this share of the embedded node's rate. */
const PER_NODE_AIM = 0.9;
const EMBEDDED = 'embedded SQLite, 1 node';
const nodesLabel = (nodes: number) => `Redis, ${nodes} node${nodes > 1 ? 's' : ''}`;

interface Kind {
  name: string;
  paths: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '48' },
      'max-nodes': { type: 'string', default: '3' },
      'loaded-rounds': { type: 'string', default: '3' },
    },
  });
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  const maxNodes = Number(values['max-nodes']);
  const loadedRounds = Number(values['loaded-rounds']);
  const source = describeSource();
  const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-cluster-'));
  const dataDir = join(workDir, 'data');
  const prefix = `waymark-bench-${process.pid}`;
  const redisEnv = { WAYMARK_REDIS_URL: REDIS_URL, WAYMARK_REDIS_PREFIX: prefix };
  const redis = new Redis(REDIS_URL);
  const running = new Set<ServerChild>();
  const start = async (label: string, env: Record<string, string>) => {
    const node = await startWaymarkServe(dataDir, undefined, { name: label, env: { ...env, WAYMARK_LOG_LEVEL: 'warn' } });
    running.add(node);
    return node;
  };
  const stop = async (nodes: ServerChild[]) => {
    for (const node of nodes) {
      await node.stop();
      running.delete(node);
    }
  };
  try {
    const imported = spawnSync(process.execPath, importArgs(HEIDELBERG, dataDir), { stdio: ['ignore', 'ignore', 'inherit'] });
    if (imported.status !== 0) throw new Error('the Heidelberg import failed');
    const scopes = ['maps', 'geocoding'];
    const embeddedKey = createEnterpriseKey(dataDir, scopes);
    const redisKey = createEnterpriseKey(dataDir, scopes, { env: redisEnv });

    const random = seededRandom(21);
    const tilePaths = shuffle(tileCoords(importedMbtiles(dataDir), 10, 14), random).map(
      (t) => `/api/v1/tiles/shortbread/${t.z}/${t.x}/${t.y}.pbf`,
    );
    const searchPaths = SEARCHES.map((text) => `/api/v1/geocoding/search?text=${encodeURIComponent(text)}`);
    const kinds: Kind[] = [
      { name: 'tiles', paths: tilePaths },
      { name: 'autocompletes', paths: PREFIXES.map((text) => `/api/v1/geocoding/autocomplete?text=${encodeURIComponent(text)}`) },
      { name: 'searches', paths: searchPaths },
    ];
    const script = (kind: Kind, key: string) => {
      const file = join(workDir, `${kind.name}-${key.slice(-6)}.lua`);
      writeWrkScript(
        file,
        kind.paths.map((p) => `${p}${p.includes('?') ? '&' : '?'}key=${key}`),
      );
      return file;
    };
    /** By kind, then setup label. */
    const rates = new Map<string, Map<string, Rate>>(kinds.map((kind) => [kind.name, new Map()]));

    // One node of each store, measured in turn: embedded, Redis, Redis, embedded.
    const embedded = await start(EMBEDDED, {});
    const onRedis = await start(nodesLabel(1), redisEnv);
    let roundTrips = '';
    for (const kind of kinds) {
      const runs: Record<string, Rate[]> = { [EMBEDDED]: [], [nodesLabel(1)]: [] };
      const scripts = { [EMBEDDED]: script(kind, embeddedKey), [nodesLabel(1)]: script(kind, redisKey) };
      const before = await evalCalls(redis);
      for (const [label, node] of [
        [EMBEDDED, embedded],
        [nodesLabel(1), onRedis],
        [nodesLabel(1), onRedis],
        [EMBEDDED, embedded],
      ] as const) {
        runs[label]!.push(await measureNodes([node], scripts[label]!, connections, durationS, `${label}, ${kind.name}`));
      }
      const redisRuns = combine(runs[nodesLabel(1)]!);
      if (kind.name === 'tiles') roundTrips = (((await evalCalls(redis)) - before) / redisRuns.requests).toFixed(2);
      for (const label of [EMBEDDED, nodesLabel(1)]) {
        rates.get(kind.name)!.set(label, combine(runs[label]!));
        console.error(`${label}, ${kind.name}: ${fmtInt(rates.get(kind.name)!.get(label)!.requestsPerSec)} req/s`);
      }
    }
    const single: WrkResult[] = [];
    for (const [node, key] of [
      [embedded, embeddedKey],
      [onRedis, redisKey],
    ] as const) {
      single.push(
        await runWrk({
          url: `http://127.0.0.1:${node.port}/`,
          connections: 1,
          durationS,
          script: script(kinds[0]!, key),
          headers: { 'Accept-Encoding': 'gzip' },
        }),
      );
    }
    await stop([embedded, onRedis]);

    for (let count = 2; count <= maxNodes; count++) {
      const nodes: ServerChild[] = [];
      for (let i = 0; i < count; i++) nodes.push(await start(`${nodesLabel(count)} #${i + 1}`, redisEnv));
      for (const kind of kinds) {
        const rate = await measureNodes(nodes, script(kind, redisKey), connections, durationS, `${nodesLabel(count)}, ${kind.name}`);
        rates.get(kind.name)!.set(nodesLabel(count), rate);
        console.error(`${nodesLabel(count)}, ${kind.name}: ${fmtInt(rate.requestsPerSec)} req/s`);
      }
      await stop(nodes);
    }

    let loaded: LoadedResult | null = null;
    let loadedScripts = 0;
    if (loadedRounds > 0) {
      const quotaKeys = Array.from({ length: loadedRounds }, (_, round) =>
        createEnterpriseKey(dataDir, scopes, { org: `Loaded ${round + 1}`, quota: `maps=${QUOTA},geocoding=${QUOTA}`, env: redisEnv }),
      );
      const nodes: ServerChild[] = [];
      for (let i = 0; i < 3; i++) nodes.push(await start(`loaded ${nodesLabel(3)} #${i + 1}`, redisEnv));
      const scriptsBefore = await evalCalls(redis);
      loaded = await loadedPhase({
        nodeUrls: nodes.map((node) => `http://127.0.0.1:${node.port}`),
        rounds: loadedRounds,
        busyLoops: 2 * availableParallelism(),
        quotaKeys,
        unlimitedKey: redisKey,
        searchPaths,
        tilePaths,
      });
      loadedScripts = (await evalCalls(redis)) - scriptsBefore;
      await stop(nodes);
    }

    const pings: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const started = performance.now();
      await redis.ping();
      pings.push(performance.now() - started);
    }
    pings.sort((a, b) => a - b);
    publishReport('cluster', 'Cluster: nodes on the Redis store vs the embedded store', source, [
      rateSection(kinds, rates, durationS, connections),
      latencySection(single, durationS, roundTrips, pings),
      ...(loaded ? [loadedSection(loaded, loadedRounds, loadedScripts)] : []),
    ]);
  } finally {
    await stop([...running]);
    await deletePrefix(redis, prefix);
    redis.disconnect();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function rateSection(kinds: Kind[], rates: Map<string, Map<string, Rate>>, durationS: number, connections: number): string[] {
  const rows: string[][] = [];
  const aims: string[] = [];
  for (const kind of kinds) {
    const byLabel = rates.get(kind.name)!;
    const base = byLabel.get(EMBEDDED)!.requestsPerSec;
    for (const [label, rate] of byLabel) {
      const cpu = cpuPerRequest(rate);
      rows.push([
        kind.name,
        label,
        fmtInt(rate.requestsPerSec),
        fmtPct(rate.requestsPerSec / base),
        fmtMs(rate.p50),
        fmtMs(rate.p99),
        cpu === null ? '–' : fmtUs(cpu),
      ]);
    }
    const verdict = (ratio: number) => `${fmtPct(ratio)} (${ratio >= PER_NODE_AIM ? 'met' : 'not met'})`;
    const onRedis = byLabel.get(nodesLabel(1))!;
    const [cpuRedis, cpuEmbedded] = [cpuPerRequest(onRedis), cpuPerRequest(byLabel.get(EMBEDDED)!)];
    const byCpu =
      cpuRedis === null || cpuEmbedded === null
        ? ''
        : `; by the node's CPU per request (${fmtUs(cpuRedis)} on Redis, ${fmtUs(cpuEmbedded)} embedded) ${verdict(cpuEmbedded / cpuRedis)}`;
    aims.push(`- ${kind.name}: one node on Redis, share of the embedded rate: ${verdict(onRedis.requestsPerSec / base)}${byCpu}.`);
  }
  return [
    '## Metered requests per second',
    '',
    `Heidelberg, an Enterprise key with the maps and geocoding scopes. Embedded and one node on Redis: both nodes up, each kind run ${durationS} s on the embedded node, twice on the Redis node, again on the embedded node (\`wrk -t1 -c${connections}\`), each node's two runs as one. 2 and 3 nodes: one \`wrk -t1\` per node for ${durationS} s, ${connections} connections in all, rates summed. p50/p99: the worst run's or node's. CPU: the nodes' (user + system, all threads) per request. ${availableParallelism()} cores, nothing pinned: nodes, wrk and Redis share them, so on a machine others use too the rates swing from run to run; the CPU per request leaves out what other processes took.`,
    '',
    markdownTable(['kind', 'setup', 'req/s', 'of embedded', 'p50', 'p99', 'CPU/request'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r']),
    '',
    `Issue 27's aim, one node on Redis at ≥ ${fmtPct(PER_NODE_AIM)} of the embedded node:`,
    '',
    ...aims,
  ];
}

function latencySection(single: WrkResult[], durationS: number, roundTrips: string, pings: number[]): string[] {
  const [embedded, onRedis] = single as [WrkResult, WrkResult];
  const row = (store: string, r: WrkResult) => [
    store,
    fmtInt(r.requestsPerSec),
    fmtMs(r.latency.p50),
    fmtMs(r.latency.p90),
    fmtMs(r.latency.p99),
  ];
  return [
    '## What Redis adds to one request',
    '',
    `One connection, one node, vector tiles, ${durationS} s.`,
    '',
    markdownTable(
      ['store', 'tiles/s', 'p50', 'p90', 'p99'],
      [row('embedded SQLite', embedded), row('Redis', onRedis)],
      ['l', 'r', 'r', 'r', 'r'],
    ),
    '',
    `- Added to p50 by the Redis store: ${fmtMs(onRedis.latency.p50 - embedded.latency.p50)} (aim: under 0.2 ms).`,
    `- Redis script calls (EVALSHA/EVAL) per metered tile, from INFO commandstats: ${roundTrips}.`,
    `- Redis PING round trip from the benchmark process: p50 ${fmtMs(pings[1000]!)}, p99 ${fmtMs(pings[1980]!)}.`,
  ];
}

function loadedSection(loaded: LoadedResult, rounds: number, scriptCalls: number): string[] {
  const rows = loaded.tallies.map((t) => {
    const others = [...t.statuses].filter(([status]) => status !== 200 && status !== 429 && status !== 503);
    const pct = (p: number) => fmtMs(t.latencies[Math.min(t.latencies.length - 1, Math.floor(t.latencies.length * p))]!);
    return [
      t.label,
      fmtInt(t.latencies.length),
      fmtInt(statusCount(t, 200)),
      fmtInt(statusCount(t, 429)),
      fmtInt(statusCount(t, 503)),
      others.map(([status, n]) => `${n}× ${status}`).join(', ') || '0',
      fmtInt(t.failed),
      pct(0.5),
      pct(0.99),
      pct(1),
    ];
  });
  const unavailable = loaded.tallies.reduce((sum, t) => sum + statusCount(t, 503), 0);
  const messages = [...new Set(loaded.tallies.flatMap((t) => [...t.messages]))];
  return [
    '## Under a machine loaded to twice its cores',
    '',
    `3 nodes on Redis while ${2 * availableParallelism()} busy loops (\`node -e 'for (;;) {}'\`) run; ${rounds} rounds of three bursts of ${BURST} concurrent requests spread over the nodes: searches and tiles of an organization with ${QUOTA} units left of each (expected: ${QUOTA} answered, ${BURST - QUOTA} refused with 429), then searches of an unlimited one. Load average (1 min) ${loaded.load[0].toFixed(1)} as it started, ${loaded.load[1].toFixed(1)} as it ended.`,
    '',
    markdownTable(['burst', 'requests', '200', '429', '503', 'other', 'no answer', 'p50', 'p99', 'slowest'], rows, [
      'l',
      ...Array<'r'>(9).fill('r'),
    ]),
    '',
    `- 503s: ${unavailable} (aim: none).`,
    `- Redis script calls meanwhile (lease grants and reports; INFO commandstats, so any other client of the machine's Redis too): ${fmtInt(scriptCalls)}, ${fmtInt(scriptCalls / (3 * rounds))} per burst.`,
    ...messages.slice(0, 5).map((m) => `- An answer other than 200 or 429: ${m.replaceAll('\n', ' ')}`),
  ];
}

/** Calls of Lua scripts so far, from INFO commandstats. */
async function evalCalls(redis: Redis): Promise<number> {
  const stats = await redis.info('commandstats');
  let calls = 0;
  for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
