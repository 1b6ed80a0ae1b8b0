/** The import queue's Redis for the commands that need it (`worker`, `import --queue`). */
import { redisSettingsFromEnv, type RedisSettings } from '../../core/redis-settings.js';
import { UsageError } from './command.js';

/** The queue's Redis; a usage error (exit 2) naming WAYMARK_REDIS_URL when it is not configured or malformed. */
export function requireRedis(what: string): RedisSettings {
  let settings: RedisSettings | null;
  try {
    settings = redisSettingsFromEnv();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!settings) throw new UsageError(`${what} needs WAYMARK_REDIS_URL (e.g. redis://127.0.0.1:6379), the Redis of the import queue`);
  return settings;
}
