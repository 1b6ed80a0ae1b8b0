/** Spec 4.8, PRODUCT.md "Quotas and metering": the usage report, per key and per UTC day, persisted. */
import test from 'ava';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { customer, serve, tempDataDir, type Customer } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { join as joinByInvitation } from './helpers/team.js';

const hit = async (server: TestServer, service: string, keyValue: string, times = 1): Promise<void> => {
  for (let i = 0; i < times; i++) {
    const answer = await call(`${server.url}/api/v1/test/${service}?key=${keyValue}`);
    if (answer.status !== 200) throw new Error(`${service} answered ${answer.status}`);
  }
};

test('usage/current answers to a session cookie, with the body shape of PRODUCT.md', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await hit(server, 'geocoding', key.value, 2);
  const answer = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(answer.status, 200);
  t.regex(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = answer.body;
  t.deepEqual(Object.keys(body).sort(), ['keys', 'organization', 'period', 'services']);
  t.deepEqual(body.organization, { id: account.orgId, name: account.email, tier: 'free' });
  t.deepEqual(body.period, { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' });
  t.deepEqual(body.services, {
    maps: { used: 0, limit: 10_000, remaining: 10_000 },
    geocoding: { used: 2, limit: 5_000, remaining: 4_998 },
    routing: { used: 0, limit: 5_000, remaining: 5_000 },
  });
  t.is(body.keys.length, 1);
  const [entry] = body.keys;
  // PRODUCT.md's id, name, hint and used, plus the key's status (a revoked key's usage still counts).
  t.deepEqual(Object.keys(entry).sort(), ['hint', 'id', 'name', 'status', 'used']);
  t.is(entry.status, 'active');
  t.is(entry.id, key.id);
  t.is(entry.name, 'main');
  t.is(entry.hint, `${key.value.slice(0, 8)}…${key.value.slice(-4)}`);
  t.deepEqual(entry.used, { maps: 0, geocoding: 2, routing: 0 });
});

test('a revoked key stays in the report with the usage it counted', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await hit(server, 'maps', key.value, 2);
  t.is((await server.dashboard(account, 'POST', `/keys/${key.id}/revoke`)).status, 200);
  const answer = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(answer.body.services.maps.used, 2);
  t.like(answer.body.keys[0], { id: key.id, status: 'revoked', used: { maps: 2, geocoding: 0, routing: 0 } });
});

test('usage/current answers to any active key of the organization, whatever its scopes', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const mapsOnly = await server.createKey(account, { name: 'tiles', scopes: ['maps'] });
  await hit(server, 'routing', key.value, 3);
  const inits: RequestInit[] = [{ headers: { authorization: `Bearer ${mapsOnly.value}` } }, { headers: { 'x-api-key': mapsOnly.value } }];
  for (const init of inits) {
    const answer = await call(`${server.url}/api/v1/usage/current`, init);
    t.is(answer.status, 200);
    t.is(answer.body.organization.id, account.orgId);
    t.is(answer.body.services.routing.used, 3);
    t.deepEqual(
      answer.body.keys.map((k: { name: string }) => k.name),
      ['tiles'],
    );
  }
  // Asking for usage is not metered.
  t.is((await call(`${server.url}/api/v1/usage/current?key=${mapsOnly.value}`)).body.services.maps.used, 0);
});

test('usage/current shows only the caller organization', async (t) => {
  const server = await serve(t);
  const a = await customer(server);
  const b = await customer(server);
  await hit(server, 'maps', a.key.value, 2);
  const answer = await call(`${server.url}/api/v1/usage/current?key=${b.key.value}`);
  t.is(answer.body.organization.id, b.account.orgId);
  t.is(answer.body.services.maps.used, 0);
  t.deepEqual(
    answer.body.keys.map((k: { id: string }) => k.id),
    [b.key.id],
  );
});

/** The ids of the keys a usage report lists. */
const listed = (report: { keys: { id: string }[] }) => report.keys.map((k) => k.id).sort();

for (const kind of STORE_KINDS) {
  test(`${kind}: a member sees its own keys' usage and a key its own, in both reports; an owner sees every key`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const owner = await server.signUp('owner@acme.example', 'acme');
    const member = await joinByInvitation(server, owner, 'member@acme.example');
    const ownersKey = await server.createKey(owner, { name: "owner's" });
    const membersKey = await server.createKey(member, { name: "member's" });
    const othersKey = await server.createKey(owner, { name: 'other' });
    await hit(server, 'maps', ownersKey.value, 2);
    await hit(server, 'maps', membersKey.value);
    const reports = async (cookie: string) => [
      (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie } })).body,
      await (await server.dashboard({ ...owner, cookie }, 'GET', '/usage')).json(),
    ];
    for (const report of await reports(owner.cookie)) t.deepEqual(listed(report), [ownersKey.id, membersKey.id, othersKey.id].sort());
    for (const report of await reports(member.cookie)) {
      t.deepEqual(listed(report), [membersKey.id]);
      // The quotas are the organization's: every viewer sees its totals.
      t.is(report.services.maps.used, 3);
    }
    for (const value of [ownersKey.value, membersKey.value]) {
      const report = (await call(`${server.url}/api/v1/usage/current?key=${value}`)).body;
      t.deepEqual(listed(report), [value === ownersKey.value ? ownersKey.id : membersKey.id]);
      t.is(report.services.maps.used, 3);
    }
  });
}

