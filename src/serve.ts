/** Starts a Waymark node: opens the store in the data folder, listens, and flushes usage on a timer. */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type ServiceRoute } from './app.js';
import { listenForChanges } from './change-channel.js';
import { systemClock, type Clock } from './clock.js';
import { databaseFile } from './config/index.js';
import { SqliteStore } from './control-plane/sqlite/index.js';
import { DatasetHolder } from './dataset/index.js';
import { listen } from './http/server.js';
import { createLogging, type Logging } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { createOperatorApi, operatorOptionsFromEnv, type OperatorOptions } from './operator/index.js';

export interface StartOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  publicUrl?: string;
  usageFlushMs?: number;
  clock?: Clock;
  /** Defaults to JSON lines on stdout at `WAYMARK_LOG_LEVEL`. */
  logging?: Logging;
  /** Service routes beside the product's own (tests mount metered routes of their own). */
  services?: ServiceRoute[];
  /** Operator API settings; by default from WAYMARK_OPERATOR_TOKEN and WAYMARK_REDIS_URL. */
  operator?: OperatorOptions;
}

export interface Waymark {
  url: string;
  port: number;
  store: SqliteStore;
  datasets: DatasetHolder;
  /** Stops listening, writes pending usage and closes the store. */
  close(): Promise<void>;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One server per data folder: quotas are enforced by in-memory counters, which two processes on
 * one SQLite file would not share (use Redis to run several nodes).
 */
function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'serve.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && isRunning(pid)) {
        throw new Error(`another waymark server (pid ${pid}) is serving ${dataDir}; stop it or use another --data folder`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot lock ${dataDir}`);
}

export async function startWaymark(options: StartOptions): Promise<Waymark> {
  const operatorOptions = options.operator ?? operatorOptionsFromEnv();
  mkdirSync(options.dataDir, { recursive: true });
  const unlock = lockDataDir(options.dataDir);
  const clock = options.clock ?? systemClock;
  const logging = options.logging ?? createLogging();
  const { logger } = logging;
  const store = new SqliteStore(databaseFile(options.dataDir), { now: () => clock.now() });
  const datasets = new DatasetHolder(options.dataDir, logger);
  datasets.start();
  const operator = createOperatorApi(options.dataDir, operatorOptions, logger);
  const { handle } = createApp({ datasets, store, clock, logging, metrics: new Metrics(), publicUrl: options.publicUrl, services: options.services, operator });
  const host = options.host ?? '127.0.0.1';
  let server;
  try {
    server = await listen(handle, { host, port: options.port ?? 8080 });
  } catch (error) {
    await store.close();
    unlock();
    throw error;
  }
  const stopServingStore = store.serve();
  const changes = await listenForChanges(databaseFile(options.dataDir), {
    directory: () => store.directory.sync(),
    dataset: () => datasets.reload(),
  });
  const flushTimer = setInterval(() => {
    store.flush().catch((error: unknown) => logger.error({ err: error }, 'usage flush failed; will retry'));
  }, options.usageFlushMs ?? 1000);
  flushTimer.unref();
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${server.port}`,
    port: server.port,
    store,
    datasets,
    async close() {
      clearInterval(flushTimer);
      server.close();
      await operator.close();
      stopServingStore();
      await new Promise((resolve) => changes.close(resolve));
      datasets.stop();
      await store.close();
      unlock();
    },
  };
}
