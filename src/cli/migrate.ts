/** `waymark migrate --to-redis`: moves the control plane of a data folder into the Redis of WAYMARK_REDIS_URL. */
import { existsSync } from 'node:fs';
import { probeRedis, redisClient } from '../../core/redis.js';
import { redactedUrl } from '../../core/redis-url.js';
import { databaseFile } from '../../core/config.js';
import { copySqliteToRedis, holdsControlPlane } from '../control-plane/redis/from-sqlite.js';
import { controlKeys } from '../control-plane/redis/keys.js';
import { CliError, UsageError, type CommandRun } from './command.js';
import { requireRedis } from './queue-redis.js';

export const run: CommandRun = async (input) => {
  if (!input.isSet('to-redis')) throw new UsageError('migrate needs --to-redis (the only migration there is)');
  const file = databaseFile(input.dataDir);
  if (!existsSync(file)) throw new CliError(`no Waymark database in ${input.dataDir}; pass the --data folder the server uses`);
  const settings = requireRedis('waymark migrate --to-redis');
  await probeRedis(settings);
  const client = redisClient(settings, { maxRetriesPerRequest: 1 });
  try {
    const names = controlKeys(settings.prefix);
    if (await holdsControlPlane(client, names)) {
      throw new CliError(
        `Redis at ${redactedUrl(settings.url)} already holds a control plane under the prefix ${JSON.stringify(settings.prefix)}; nothing was copied`,
      );
    }
    const counts = await copySqliteToRedis(file, client, names, new Date().toISOString());
    const target = `${redactedUrl(settings.url)} (prefix ${settings.prefix})`;
    return {
      text:
        `Copied to ${target}: ${counts.organizations} organizations, ${counts.users} users, ${counts.keys} API keys, ` +
        `${counts.invitations} invitations, ${counts.sessions} sessions, ${counts.usageRows} usage rows.`,
      json: { redis: { url: redactedUrl(settings.url), prefix: settings.prefix }, copied: counts },
    };
  } finally {
    client.disconnect();
  }
};
