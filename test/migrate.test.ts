/** `waymark migrate --to-redis`: an embedded control plane copied into Redis, then served from there. */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { hashKey } from '../src/control-plane/keys.js';
import { createPasswordReset, resetPassword } from '../src/control-plane/password-changes.js';
import { RedisStore } from '../src/control-plane/redis/index.js';
import { SqliteStore } from '../src/control-plane/sqlite/index.js';
import { databaseFile } from '../core/config.js';
import { waymark } from './helpers/cli.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

test('migrate --to-redis copies accounts, keys (revoked too), tiers, usage, sessions and reset links; a second run is refused', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-migrate-'));
  const settings = { url: REDIS_URL, prefix: `waymark-test-migrate-${randomBytes(4).toString('hex')}` };
  const redisEnv = { WAYMARK_REDIS_URL: settings.url, WAYMARK_REDIS_PREFIX: settings.prefix };
  t.teardown(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    const client = new Redis(REDIS_URL);
    for await (const keys of client.scanStream({ match: `${settings.prefix}:*`, count: 500 }))
      if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
    client.disconnect();
  });
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const run = await waymark([...args, '--data', dataDir, '--json'], env);
    t.is(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  await cli(['user', 'create', '--email', 'owner@acme.example', '--password', 'a long password', '--org', 'Acme']);
  await cli(['org', 'set-tier', '--org', 'Acme', '--tier', 'pro']);
  const kept = await cli(['key', 'create', '--org', 'Acme', '--name', 'kept', '--scopes', 'maps,routing']);
  const gone = await cli(['key', 'create', '--org', 'Acme', '--name', 'gone']);
  await cli(['key', 'revoke', '--org', 'Acme', '--id', gone.id]);
  const sqlite = new SqliteStore(databaseFile(dataDir));
  const org = (await sqlite.findOrgByName('Acme'))!;
  sqlite.recordUsage([{ orgId: org.id, keyId: kept.id, service: 'routing', day: '2026-11-03', count: 7 }]);
  const owner = (await sqlite.findUserByEmail('owner@acme.example'))!;
  const session = { hash: 'session-of-the-owner', userId: owner.id, expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
  await sqlite.createSession(session);
  const reset = await createPasswordReset(sqlite, owner, Date.now());
  await sqlite.close();

  const copied = await cli(['migrate', '--to-redis'], redisEnv);
  t.like(copied.copied, { organizations: 1, users: 1, keys: 2, usageRows: 1 });

  const store = await RedisStore.open(settings);
  t.teardown(() => store.close());
  t.like(await store.findOrgByName('acme'), { id: org.id, tier: 'pro' });
  t.like(await store.findUserByEmail('owner@acme.example'), { orgId: org.id });
  t.like(store.directory.keyByHash(hashKey(kept.value)), { id: kept.id, status: 'active', scopes: ['maps', 'routing'] });
  t.like(store.directory.keyByHash(hashKey(gone.value)), { id: gone.id, status: 'revoked' });
  t.deepEqual(await store.usageByKey(org.id, '2026-11-01', '2026-11-30'), [
    { keyId: kept.id, used: { maps: 0, geocoding: 0, routing: 7 } },
  ]);
  t.is(await store.ledger.used(org.id, 'routing', '2026-11'), 7);
  // The session and the reset link came along, the session in its user's index: using the link ends it.
  t.like(await store.findSession(session.hash, new Date().toISOString()), { userId: owner.id });
  t.like(await resetPassword(store, reset.token, 'a new long password', Date.now()), { id: owner.id });
  t.is(await store.findSession(session.hash, new Date().toISOString()), null);

  const again = await waymark(['migrate', '--to-redis', '--data', dataDir], redisEnv);
  t.is(again.code, 1);
  t.regex(again.stderr, /already holds a control plane/);
});
