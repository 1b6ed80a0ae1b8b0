/**
 * A Waymark cluster of real child processes for the multi-node tests: API nodes (`waymark serve`)
 * and import workers (`waymark worker`) on one Redis key prefix of the test's own, a Redis server
 * of the test's own (for restarting it), and the `waymark` CLI against the same Redis. Every child
 * is SIGKILLed and every key under the prefix deleted when the test ends, whatever its outcome.
 */
import type { ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { redisClient } from '../../core/redis.js';
import { controlKeys } from '../../src/control-plane/redis/keys.js';
import { spawnWaymark, waymark, type Run } from './cli.js';
import { deleteKeys, REDIS_URL, TEST_PREFIX_ROOT } from './queue.js';
import { patientTest, WAIT_CEILING_MS } from './waits.js';

export const OPERATOR_TOKEN = 'operator-token-for-cluster-tests-0123456789';

/** A started child process, its stdout kept line by line. */
export interface Child {
  process: ChildProcess;
  lines: string[];
  /**
   * Resolves with the first stdout line matching `pattern`; rejects (with stderr) if the child exits
   * first, or if none comes within `ms` (WAIT_CEILING_MS): a backstop for a hung child.
   */
  line(pattern: RegExp, ms?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** What children and keys are tied to: a test (they go when it ends), or a file's scope (fileScope). */
export type Owner = ExecutionContext | FileScope;

export interface FileScope {
  teardown(fn: () => unknown): void;
  /** Runs the teardowns, last first: in the file's after.always hook. */
  end(): Promise<void>;
}

/** A scope for what a file's tests share (a cluster), ended by the file's after.always hook. */
export function fileScope(): FileScope {
  const teardowns: (() => unknown)[] = [];
  return {
    teardown: (fn) => void teardowns.push(fn),
    async end() {
      for (let teardown = teardowns.pop(); teardown; teardown = teardowns.pop()) await teardown();
    },
  };
}

/** Follows a child's stdout, and SIGKILLs it when its owner ends (if it still runs). */
export function track(t: Owner, process: ChildProcess): Child {
  const lines: string[] = [];
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const exited = once(process, 'exit').then(() => undefined);
  createInterface({ input: process.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wait of waiting.filter((w) => w.pattern.test(line))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(line);
    }
  });
  // Kept for a failure's message; drained so that a chatty child never blocks on a full pipe.
  let stderr = '';
  process.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString().replaceAll('\0', '')).slice(-4000)));
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (process.exitCode === null && process.signalCode === null) process.kill(signal);
    await exited;
  };
  t.teardown(() => kill());
  return {
    process,
    lines,
    kill,
    line(pattern, ms = WAIT_CEILING_MS) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const fail = (why: string) => () =>
          reject(new Error(`${process.spawnargs.slice(1, 3).join(' ')} ${why} before printing ${pattern}; stderr: ${stderr}`));
        const timer = setTimeout(fail(`waited ${ms} ms`), ms);
        waiting.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
        void exited.then(() => (clearTimeout(timer), fail(`exited (${process.exitCode ?? process.signalCode})`)()));
      });
    },
  };
}

/** A free TCP port on loopback (free when asked; nothing holds it after). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A redis-server of the test's own, stopped and started again on the same port and folder; every write is fsynced (AOF, always). */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  /** SIGTERM, as a service manager stops it; resolves once it has exited. */
  stop(): Promise<void>;
  /**
   * SIGSTOP: a hung Redis. Connections stay open (the kernel still accepts new ones) and nothing is
   * answered; `resume` (SIGCONT) and it runs everything sent meanwhile.
   */
  pause(): void;
  resume(): void;
}

export async function ownRedis(t: ExecutionContext, dir: string): Promise<OwnRedis> {
  patientTest(t);
  const port = await freePort();
  let current: Child | undefined;
  const redis: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const args = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ];
      current = track(t, spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
      await current.line(/Ready to accept connections/);
    },
    stop: async () => current?.kill('SIGTERM'),
    pause: () => void current!.process.kill('SIGSTOP'),
    resume: () => void current!.process.kill('SIGCONT'),
  };
  await redis.start();
  return redis;
}

/** An API node: `waymark serve --port 0`, its URL read from its banner. */
export interface ApiNode extends Child {
  url: string;
}

export interface Cluster {
  redisUrl: string;
  prefix: string;
  /** The WAYMARK_* environment of every process of the cluster. */
  env: Record<string, string>;
  /** A node; `env` adds to (or overrides) the cluster's environment. */
  startNode(env?: Record<string, string>): Promise<ApiNode>;
  /** A worker logging at info level ("import started", "import completed"). */
  startWorker(env?: Record<string, string>): Promise<Child>;
  /** `waymark ARGS --data DIR` against the cluster's Redis. */
  cli(args: string[]): Promise<Run>;
  /** `waymark ARGS --json`, parsed; throws with stderr on a non-zero exit. */
  cliJson(args: string[]): Promise<any>;
}

let counter = 0;

