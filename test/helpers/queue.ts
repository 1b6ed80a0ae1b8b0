/**
 * Import-queue fixtures against the real Redis on 127.0.0.1:6379: a key prefix of the test's own
 * (so tests never see each other's jobs), workers and servers closed when the test ends, and every
 * key under the prefix deleted after them. Also the OSM inputs of import-job tests.
 */
import type { ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisSettings } from '../../core/redis-settings.js';
import { startImportWorker } from '../../data-pipeline/queue/worker.js';
import { silentLogging } from '../../src/observability/logger.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { patientTest } from './waits.js';

export const REDIS_URL = process.env.WAYMARK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every test prefix starts with this, so a last check can find anything left behind. */
export const TEST_PREFIX_ROOT = `waymark-test-${process.pid}`;

/** A small hand-written OSM XML extract (streets, a building, a café). */
export const SMALL_OSM = join(PACKAGE_ROOT, 'test', 'fixtures', 'osm', 'queue-small.osm');

export interface QueueFixture {
  redis: RedisSettings;
  /** A worker for the data folder, closed (before the keys are deleted) when the test ends. */
  startWorker(dataDir: string): ReturnType<typeof startImportWorker>;
  /** Runs `close` when the test ends, before the worker and the keys go. */
  onEnd(close: () => Promise<unknown> | void): void;
}

let counter = 0;

/** Deletes every key under the prefix; resolves to how many there were. */
export async function deleteKeys(pattern: string): Promise<number> {
  const client = new Redis(REDIS_URL);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await client.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    client.disconnect();
  }
}

export function queueFixture(t: ExecutionContext): QueueFixture {
  patientTest(t);
  const redis = { url: REDIS_URL, prefix: `${TEST_PREFIX_ROOT}-${++counter}-${randomBytes(3).toString('hex')}` };
  const closers: (() => Promise<unknown> | void)[] = [];
  const workers: ReturnType<typeof startImportWorker>[] = [];
  t.teardown(async () => {
    for (const close of closers.reverse()) await close();
    await Promise.all(workers.map((worker) => worker.close()));
    await deleteKeys(`${redis.prefix}:*`);
  });
  return {
    redis,
    startWorker(dataDir) {
      const worker = startImportWorker(redis, dataDir, silentLogging().logger);
      workers.push(worker);
      return worker;
    },
    onEnd: (close) => void closers.push(close),
  };
}

/** A temporary folder removed when its owner (a test, or a file's scope) ends. */
export function tempDir(t: { teardown(fn: () => unknown): void }, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `waymark-${name}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A file named like an OSM PBF extract whose content is not one. */
export function corruptPbf(t: ExecutionContext): string {
  const file = join(tempDir(t, 'corrupt'), 'broken.osm.pbf');
  writeFileSync(file, Buffer.concat([Buffer.from([0, 0, 0, 13]), randomBytes(4096)]));
  return file;
}
