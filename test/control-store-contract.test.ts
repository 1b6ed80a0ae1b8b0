/**
 * One contract, run against every ControlStore: the embedded SQLite store and the Redis store.
 * Each case is written once against the interface; the backends differ only in how two stores
 * share data (a file, a key prefix) and how a directory catches up with another store's writes.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createKey } from '../src/control-plane/accounts.js';
import { RedisStore } from '../src/control-plane/redis/index.js';
import { SqliteStore } from '../src/control-plane/sqlite/index.js';
import { KeyLimitReached, LastOwner, OrgNameTaken, StoreConflict, type ControlStore } from '../src/control-plane/store.js';
import { quotaOf, TIER_ACTIVE_KEYS } from '../src/control-plane/tiers.js';
import type { ApiKeyRecord, InvitationRecord, Organization, Service } from '../src/control-plane/types.js';

const REDIS_URL = process.env.WAYMARK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MONTH = '2026-11';
const DAY = '2026-11-15';
const NOW = Date.parse(`${DAY}T12:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString();

interface Backend {
  kind: 'sqlite' | 'redis';
  /** Two stores over the same data, closed (and the data removed) at teardown. */
  open(t: ExecutionContext): Promise<[ControlStore, ControlStore]>;
  /** What a serving store does to pick up another store's writes (SQLite: sync; Redis: nothing, they are pushed). */
  catchUp(store: ControlStore): void;
  /** Reservations through the second store count against the same quota, exactly. */
  sharedLedger: boolean;
  /** The ledger checks the key's status itself, ahead of the caller's directory. */
  reserveChecksKey: boolean;
}

