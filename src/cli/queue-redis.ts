/** The import queue's Redis for the commands that need it (`worker`, `import --queue`). */
import { redisSettingsFromEnv, type RedisSettings } from '../../data-pipeline/queue/settings.js';
import { UsageError } from './command.js';

/** The queue's Redis; a usage error (exit 2) naming WAYMARK_REDIS_URL when it is not configured. */
export function requireRedis(what: string): RedisSettings {
  const settings = redisSettingsFromEnv();
  if (!settings) throw new UsageError(`${what} needs WAYMARK_REDIS_URL (e.g. redis://127.0.0.1:6379), the Redis of the import queue`);
  return settings;
}
