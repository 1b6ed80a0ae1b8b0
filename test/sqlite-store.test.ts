import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/control-plane/accounts.js';
import { hashKey } from '../src/control-plane/keys.js';
import { SqliteStore } from '../src/control-plane/sqlite/index.js';
import { SCHEMA_STEPS } from '../src/control-plane/sqlite/schema.js';
import type { ApiKeyRecord } from '../src/control-plane/types.js';

function tempFile(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'waymark.db');
}

test('the directory sees keys and tiers written by another connection on its next sync', async (t) => {
  const file = tempFile(t);
  const server = new SqliteStore(file);
  const cli = new SqliteStore(file);
  const { org } = await cli.createUserWithOrg({ email: 'a@example.com', passwordHash: 'x', orgName: 'acme' });
  const { key, value } = await createKey(cli, org.id, { name: 'k' }, Date.now());

  server.directory.sync();
  t.is(server.directory.keyByHash(hashKey(value))?.status, 'active');
  t.is(server.directory.org(org.id)?.tier, 'free');

  await cli.revokeKey(org.id, key.id, new Date().toISOString());
  await cli.setTier(org.id, 'enterprise', { maps: 5 });
  server.directory.sync();
  t.is(server.directory.keyByHash(hashKey(value))?.status, 'revoked');
  t.deepEqual(server.directory.org(org.id)?.customQuotas, { maps: 5 });
  await cli.close();
  await server.close();
});

test('flushed usage is reported per key and day, and unflushed usage is reported too', async (t) => {
  const store = new SqliteStore(tempFile(t));
  const { org } = await store.createUserWithOrg({ email: 'b@example.com', passwordHash: 'x', orgName: 'b' });
  store.ledger.commit(
    store.ledger.reserve({
      org,
      key: { id: 'key_a' } as ApiKeyRecord,
      service: 'maps',
      month: '2026-11',
      day: '2026-11-02',
      limit: null,
      units: 1,
    }),
  );
  await store.flush();
  store.ledger.commit(
    store.ledger.reserve({
      org,
      key: { id: 'key_a' } as ApiKeyRecord,
      service: 'maps',
      month: '2026-11',
      day: '2026-11-03',
      limit: null,
      units: 1,
    }),
  );
  t.deepEqual(await store.usageByKey(org.id, '2026-11-01', '2026-11-30'), [
    { keyId: 'key_a', used: { maps: 2, geocoding: 0, routing: 0 } },
  ]);
  t.deepEqual(await store.usageByDay(org.id, '2026-11-01', '2026-11-30'), [
    { day: '2026-11-02', service: 'maps', count: 1 },
    { day: '2026-11-03', service: 'maps', count: 1 },
  ]);
  await store.close();
});

test('usage written before a restart is the starting count of the month', async (t) => {
  const file = tempFile(t);
  const first = new SqliteStore(file, { now: () => Date.parse('2026-11-20T00:00:00Z') });
  const { org } = await first.createUserWithOrg({ email: 'c@example.com', passwordHash: 'x', orgName: 'c' });
  first.recordUsage([{ orgId: org.id, keyId: null, service: 'routing', day: '2026-11-19', count: 42 }]);
  await first.close();
  const second = new SqliteStore(file, { now: () => Date.parse('2026-11-20T00:00:00Z') });
  t.is(second.ledger.used(org.id, 'routing', '2026-11'), 42);
  t.is(second.ledger.used(org.id, 'routing', '2026-10'), 0);
  await second.close();
});

test('a file from a newer schema is refused with a clear error', async (t) => {
  const file = tempFile(t);
  const store = new SqliteStore(file);
  await store.close();
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(file);
  db.pragma('user_version = 99');
  db.close();
  t.throws(() => new SqliteStore(file), { message: /newer Waymark/ });
});