const sqlite: Backend = {
  kind: 'sqlite',
  async open(t) {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-contract-'));
    const file = join(dir, 'waymark.db');
    const stores: [ControlStore, ControlStore] = [new SqliteStore(file, { now: () => NOW }), new SqliteStore(file, { now: () => NOW })];
    t.teardown(async () => {
      await Promise.all(stores.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    });
    return stores;
  },
  catchUp: (store) => store.directory.sync(),
  sharedLedger: false,
  reserveChecksKey: false,
};

const redis: Backend = {
  kind: 'redis',
  async open(t) {
    const settings = { url: REDIS_URL, prefix: `waymark-test-${randomBytes(6).toString('hex')}` };
    const stores: [ControlStore, ControlStore] = [
      await RedisStore.open(settings, { now: () => NOW }),
      await RedisStore.open(settings, { now: () => NOW }),
    ];
    t.teardown(async () => {
      await Promise.all(stores.map((s) => s.close()));
      await deleteKeys(`${settings.prefix}:*`);
    });
    return stores;
  },
  catchUp: () => {},
  sharedLedger: true,
  reserveChecksKey: true,
};

async function deleteKeys(pattern: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  try {
    for await (const keys of client.scanStream({ match: pattern, count: 500 })) {
      if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
    }
  } finally {
    client.disconnect();
  }
}

/** Waits (up to 2 s) until `check` holds for the store's directory, letting it catch up meanwhile. */
async function eventually(backend: Backend, store: ControlStore, check: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 2000;
  for (;;) {
    backend.catchUp(store);
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function signUp(store: ControlStore, name = 'acme') {
  return store.createUserWithOrg({ email: `owner@${name}.example`, passwordHash: 'hash', orgName: name });
}

const reserve = (store: ControlStore, org: Organization, key: ApiKeyRecord, units = 1, service: Service = 'maps') =>
  Promise.resolve(store.ledger.reserve({ org, key, service, month: MONTH, day: DAY, limit: quotaOf(org, service), units }));

function invitation(orgId: string, createdBy: string, overrides: Partial<InvitationRecord> = {}): InvitationRecord {
  const id = `inv_${randomBytes(6).toString('hex')}`;
  return {
    id,
    orgId,
    hash: `hash-of-${id}`,
    hint: 'wmi_…',
    role: 'member',
    createdBy,
    createdAt: iso(NOW),
    expiresAt: iso(NOW + 86_400_000),
    acceptedBy: null,
    acceptedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

type Case = (t: ExecutionContext, backend: Backend) => Promise<void>;
const cases: [string, Case, (backend: Backend) => boolean][] = [];
/** A case of the contract; `appliesTo` limits it to the backends with a capability it tests. */
const contract = (title: string, run: Case, appliesTo: (backend: Backend) => boolean = () => true) => cases.push([title, run, appliesTo]);

contract('a sign-up creates a user and a Free organization, found by id, email and name in any case', async (t, backend) => {
  const [store] = await backend.open(t);
  const { user, org } = await signUp(store);
  t.like(org, { name: 'acme', tier: 'free', customQuotas: {}, createdAt: iso(NOW) });
  t.like(user, { email: 'owner@acme.example', orgId: org.id, role: 'owner', createdAt: iso(NOW) });
  t.false('passwordHash' in user);
  t.deepEqual(await store.getUser(user.id), user);
  t.deepEqual(await store.findUserByEmail('Owner@ACME.example'), { ...user, passwordHash: 'hash' });
  t.deepEqual(await store.getOrg(org.id), org);
  t.deepEqual(await store.findOrgByName('ACME'), org);
  t.is(await store.getUser('usr_none'), null);
  t.is(await store.findUserByEmail('nobody@example.com'), null);
  t.is(await store.getOrg('org_none'), null);
  t.is(await store.findOrgByName('nobody'), null);
});

contract(
  'a taken email is a conflict, a taken organization name (any case) is OrgNameTaken, and neither leaves records',
  async (t, backend) => {
    const [store] = await backend.open(t);
    const { org } = await signUp(store);
    await t.throwsAsync(store.createUserWithOrg({ email: 'owner@acme.example', passwordHash: 'x', orgName: 'other' }), {
      instanceOf: StoreConflict,
    });
    t.is(await store.findOrgByName('other'), null);
    const taken = await t.throwsAsync(store.createUserWithOrg({ email: 'new@example.com', passwordHash: 'x', orgName: 'AcMe' }), {
      instanceOf: OrgNameTaken,
    });
    t.is(taken?.orgName, 'AcMe');
    t.is(await store.findUserByEmail('new@example.com'), null);
    await t.throwsAsync(store.createUserInOrg({ email: 'OWNER@acme.example', passwordHash: 'x', orgId: org.id, role: 'member' }), {
      instanceOf: StoreConflict,
    });
  },
);

contract('members join an existing organization and are listed oldest first', async (t, backend) => {
  const [store] = await backend.open(t);
  const { user: owner, org } = await signUp(store);
  const { user: second, org: joined } = await store.createUserInOrg({
    email: 'b@acme.example',
    passwordHash: 'x',
    orgId: org.id,
    role: 'admin',
  });
  const { user: third } = await store.createUserInOrg({ email: 'c@acme.example', passwordHash: 'x', orgId: org.id, role: 'member' });
  t.deepEqual(joined, org);
  t.deepEqual(await store.listUsers(org.id), [owner, second, third]);
  t.deepEqual(
    [owner, second, third].map((u) => u.role),
    ['owner', 'admin', 'member'],
  );
  t.deepEqual(await store.listUsers('org_none'), []);
  await t.throwsAsync(store.createUserInOrg({ email: 'd@example.com', passwordHash: 'x', orgId: 'org_none', role: 'member' }), {
    instanceOf: StoreConflict,
  });
});

contract('roles change within the organization only, and at least one owner always remains', async (t, backend) => {
  const [store, other] = await backend.open(t);
  const { user: owner, org } = await signUp(store);
  const { org: elsewhere } = await signUp(store, 'elsewhere');
  const { user: member } = await store.createUserInOrg({ email: 'm@acme.example', passwordHash: 'x', orgId: org.id, role: 'member' });
  await t.throwsAsync(store.setRole(org.id, owner.id, 'admin'), { instanceOf: LastOwner });
  t.is(await store.setRole(elsewhere.id, member.id, 'owner'), null);
  t.is(await store.setRole(org.id, 'usr_none', 'owner'), null);
  t.deepEqual(await store.setRole(org.id, member.id, 'owner'), { ...member, role: 'owner' });
  // Two owners: either may step down, through any store, but not both.
  t.like(await other.setRole(org.id, owner.id, 'member'), { id: owner.id, role: 'member' });
  await t.throwsAsync(store.setRole(org.id, member.id, 'admin'), { instanceOf: LastOwner });
  t.deepEqual(
    (await store.listUsers(org.id)).map((u) => u.role),
    ['member', 'owner'],
  );
  t.is((await store.getUser(owner.id))?.role, 'member');
});

contract('concurrent demotions of two owners leave one owner', async (t, backend) => {
  const [a, b] = await backend.open(t);
  const { user: first, org } = await signUp(a);
  const { user: second } = await a.createUserInOrg({ email: 'o2@acme.example', passwordHash: 'x', orgId: org.id, role: 'owner' });
  const outcomes = await Promise.allSettled([a.setRole(org.id, first.id, 'member'), b.setRole(org.id, second.id, 'member')]);
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  t.is((await a.listUsers(org.id)).filter((u) => u.role === 'owner').length, 1);
});

contract('a key is edited and rolled; the directory finds it by both values until it is rolled again', async (t, backend) => {
  const [writer, server] = await backend.open(t);
  const { org } = await signUp(writer);
  const { org: other } = await signUp(writer, 'other');
  const { key } = await createKey(
    writer,
    org.id,
    { name: 'web', allowedOrigins: ['https://app.example.com'], expiresAt: iso(NOW + 86_400_000) },
    NOW,
  );
  t.like(key, { allowedOrigins: ['https://app.example.com'], allowedIps: [], expiresAt: iso(NOW + 86_400_000), createdBy: null });
  t.deepEqual(await writer.listKeys(org.id), [key]);

  t.is(await writer.updateKey(other.id, key.id, { name: 'stolen' }), null);
  const edited = await writer.updateKey(org.id, key.id, { name: 'web app', allowedIps: ['10.0.0.0/8'], expiresAt: null });
  t.deepEqual(edited, { ...key, name: 'web app', allowedIps: ['10.0.0.0/8'], expiresAt: null });
  t.deepEqual(await writer.updateKey(org.id, key.id, {}), edited);
  t.true(await eventually(backend, server, () => server.directory.keyByHash(key.hash)?.name === 'web app'));

  const until = iso(NOW + 3_600_000);
  const rolled = await writer.rollKey(org.id, key.id, { hash: 'hash-2', hint: 'wmk_two…', previousHashExpiresAt: until });
  t.deepEqual(rolled, { ...edited!, hash: 'hash-2', hint: 'wmk_two…', previousHash: key.hash, previousHashExpiresAt: until });
  t.deepEqual(await writer.listKeys(org.id), [rolled]);
  t.true(await eventually(backend, server, () => server.directory.keyByHash('hash-2')?.id === key.id));
  t.is(server.directory.keyByHash(key.hash)?.hash, 'hash-2');

  const again = await writer.rollKey(org.id, key.id, { hash: 'hash-3', hint: 'wmk_three…', previousHashExpiresAt: null });
  t.like(again, { hash: 'hash-3', previousHash: null, previousHashExpiresAt: null });
  t.true(await eventually(backend, server, () => server.directory.keyByHash('hash-3')?.id === key.id));
  t.is(server.directory.keyByHash(key.hash), undefined);
  t.is(server.directory.keyByHash('hash-2'), undefined);
  t.like(await reserve(server, org, again!), { granted: true });

  t.like(await writer.revokeKey(org.id, key.id, iso(NOW)), { status: 'revoked', hash: 'hash-3' });
  t.is(await writer.rollKey(org.id, key.id, { hash: 'hash-4', hint: 'x', previousHashExpiresAt: null }), null);
  t.is(await writer.updateKey(org.id, key.id, { name: 'x' }), null);
});

contract('a tier change sets the limit reservations are checked against; custom quotas stay unless replaced', async (t, backend) => {
  const [store] = await backend.open(t);
  const { org } = await signUp(store);
  const { key } = await createKey(store, org.id, { name: 'k' }, NOW);
  t.like(await reserve(store, org, key), { granted: true, limit: 10_000 });

  const enterprise = await store.setTier(org.id, 'enterprise', { maps: 3 });
  t.like(enterprise, { id: org.id, name: 'acme', tier: 'enterprise', customQuotas: { maps: 3 } });
  t.deepEqual(await store.getOrg(org.id), enterprise);
  t.like(await reserve(store, enterprise, key, 2), { granted: true, used: 1, limit: 3 });
  t.like(await reserve(store, enterprise, key), { granted: false, used: 3, limit: 3 });
  t.like(await reserve(store, enterprise, key, 1, 'routing'), { granted: true, limit: null });

  t.deepEqual((await store.setTier(org.id, 'enterprise')).customQuotas, { maps: 3 });
  t.like(await store.setTier(org.id, 'pro', {}), { tier: 'pro', customQuotas: {} });
  await t.throwsAsync(store.setTier('org_none', 'pro'), { instanceOf: StoreConflict });
});

contract(
  "an organization holds at most its tier's active keys, created through any store at once; revoked and expired ones do not count",
  async (t, backend) => {
    const [a, b] = await backend.open(t);
    const { org } = await signUp(a);
    const limit = TIER_ACTIVE_KEYS.free;
    const DAY_MS = 86_400_000;
    const { key: first } = await createKey(a, org.id, { name: 'first' }, NOW);
    for (let i = 1; i < limit - 2; i++) await createKey(a, org.id, { name: `k${i}` }, NOW);
    await createKey(a, org.id, { name: 'expired', expiresAt: iso(NOW - DAY_MS) }, NOW - 2 * DAY_MS);
    const burst = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createKey(i % 2 ? a : b, org.id, { name: `burst${i}` }, NOW)),
    );
    t.is(burst.filter((outcome) => outcome.status === 'fulfilled').length, 2);
    for (const outcome of burst.filter((o) => o.status === 'rejected')) {
      t.true(outcome.reason instanceof KeyLimitReached);
      t.regex(outcome.reason.message, /has 100 active API keys, the most the Free plan allows; revoke a key .*upgrade to Pro/);
    }
    const active = async () => (await b.listKeys(org.id)).filter((k) => k.status === 'active' && k.name !== 'expired').length;
    t.is(await active(), limit);
    await t.throwsAsync(createKey(b, org.id, { name: 'one more' }, NOW), { instanceOf: KeyLimitReached });

    await a.revokeKey(org.id, first.id, iso(NOW));
    await createKey(b, org.id, { name: 'instead of the revoked one' }, NOW);
    await t.throwsAsync(createKey(a, org.id, { name: 'one more' }, NOW), { instanceOf: KeyLimitReached });
    t.is(await active(), limit);

    await a.setTier(org.id, 'pro');
    await createKey(b, org.id, { name: 'on Pro' }, NOW);
    t.is(await active(), limit + 1);
  },
);

contract('sessions are found until they expire, and not after being deleted', async (t, backend) => {
  const [store] = await backend.open(t);
  const { user } = await signUp(store);
  const session = { hash: 'session-a', userId: user.id, expiresAt: iso(Date.now() + 3_600_000) };
  await store.createSession(session);
  await store.createSession({ hash: 'session-old', userId: user.id, expiresAt: iso(Date.now() - 1000) });
  t.deepEqual(await store.findSession('session-a', iso(Date.now())), session);
  t.is(await store.findSession('session-a', iso(Date.now() + 7_200_000)), null);
  t.is(await store.findSession('session-old', iso(Date.now())), null);
  await store.deleteSession('session-a');
  t.is(await store.findSession('session-a', iso(Date.now())), null);
});

contract('keys are listed oldest first, and only an active key of the organization is revoked', async (t, backend) => {
  const [store] = await backend.open(t);
  const { org } = await signUp(store);
  const { org: other } = await signUp(store, 'other');
  const { key: first } = await createKey(store, org.id, { name: 'first', scopes: ['maps', 'routing'] }, NOW);
  const { key: second } = await createKey(store, org.id, { name: 'second' }, NOW + 1);
  t.deepEqual(await store.listKeys(org.id), [first, second]);
  t.deepEqual(await store.listKeys(other.id), []);
  t.is(store.directory.keyByHash(first.hash)?.status, 'active');

  t.is(await store.revokeKey(other.id, first.id, iso(NOW)), null);
  const revoked = await store.revokeKey(org.id, first.id, iso(NOW + 5));
  t.deepEqual(revoked, { ...first, status: 'revoked', revokedAt: iso(NOW + 5) });
  t.is(store.directory.keyByHash(first.hash)?.status, 'revoked');
  t.is(await store.revokeKey(org.id, first.id, iso(NOW + 6)), null);
  t.is(await store.revokeKey(org.id, 'key_none', iso(NOW)), null);
  t.deepEqual(await store.listKeys(org.id), [revoked, second]);
});

contract('last use of a key shows in listings, before and after the flush', async (t, backend) => {
  const [store] = await backend.open(t);
  const { org } = await signUp(store);
  const { key } = await createKey(store, org.id, { name: 'k' }, NOW);
  store.ledger.touchKey(key.id, NOW + 1000);
  t.is((await store.listKeys(org.id))[0]?.lastUsedAt, iso(NOW + 1000));
  await store.flush();
  t.is((await store.listKeys(org.id))[0]?.lastUsedAt, iso(NOW + 1000));
});

contract("another store's directory sees new organizations and keys, revocations and tier changes", async (t, backend) => {
  const [writer, server] = await backend.open(t);
  const { org } = await signUp(writer);
  const { key } = await createKey(writer, org.id, { name: 'k' }, NOW);
  t.true(await eventually(backend, server, () => server.directory.org(org.id)?.tier === 'free'));
  t.true(await eventually(backend, server, () => server.directory.keyByHash(key.hash)?.status === 'active'));
  t.is(server.directory.unavailable(), null);

  await writer.revokeKey(org.id, key.id, iso(NOW));
  await writer.setTier(org.id, 'enterprise', { maps: 5 });
  t.true(await eventually(backend, server, () => server.directory.keyByHash(key.hash)?.status === 'revoked'));
  t.true(await eventually(backend, server, () => server.directory.org(org.id)?.customQuotas.maps === 5));
});

// The embedded ledger leaves revocation to the directory (the case above).
contract(
  'a key revoked through another store is refused by a ledger that checks keys, before the directory knows',
  async (t, backend) => {
    const [writer, server] = await backend.open(t);
    const { org } = await signUp(writer);
    const { key } = await createKey(writer, org.id, { name: 'k' }, NOW);
    await writer.revokeKey(org.id, key.id, iso(NOW));
    t.like(await reserve(server, org, key), { granted: false, revoked: true });
  },
  (backend) => backend.reserveChecksKey,
);

contract('an invitation admits one user; expired, revoked and used invitations admit none', async (t, backend) => {
  const [store] = await backend.open(t);
  const { user: owner, org } = await signUp(store);
  const later = iso(NOW + 60_000);
  const older = invitation(org.id, owner.id);
  const newer = invitation(org.id, owner.id, { createdAt: iso(NOW + 1) });
  const expired = invitation(org.id, owner.id, { expiresAt: iso(NOW + 1000) });
  for (const i of [older, newer, expired]) await store.insertInvitation(i);
  t.deepEqual(await store.listInvitations(org.id), [newer, expired, older]);
  t.deepEqual(await store.findInvitation(older.hash), older);
  t.is(await store.findInvitation('hash-none'), null);

  await t.throwsAsync(store.acceptInvitation({ hash: older.hash, nowIso: later, email: 'owner@acme.example', passwordHash: 'x' }), {
    instanceOf: StoreConflict,
  });
  const accepted = await store.acceptInvitation({ hash: older.hash, nowIso: later, email: 'new@acme.example', passwordHash: 'x' });
  t.deepEqual(accepted?.org, org);
  t.like(accepted?.user, { email: 'new@acme.example', orgId: org.id, role: 'member', createdAt: later });
  t.like(await store.findInvitation(older.hash), { acceptedBy: accepted?.user.id, acceptedAt: later });
  const forAdmin = invitation(org.id, owner.id, { role: 'admin' });
  await store.insertInvitation(forAdmin);
  t.like(await store.findInvitation(forAdmin.hash), { role: 'admin' });
  const admin = await store.acceptInvitation({ hash: forAdmin.hash, nowIso: later, email: 'admin@acme.example', passwordHash: 'x' });
  t.is(admin?.user.role, 'admin');
  t.is((await store.getUser(admin!.user.id))?.role, 'admin');
  t.is(await store.acceptInvitation({ hash: older.hash, nowIso: later, email: 'again@acme.example', passwordHash: 'x' }), null);
  t.is(await store.acceptInvitation({ hash: expired.hash, nowIso: later, email: 'late@acme.example', passwordHash: 'x' }), null);

  t.is(await store.revokeInvitation('org_none', newer.id, later), null);
  t.like(await store.revokeInvitation(org.id, newer.id, later), { id: newer.id, revokedAt: later });
  t.is(await store.revokeInvitation(org.id, newer.id, later), null);
  t.is(await store.revokeInvitation(org.id, older.id, later), null);
  t.is(await store.acceptInvitation({ hash: newer.hash, nowIso: later, email: 'revoked@acme.example', passwordHash: 'x' }), null);
  t.is(await store.acceptInvitation({ hash: 'hash-none', nowIso: later, email: 'none@acme.example', passwordHash: 'x' }), null);
});

contract('concurrent reservations grant exactly the quota', async (t, backend) => {
  const [a, b] = await backend.open(t);
  const { org: signedUp } = await signUp(a);
  const org = await a.setTier(signedUp.id, 'enterprise', { geocoding: 50 });
  const { key } = await createKey(a, org.id, { name: 'k' }, NOW);
  const stores = backend.sharedLedger ? [a, b] : [a];
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => ({
      store: stores[i % stores.length]!,
      reservation: await reserve(stores[i % stores.length]!, org, key, 1, 'geocoding'),
    })),
  );
  t.is(outcomes.filter((o) => o.reservation.granted).length, 50);
  t.is(await a.ledger.used(org.id, 'geocoding', MONTH), 0, 'reserved units are not used until committed');
  for (const { store, reservation } of outcomes) if (reservation.granted) store.ledger.commit(reservation);
  await Promise.all(stores.map((store) => store.flush()));
  t.is(await a.ledger.used(org.id, 'geocoding', MONTH), 50);
});

contract('a reservation of several units fits whole or not at all; a release gives them back', async (t, backend) => {
  const [store] = await backend.open(t);
  const { org: signedUp } = await signUp(store);
  const org = await store.setTier(signedUp.id, 'enterprise', { routing: 5 });
  const { key } = await createKey(store, org.id, { name: 'k' }, NOW);
  const three = await reserve(store, org, key, 3, 'routing');
  t.like(three, { granted: true, used: 0, limit: 5 });
  t.like(await reserve(store, org, key, 3, 'routing'), { granted: false, used: 3 });
  store.ledger.commit(three);
  const two = await reserve(store, org, key, 2, 'routing');
  t.like(two, { granted: true, used: 3 });
  store.ledger.release(two);
  // A release is not awaited; the store still applies it before the next reservation.
  t.like(await reserve(store, org, key, 2, 'routing'), { granted: true, used: 3 });
  t.like(await reserve(store, org, key, 1, 'routing'), { granted: false, used: 5 });
});

contract('committed usage is reported per key and per day, and counts towards used()', async (t, backend) => {
  const [store] = await backend.open(t);
  const { org } = await signUp(store);
  const { key: a } = await createKey(store, org.id, { name: 'a' }, NOW);
  const { key: b } = await createKey(store, org.id, { name: 'b' }, NOW + 1);
  const commit = async (key: ApiKeyRecord, service: Service, day: string, units: number) => {
    store.ledger.commit(
      await Promise.resolve(store.ledger.reserve({ org, key, service, month: day.slice(0, 7), day, limit: null, units })),
    );
  };
  await commit(a, 'maps', '2026-11-02', 2);
  await commit(a, 'geocoding', '2026-11-02', 1);
  await commit(b, 'maps', '2026-11-03', 4);
  await commit(b, 'maps', '2026-12-01', 9);
  const released = await store.ledger.reserve({ org, key: a, service: 'routing', month: MONTH, day: '2026-11-03', limit: null, units: 7 });
  store.ledger.release(released);
  t.is(await store.ledger.used(org.id, 'maps', MONTH), 6);
  t.deepEqual(await store.usageByKey(org.id, '2026-11-01', '2026-11-30'), [
    { keyId: a.id, used: { maps: 2, geocoding: 1, routing: 0 } },
    { keyId: b.id, used: { maps: 4, geocoding: 0, routing: 0 } },
  ]);
  t.deepEqual(await store.usageByDay(org.id, '2026-11-01', '2026-11-30'), [
    { day: '2026-11-02', service: 'maps', count: 2 },
    { day: '2026-11-02', service: 'geocoding', count: 1 },
    { day: '2026-11-03', service: 'maps', count: 4 },
  ]);
  await store.flush();
  t.deepEqual(await store.usageByDay(org.id, '2026-11-03', '2026-11-03'), [{ day: '2026-11-03', service: 'maps', count: 4 }]);
});

for (const backend of [sqlite, redis]) {
  for (const [title, run, appliesTo] of cases) if (appliesTo(backend)) test(`${backend.kind}: ${title}`, (t) => run(t, backend));
}
