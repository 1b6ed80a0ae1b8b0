/** The Redis settings a cluster node checks at start: warnings when acknowledged writes could be lost. */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { checkRedisDurability } from '../src/control-plane/redis/durability.js';
import { ownRedis } from './helpers/cluster.js';

test('AOF with fsync every write or second passes; AOF off or a lazier fsync is named', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-durability-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const redis = await ownRedis(t, dir);
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());

  t.deepEqual(await checkRedisDurability(client), [], 'appendonly yes, appendfsync always');
  await client.config('SET', 'appendfsync', 'everysec');
  t.deepEqual(await checkRedisDurability(client), [], 'appendfsync everysec');
  await client.config('SET', 'appendfsync', 'no');
  t.deepEqual(await checkRedisDurability(client), [
    'Redis appendfsync is no, not everysec or always: a crash may lose more than a second of writes',
  ]);
  await client.config('SET', 'appendonly', 'no');
  const warnings = await checkRedisDurability(client);
  t.is(warnings.length, 2);
  t.regex(warnings[0]!, /without AOF/);
});
