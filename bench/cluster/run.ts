/**
 * Issue 13's cluster benchmark, on Heidelberg imported once into one data folder that every node
 * serves: authenticated, metered requests per second and latency through `waymark serve` with the
 * embedded SQLite store on one node, and with the Redis store (the machine's Redis, a fresh key
 * prefix) on 1, 2 and 3 nodes:
 * - vector tiles (every stored z10–14 tile, shuffled) and geocoding searches (a fixed list), each
 *   by one `wrk -t1` per node, together `--connections` connections, the rates summed;
 * - the latency one request adds with Redis: one connection, one node, embedded vs Redis (p50);
 * - Redis round trips per metered request, from INFO commandstats, and Redis' own PING round trip.
 * Nothing is pinned: the nodes, wrk and Redis share the machine's cores, so on a 2-core machine
 * more nodes cannot add throughput (the report says so); the per-request costs still compare.
 *
 *   npm run bench:cluster [-- --duration 10 --connections 48 --max-nodes 3]
 *
 * `--max-nodes 1` runs only the embedded store and one node on Redis (the per-node comparison).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { ServerChild } from '../lib/child.js';
import { fmtInt, fmtMs, markdownTable, publishReport, describeSource } from '../lib/report.js';
import { seededRandom, shuffle, writeWrkScript } from '../lib/request-list.js';
import { runWrk, type WrkResult } from '../lib/wrk.js';
import { tileCoords } from '../maps/mbtiles.js';
import { createEnterpriseKey, importArgs, importedMbtiles, startWaymarkServe } from '../maps/waymark.js';

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

interface Setup {
  label: string;
  /** WAYMARK_* settings of its nodes; none for the embedded store. */
  env: Record<string, string>;
  nodes: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '48' },
      'max-nodes': { type: 'string', default: '3' },
    },
  });
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  const maxNodes = Number(values['max-nodes']);
  const source = describeSource();
  const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-cluster-'));
  const dataDir = join(workDir, 'data');
  const prefix = `waymark-bench-${process.pid}`;
  const redisEnv = { WAYMARK_REDIS_URL: REDIS_URL, WAYMARK_REDIS_PREFIX: prefix };
  const redis = new Redis(REDIS_URL);
  const running: ServerChild[] = [];
  try {
    const imported = spawnSync(process.execPath, importArgs(HEIDELBERG, dataDir), { stdio: ['ignore', 'ignore', 'inherit'] });
    if (imported.status !== 0) throw new Error('the Heidelberg import failed');
    const keys: Record<string, string> = { embedded: createEnterpriseKey(dataDir, ['maps', 'geocoding']) };
    Object.assign(process.env, redisEnv); // the CLI commands of createEnterpriseKey use the Redis store
    keys.redis = createEnterpriseKey(dataDir, ['maps', 'geocoding']);
    for (const name of Object.keys(redisEnv)) delete process.env[name];

    const random = seededRandom(21);
    const tilePaths = shuffle(tileCoords(importedMbtiles(dataDir), 10, 14), random).map(
      (t) => `/api/v1/tiles/shortbread/${t.z}/${t.x}/${t.y}.pbf`,
    );
    const searchPaths = SEARCHES.map((text) => `/api/v1/geocoding/search?text=${encodeURIComponent(text)}`);
    const script = (name: string, paths: string[], key: string) => {
      const file = join(workDir, `${name}.lua`);
      writeWrkScript(
        file,
        paths.map((p) => `${p}${p.includes('?') ? '&' : '?'}key=${key}`),
      );
      return file;
    };

    const setups: Setup[] = [
      { label: 'embedded SQLite, 1 node', env: {}, nodes: 1 },
      ...[1, 2, 3]
        .filter((nodes) => nodes <= maxNodes)
        .map((nodes) => ({ label: `Redis, ${nodes} node${nodes > 1 ? 's' : ''}`, env: redisEnv, nodes })),
    ];
    const rows: string[][] = [];
    const single: Record<string, WrkResult> = {};
    let roundTrips = '';
    for (const setup of setups) {
      const key = setup.env.WAYMARK_REDIS_URL ? keys.redis! : keys.embedded!;
      const nodes: ServerChild[] = [];
      for (let i = 0; i < setup.nodes; i++)
        nodes.push(
          await startWaymarkServe(dataDir, undefined, {
            name: `${setup.label} #${i + 1}`,
            env: { ...setup.env, WAYMARK_LOG_LEVEL: 'warn' },
          }),
        );
      running.push(...nodes);
      const rates: string[] = [];
      for (const [kind, paths] of [
        ['tiles', tilePaths],
        ['searches', searchPaths],
      ] as const) {
        const file = script(kind, paths, key);
        const before = setup.env.WAYMARK_REDIS_URL ? await evalCalls(redis) : 0;
        const results = await Promise.all(
          nodes.map((node) =>
            runWrk({
              url: `http://127.0.0.1:${node.port}/`,
              connections: Math.max(1, Math.round(connections / nodes.length)),
              durationS,
              script: file,
              headers: { 'Accept-Encoding': 'gzip' },
            }),
          ),
        );
        const bad = results.reduce((sum, r) => sum + r.non2xx, 0);
        if (bad > 0) throw new Error(`${setup.label}, ${kind}: ${bad} answers outside 2xx/3xx`);
        const total = results.reduce((sum, r) => sum + r.requestsPerSec, 0);
        const requests = results.reduce((sum, r) => sum + r.requests, 0);
        if (setup.env.WAYMARK_REDIS_URL && setup.nodes === 1 && kind === 'tiles')
          roundTrips = (((await evalCalls(redis)) - before) / requests).toFixed(2);
        rates.push(
          fmtInt(total),
          fmtMs(Math.max(...results.map((r) => r.latency.p50))),
          fmtMs(Math.max(...results.map((r) => r.latency.p99))),
        );
        console.error(`${setup.label}, ${kind}: ${fmtInt(total)} req/s`);
      }
      if (setup.nodes === 1) {
        single[setup.label] = await runWrk({
          url: `http://127.0.0.1:${nodes[0]!.port}/`,
          connections: 1,
          durationS,
          script: script('tiles', tilePaths, key),
          headers: { 'Accept-Encoding': 'gzip' },
        });
      }
      rows.push([setup.label, ...rates]);
      for (const node of nodes) await node.stop();
      running.length = 0;
    }

    const pings: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const started = performance.now();
      await redis.ping();
      pings.push(performance.now() - started);
    }
    pings.sort((a, b) => a - b);
    const embedded = single['embedded SQLite, 1 node']!;
    const onRedis = single['Redis, 1 node']!;
    publishReport('cluster', 'Cluster: nodes on the Redis store vs the embedded store', source, [
      [
        '## Metered requests per second',
        '',
        `Heidelberg, Enterprise key with maps and geocoding scopes. Per setup and request kind: one \`wrk -t1\` per node for ${durationS} s, ${connections} connections in all, rates summed; p50/p99: the worst node's. ${availableParallelism()} cores, nothing pinned: nodes, wrk and Redis share them.`,
        '',
        markdownTable(['setup', 'tiles/s', 'tiles p50', 'tiles p99', 'searches/s', 'searches p50', 'searches p99'], rows, [
          'l',
          'r',
          'r',
          'r',
          'r',
          'r',
          'r',
        ]),
      ],
      [
        '## What Redis adds to one request',
        '',
        `One connection, one node, vector tiles, ${durationS} s.`,
        '',
        markdownTable(
          ['store', 'tiles/s', 'p50', 'p90', 'p99'],
          [
            [
              'embedded SQLite',
              fmtInt(embedded.requestsPerSec),
              fmtMs(embedded.latency.p50),
              fmtMs(embedded.latency.p90),
              fmtMs(embedded.latency.p99),
            ],
            ['Redis', fmtInt(onRedis.requestsPerSec), fmtMs(onRedis.latency.p50), fmtMs(onRedis.latency.p90), fmtMs(onRedis.latency.p99)],
          ],
          ['l', 'r', 'r', 'r', 'r'],
        ),
        '',
        `- Added to p50 by the Redis store: ${fmtMs(onRedis.latency.p50 - embedded.latency.p50)} (aim: under 0.2 ms).`,
        `- Redis script calls (EVALSHA/EVAL) per metered tile, from INFO commandstats: ${roundTrips}.`,
        `- Redis PING round trip from the benchmark process: p50 ${fmtMs(pings[1000]!)}, p99 ${fmtMs(pings[1980]!)}.`,
      ],
    ]);
  } finally {
    for (const node of running) await node.stop();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Calls of Lua scripts so far, from INFO commandstats. */
async function evalCalls(redis: Redis): Promise<number> {
  const stats = await redis.info('commandstats');
  let calls = 0;
  for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
