/**
 * Starts a Waymark node: opens the control-plane store (the SQLite file of the data folder, or Redis
 * with WAYMARK_REDIS_URL), listens, and flushes usage on a timer.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, DATASET_SOURCES } from './app.js';
import type { ServiceRoute } from './gateway/index.js';
import { listenForChanges } from '../core/change-channel.js';
import { takePidLock } from '../core/pid-lock.js';
import { systemClock, type Clock } from './clock.js';
import { databaseFile, setting } from '../core/config.js';
import { redisSettingsFromEnv, type RedisSettings } from '../core/redis-settings.js';
import { joinCluster } from './cluster/node.js';
import { RedisStore } from './control-plane/redis/index.js';
import { SqliteStore } from './control-plane/sqlite/index.js';
import type { ControlStore } from './control-plane/store.js';
import { DatasetHolder } from './dataset/index.js';
import { CidrSet } from '../core/cidr.js';
import { listen } from './http/server.js';
import { createLogging, type Logging } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { createOperatorApi, operatorOptionsFromEnv, type OperatorOptions } from './operator/index.js';

export interface StartOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Worker threads of the routing pool; default 1. */
  threads?: number;
  publicUrl?: string;
  usageFlushMs?: number;
  clock?: Clock;
  /** Defaults to JSON lines on stdout at `WAYMARK_LOG_LEVEL`. */
  logging?: Logging;
  /** Service routes beside the product's own (tests mount metered routes of their own). */
  services?: ServiceRoute[];
  /** Operator API settings; by default from WAYMARK_OPERATOR_TOKEN and WAYMARK_REDIS_URL. */
  operator?: OperatorOptions;
  /** The cluster's Redis, holding the control plane; by default WAYMARK_REDIS_URL, null for the embedded SQLite store. */
  redis?: RedisSettings | null;
  /** Reverse proxies whose X-Forwarded-* headers are believed (the client, the host, the scheme); by default WAYMARK_TRUSTED_PROXIES. */
  trustedProxies?: CidrSet;
}

export interface Waymark {
  url: string;
  port: number;
  store: ControlStore;
  datasets: DatasetHolder;
  /** Stops listening, writes pending usage and closes the store. */
  close(): Promise<void>;
}

/**
 * One server per data folder on the embedded store: quotas are enforced by in-memory counters,
 * which two processes on one SQLite file would not share (with Redis, any number of nodes may serve
 * one folder). The same process may serve a folder again after closing it.
 */
function lockDataDir(dataDir: string): () => void {
  return takePidLock(join(dataDir, 'serve.lock'), (pid) =>
    pid === process.pid
      ? new Error(`this process already serves ${dataDir}`)
      : new Error(`another waymark server (pid ${pid}) is serving ${dataDir}; stop it or use another --data folder`),
  );
}

export async function startWaymark(options: StartOptions): Promise<Waymark> {
  const operatorOptions = options.operator ?? operatorOptionsFromEnv();
  mkdirSync(options.dataDir, { recursive: true });
  const redis = options.redis === undefined ? redisSettingsFromEnv() : options.redis;
  const trustedProxies = options.trustedProxies ?? CidrSet.parse(setting('trustedProxies'));
  const clock = options.clock ?? systemClock;
  const logging = options.logging ?? createLogging();
  const { logger } = logging;
  const now = () => clock.now();
  const host = options.host ?? '127.0.0.1';
  // What has been started, undone in reverse order by close() — or at once when a later step fails.
  const started: (() => unknown)[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const undo of started.reverse()) await undo();
    })());
  try {
    if (!redis) started.push(lockDataDir(options.dataDir));
    const redisStore = redis ? await RedisStore.open(redis, { now }) : null;
    const store: ControlStore = redisStore ?? new SqliteStore(databaseFile(options.dataDir), { now });
    started.push(() => store.close());
    const datasets = new DatasetHolder(options.dataDir, logger, options.threads ?? 1, DATASET_SOURCES);
    datasets.start();
    started.push(() => datasets.stop());
    const operator = createOperatorApi(options.dataDir, operatorOptions, logger);
    started.push(() => operator.close());
    const { handle, longUrlPaths } = createApp({
      datasets,
      store,
      clock,
      logging,
      metrics: new Metrics(),
      publicUrl: options.publicUrl,
      services: options.services,
      operator,
      trustedProxies,
    });
    const server = await listen(handle, { host, port: options.port ?? 8080, longUrlPaths });
    started.push(() => server.close());
    started.push(store.serve());
    const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    const url = `http://${urlHost}:${server.port}`;
    if (redis && redisStore) {
      const cluster = await joinCluster(redis, redisStore.redis, {
        url,
        listenHost: host,
        dataDir: options.dataDir,
        datasets,
        operatorToken: operatorOptions.token,
        logger,
      });
      started.push(() => cluster.leave());
    } else {
      // Other processes on this machine (the CLI, an import) announce their writes to the serving
      // node; on Redis, changes come through Redis and several nodes may serve one folder.
      const changes = await listenForChanges(databaseFile(options.dataDir), {
        directory: () => store.directory.sync(),
        dataset: () => datasets.reload(),
      });
      started.push(() => new Promise((resolve) => changes.close(resolve)));
    }
    const flushTimer = setInterval(() => {
      store.flush().catch((error: unknown) => logger.error({ err: error }, 'usage flush failed; will retry'));
    }, options.usageFlushMs ?? 1000);
    flushTimer.unref();
    started.push(() => clearInterval(flushTimer));
    return { url, port: server.port, store, datasets, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