for (const version of [1, 2]) {
  test(`a file of schema ${version} is upgraded in place, keeping its accounts: the oldest user of each organization owns it, the others are admins`, async (t) => {
    const file = tempFile(t);
    const Database = (await import('better-sqlite3')).default;
    const old = new Database(file);
    for (const step of SCHEMA_STEPS.slice(0, version)) old.exec(step);
    old.pragma(`user_version = ${version}`);
    old.exec(`
      INSERT INTO organizations VALUES ('org_a', 'Old', 'free', '{}', '2026-01-01T00:00:00.000Z', 1);
      INSERT INTO users VALUES ('usr_2', 'second@example.com', 'x', 'org_a', '2026-01-02T00:00:00.000Z');
      INSERT INTO users VALUES ('usr_1', 'first@example.com', 'x', 'org_a', '2026-01-01T00:00:00.000Z');
      INSERT INTO api_keys VALUES ('key_a', 'org_a', 'k', 'wmk_…', 'hash-a', 'maps', 'active', '2026-01-01T00:00:00.000Z', NULL, NULL, 2);
      UPDATE meta SET value = '2' WHERE key = 'revision';
    `);
    old.close();

    const upgraded = new SqliteStore(file);
    t.teardown(() => upgraded.close());
    t.deepEqual(
      (await upgraded.listUsers('org_a')).map((u) => [u.id, u.role]),
      [
        ['usr_1', 'owner'],
        ['usr_2', 'admin'],
      ],
    );
    t.like(upgraded.directory.keyByHash('hash-a'), {
      id: 'key_a',
      createdBy: null,
      allowedOrigins: [],
      allowedIps: [],
      expiresAt: null,
      previousHash: null,
    });
    t.deepEqual(await upgraded.listInvitations('org_a'), []);
  });
}

test('a file of schema 4 keeps its invitations, and a member who made or used one can then be removed (issue 34)', async (t) => {
  const file = tempFile(t);
  const Database = (await import('better-sqlite3')).default;
  const old = new Database(file);
  for (const step of SCHEMA_STEPS.slice(0, 4)) old.exec(step);
  old.pragma('user_version = 4');
  old.exec(`
    INSERT INTO organizations VALUES ('org_a', 'Old', 'free', '{}', '2026-01-01T00:00:00.000Z', 1);
    INSERT INTO users VALUES ('usr_1', 'owner@example.com', 'x', 'org_a', '2026-01-01T00:00:00.000Z', 'owner');
    INSERT INTO users VALUES ('usr_2', 'admin@example.com', 'x', 'org_a', '2026-01-02T00:00:00.000Z', 'admin');
    INSERT INTO users VALUES ('usr_3', 'joined@example.com', 'x', 'org_a', '2026-01-03T00:00:00.000Z', 'member');
    INSERT INTO invitations VALUES ('inv_used', 'org_a', 'hash-used', 'wmi_…', 'usr_2', '2026-01-02T00:00:00.000Z',
      '2026-01-09T00:00:00.000Z', 'usr_3', '2026-01-03T00:00:00.000Z', NULL, 'member');
    INSERT INTO invitations VALUES ('inv_open', 'org_a', 'hash-open', 'wmi_…', 'usr_2', '2026-01-04T00:00:00.000Z',
      '2099-01-01T00:00:00.000Z', NULL, NULL, NULL, 'admin');
    INSERT INTO sessions VALUES ('session-2', 'usr_2', '2099-01-01T00:00:00.000Z');
  `);
  old.close();

  const store = new SqliteStore(file, { now: () => Date.parse('2026-02-01T00:00:00Z') });
  t.teardown(() => store.close());
  t.deepEqual(
    (await store.listInvitations('org_a')).map((i) => [i.id, i.role, i.createdBy, i.acceptedBy]),
    [
      ['inv_open', 'admin', 'usr_2', null],
      ['inv_used', 'member', 'usr_2', 'usr_3'],
    ],
  );
  const nowIso = '2026-02-01T00:00:00.000Z';
  for (const userId of ['usr_2', 'usr_3']) {
    t.truthy(await store.removeUser({ orgId: 'org_a', userId, removableRoles: ['admin', 'member'], revokeKeys: false, nowIso }));
  }
  t.deepEqual(
    (await store.listUsers('org_a')).map((u) => u.id),
    ['usr_1'],
  );
  t.is(await store.findSession('session-2', nowIso), null);
  t.like((await store.listInvitations('org_a'))[0], { id: 'inv_open', revokedAt: nowIso, createdBy: 'usr_2' });
});