test('usage/current without a session or key is a 401; a bad key is refused like elsewhere', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  assertError(t, await call(`${server.url}/api/v1/usage/current`), 401);
  assertError(t, await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: 'waymark_session=not-a-session' } }), 401);
  assertError(t, await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: `waymark_session=${'A'.repeat(43)}` } }), 401);
  assertError(t, await call(`${server.url}/api/v1/usage/current?key=wmk_nope`, { headers: { cookie: account.cookie } }), 401);
});

test('the /v1 alias answers the same report', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await hit(server, 'maps', key.value);
  const canonical = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  const alias = await call(`${server.url}/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(alias.status, 200);
  t.deepEqual(alias.body, canonical.body);
  t.is(alias.body.services.maps.used, 1);
});

test('usage is recorded per key and per UTC day', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const second = await server.createKey(account, { name: 'second' });
  server.clock.set('2026-11-02T23:59:59Z');
  await hit(server, 'maps', key.value, 2);
  await hit(server, 'geocoding', second.value);
  server.clock.set('2026-11-03T00:00:00Z');
  await hit(server, 'maps', second.value, 3);
  await hit(server, 'routing', key.value);
  server.clock.set('2026-11-20T08:00:00Z');
  await hit(server, 'geocoding', key.value, 4);

  const res = await server.dashboard(account, 'GET', '/usage');
  t.is(res.status, 200);
  const usage = (await res.json()) as {
    daily: unknown[];
    keys: { id: string; used: unknown }[];
    services: Record<string, { used: number }>;
  };
  t.deepEqual(usage.daily, [
    { day: '2026-11-02', maps: 2, geocoding: 1, routing: 0 },
    { day: '2026-11-03', maps: 3, geocoding: 0, routing: 1 },
    { day: '2026-11-20', maps: 0, geocoding: 4, routing: 0 },
  ]);
  t.deepEqual(usage.keys.find((k) => k.id === key.id)?.used, { maps: 2, geocoding: 4, routing: 1 });
  t.deepEqual(usage.keys.find((k) => k.id === second.id)?.used, { maps: 3, geocoding: 1, routing: 0 });
  t.deepEqual([usage.services.maps!.used, usage.services.geocoding!.used, usage.services.routing!.used], [5, 5, 1]);

  // The next month starts empty; the previous month's days are not in its series.
  server.clock.set('2026-12-01T00:00:01Z');
  await hit(server, 'maps', key.value);
  const december = (await (await server.dashboard(account, 'GET', '/usage')).json()) as typeof usage;
  t.deepEqual(december.daily, [{ day: '2026-12-01', maps: 1, geocoding: 0, routing: 0 }]);
  t.deepEqual(december.keys.find((k) => k.id === second.id)?.used, { maps: 0, geocoding: 0, routing: 0 });
});

test('usage survives a restart on the same data folder', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await startTestServer({ dataDir });
  let account: Customer['account'];
  let key: Customer['key'];
  try {
    ({ account, key } = await customer(first));
    await hit(first, 'maps', key.value, 3);
    await hit(first, 'routing', key.value, 2);
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  t.teardown(() => second.close());
  const viaKey = await call(`${second.url}/api/v1/usage/current?key=${key.value}`);
  t.is(viaKey.status, 200);
  t.deepEqual([viaKey.body.services.maps.used, viaKey.body.services.geocoding.used, viaKey.body.services.routing.used], [3, 0, 2]);
  t.deepEqual(viaKey.body.keys[0].used, { maps: 3, geocoding: 0, routing: 2 });
  const viaSession = await call(`${second.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.deepEqual(viaSession.body.services, viaKey.body.services);
  // The restarted server counts on from the persisted total.
  const next = await call(`${second.url}/api/v1/test/maps?key=${key.value}`);
  t.is(next.headers.get('x-ratelimit-remaining'), String(10_000 - 4));
});

test('usage counted by the running server is written to SQLite per key and day', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await hit(server, 'geocoding', key.value, 2);
  await server.store.flush();
  const db = new Database(join(server.dataDir, 'waymark.db'), { readonly: true });
  t.teardown(() => db.close());
  const rows = db.prepare('SELECT org_id, service, day, key_id, count FROM usage_daily WHERE org_id = ?').all(account.orgId);
  t.deepEqual(rows, [{ org_id: account.orgId, service: 'geocoding', day: '2026-11-15', key_id: key.id, count: 2 }]);
});
