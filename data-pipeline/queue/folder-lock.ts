/**
 * One import per data folder across machines: a Redis key per data folder, held by the job that
 * imports into it and renewed while it runs. The pipeline's own DATA/import.lock holds a pid, which
 * only the machine that wrote it can check; workers on several machines sharing one data folder
 * need this lock as well.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisClient } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { IMPORT_QUEUE_NAME } from './settings.js';

/** The lock lapses this long after its holder stops renewing it (a crashed worker). */
const HOLD_MS = 60_000;
const RENEW_EVERY_MS = HOLD_MS / 3;

/** Deletes or extends the key only while it still holds the caller's job id. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;

export class FolderLock {
  private readonly client: Redis;
  private readonly key: string;

  constructor(settings: RedisSettings, dataDir: string) {
    this.client = redisClient(settings, { maxRetriesPerRequest: null });
    this.client.on('error', () => {}); // The worker's own connection reports Redis trouble.
    this.key = `${settings.prefix}:${IMPORT_QUEUE_NAME}:folder-lock:${createHash('sha256').update(dataDir).digest('hex').slice(0, 32)}`;
  }

  /** The job id holding the lock, or null once `holder` holds it (also when it held it already: a job run again after a stall). */
  async acquire(holder: string): Promise<string | null> {
    if ((await this.client.set(this.key, holder, 'PX', HOLD_MS, 'NX')) === 'OK') return null;
    const current = await this.client.get(this.key);
    if (current === null) return this.acquire(holder); // Released meanwhile.
    return current === holder ? null : current;
  }

  /** Runs `work` while holding the lock for `holder` (which `acquire` gave it), then releases it. */
  async hold<T>(holder: string, work: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => void this.client.eval(RENEW, 1, this.key, holder, HOLD_MS).catch(() => {}), RENEW_EVERY_MS);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      await this.client.eval(RELEASE, 1, this.key, holder).catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
