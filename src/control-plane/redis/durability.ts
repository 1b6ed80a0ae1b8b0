/** Whether the Redis the control plane lives in keeps acknowledged writes across a crash. */
import type { Redis } from 'ioredis';
import { fromPairs } from './records.js';

/**
 * Why the server's Redis might lose acknowledged writes (usage counts, revocations) on a crash:
 * warnings when AOF is off or not fsynced at least every second. Managed Redis often disables
 * CONFIG; then one warning says the setting could not be checked.
 */
export async function checkRedisDurability(client: Redis): Promise<string[]> {
  let config: string[];
  try {
    config = (await client.call('CONFIG', 'GET', 'append*')) as string[];
  } catch (error) {
    return [
      `could not check the Redis persistence settings (${(error as Error).message}); make sure AOF is on (appendonly yes, appendfsync everysec)`,
    ];
  }
  const setting = fromPairs(config);
  const warnings: string[] = [];
  if (setting.appendonly !== 'yes') {
    warnings.push(
      'Redis runs without AOF (appendonly is not yes): a restart loses usage counts and account changes since the last snapshot',
    );
  }
  const fsync = setting.appendfsync;
  if (fsync !== 'everysec' && fsync !== 'always') {
    warnings.push(`Redis appendfsync is ${fsync ?? 'unknown'}, not everysec or always: a crash may lose more than a second of writes`);
  }
  return warnings;
}