/** A cluster on a data folder; nodes and workers are started by the test (or the tests of a file scope). */
export function cluster(t: Owner, dataDir: string, redisUrl = REDIS_URL): Cluster {
  if ('timeout' in t) patientTest(t);
  const prefix = `${TEST_PREFIX_ROOT}-cluster-${++counter}`;
  const env = {
    WAYMARK_REDIS_URL: redisUrl,
    WAYMARK_REDIS_PREFIX: prefix,
    WAYMARK_OPERATOR_TOKEN: OPERATOR_TOKEN,
    WAYMARK_LOG_LEVEL: 'warn',
  };
  // Registered first, so it runs last: after every child has been killed.
  t.teardown(() => deleteKeys(`${prefix}:*`).catch(() => {}));
  const cli = (args: string[]) => waymark([...args, '--data', dataDir], env);
  return {
    redisUrl,
    prefix,
    env,
    cli,
    async startNode(extra = {}) {
      const node = track(t, spawnWaymark(['serve', '--port', '0', '--data', dataDir], { ...env, ...extra }));
      const banner = await node.line(/^Waymark is listening on /);
      return { ...node, url: /listening on (http:\/\/\S+)/.exec(banner)![1]! };
    },
    async startWorker(extra = {}) {
      const worker = track(t, spawnWaymark(['worker', '--data', dataDir], { ...env, WAYMARK_LOG_LEVEL: 'info', ...extra }));
      await worker.line(/worker waiting for import jobs/);
      return worker;
    },
    async cliJson(args) {
      const run = await cli([...args, '--json']);
      if (run.code !== 0) throw new Error(`waymark ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout);
    },
  };
}

/** An organization with a key, made with the CLI; Enterprise with `maps=N` quotas when given. */
export async function cliCustomer(cluster: Cluster, quota?: string): Promise<{ org: string; key: string; keyId: string }> {
  const org = `org-${cluster.prefix}-${++counter}`;
  await cluster.cliJson(['user', 'create', '--email', `${org}@example.com`, '--password', 'correct horse battery', '--org', org]);
  if (quota) await cluster.cliJson(['org', 'set-tier', '--org', org, '--tier', 'enterprise', '--quota', quota]);
  const key = await cluster.cliJson(['key', 'create', '--org', org, '--name', 'load', '--scopes', 'maps']);
  return { org, key: key.value as string, keyId: key.id as string };
}

/** `waymark usage` of a service: the units counted this month. */
export async function usedUnits(cluster: Cluster, org: string, service = 'maps'): Promise<number> {
  return (await cluster.cliJson(['usage', '--org', org])).services[service].used;
}

/** The Redis key of an organization's quota counters this month. */
export async function monthUsageKey(cluster: Cluster, org: string): Promise<string> {
  const { organization, period } = await cluster.cliJson(['usage', '--org', org]);
  return controlKeys(cluster.prefix).monthUsage(organization.id, period.start.slice(0, 7));
}

/**
 * The quota counters of a service this month as Redis holds them (scripts.ts): units served and
 * reported, units out on the nodes' leases, and units of lapsed leases never reported (lost).
 */
export async function monthCounters(
  cluster: Pick<Cluster, 'redisUrl'>,
  usageKey: string,
  service = 'maps',
): Promise<{ served: number; leased: number; lost: number }> {
  const client = redisClient({ url: cluster.redisUrl, prefix: '' });
  try {
    const usage = await client.hgetall(usageKey);
    const count = (field: string) => Number(usage[field] ?? 0);
    return { served: count(service), leased: count(`leased:${service}`), lost: count(`lost:${service}`) };
  } finally {
    client.disconnect();
  }
}

/** The largest stored tile of the served dataset: its XYZ path and its bytes as a client gets them (inflated). */
export function largestTile(dataDir: string): { path: string; bytes: Buffer } {
  const db = new Database(join(dataDir, 'current', 'tiles.mbtiles'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(
        'SELECT zoom_level AS z, tile_column AS x, tile_row AS tmsY, tile_data AS data FROM tiles ORDER BY length(tile_data) DESC LIMIT 1',
      )
      .get() as { z: number; x: number; tmsY: number; data: Buffer };
    const y = 2 ** row.z - 1 - row.tmsY; // MBTiles rows count from the south.
    return { path: `/api/v1/tiles/shortbread/${row.z}/${row.x}/${y}.pbf`, bytes: gunzipSync(row.data) };
  } finally {
    db.close();
  }
}

/** The dashboard API of a node, as a browser uses it: a session cookie and the CSRF header. */
export interface DashboardSession {
  orgId: string;
  call(method: string, path: string, body?: unknown): Promise<Response>;
}

export async function signUp(nodeUrl: string, email: string): Promise<DashboardSession> {
  const res = await fetch(`${nodeUrl}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { csrfToken, organization } = (await res.json()) as { csrfToken: string; organization: { id: string } };
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return {
    orgId: organization.id,
    call: (method, path, body) =>
      fetch(`${nodeUrl}/dashboard/api${path}`, {
        method,
        headers: { cookie, 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}
