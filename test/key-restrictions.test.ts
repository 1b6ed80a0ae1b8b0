/**
 * Issue 21, browser-safe keys: allowed origins (Origin, else the Referer's origin), allowed client
 * addresses (through trusted proxies only), an expiry, and rolling with a grace period — checked
 * by the gateway inline, applied to a running server from its next request. On SQLite and Redis.
 */
import test from 'ava';
import { AccountError } from '../src/control-plane/accounts.js';
import { normalizeOrigin, parseAllowedIps, parseAllowedOrigins, parseExpiry, parseGrace } from '../src/control-plane/key-restrictions.js';
import { CidrSet } from '../core/cidr.js';
import { waymark } from './helpers/cli.js';
import { serve } from './helpers/fixtures.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { assertError, call } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';

const NOW = Date.parse('2026-11-15T12:00:00Z');

test('origins are checked and put in one form; wildcards need a domain under them', (t) => {
  t.is(normalizeOrigin('HTTPS://App.Example.com'), 'https://app.example.com');
  t.is(normalizeOrigin('https://app.example.com:443'), 'https://app.example.com');
  t.is(normalizeOrigin('http://localhost:3000'), 'http://localhost:3000');
  t.is(normalizeOrigin('https://*.Example.org'), 'https://*.example.org');
  t.is(normalizeOrigin('https://bücher.example'), 'https://xn--bcher-kva.example');
  t.deepEqual(parseAllowedOrigins('https://a.example, https://a.example ,https://*.b.example'), [
    'https://a.example',
    'https://*.b.example',
  ]);
  t.deepEqual(parseAllowedOrigins([]), []);
  for (const bad of [
    'app.example.com',
    'https://app.example.com/path',
    'ftp://example.com',
    'https://*.com',
    'https://a.*.example',
    'https://user@example.com',
    'https://example.com?x',
    '*',
    'https://',
  ]) {
    t.throws(() => normalizeOrigin(bad), { instanceOf: AccountError }, bad);
  }
  t.throws(() => parseAllowedOrigins([42]), { instanceOf: AccountError });
  t.throws(() => parseAllowedOrigins(Array.from({ length: 51 }, (_, i) => `https://a${i}.example`)), { message: /at most 50/ });
});

test('addresses, expiries and grace periods are checked', (t) => {
  t.deepEqual(parseAllowedIps('10.0.0.0/8, 192.0.2.7, 2001:db8::/32'), ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
  t.throws(() => parseAllowedIps('10.0.0.0/33'), { instanceOf: AccountError, message: /allowed IPs/ });
  t.throws(() => parseAllowedIps('example.com'), { instanceOf: AccountError });
  t.is(parseExpiry('2027-01-31T00:00:00Z', NOW), '2027-01-31T00:00:00.000Z');
  t.is(parseExpiry('2027-01-31', NOW), '2027-01-31T00:00:00.000Z');
  t.is(parseExpiry('2027-01-31T01:00:00+01:00', NOW), '2027-01-31T00:00:00.000Z');
  t.is(parseExpiry(null, NOW), null);
  t.is(parseExpiry('none', NOW), null);
  for (const bad of ['2026-11-15T11:00:00Z', 'tomorrow', '2027-13-01', 1234, '2027-01-31 00:00']) {
    t.throws(() => parseExpiry(bad, NOW), { instanceOf: AccountError }, String(bad));
  }
  t.is(parseGrace(undefined), 86_400_000);
  t.is(parseGrace('0'), 0);
  t.is(parseGrace(0), 0);
  t.is(parseGrace('90s'), 90_000);
  t.is(parseGrace('30m'), 1_800_000);
  t.is(parseGrace('7d'), 7 * 86_400_000);
  for (const bad of ['-1', '1w', '31d', 'soon', '', null, 1.5]) t.throws(() => parseGrace(bad), { instanceOf: AccountError }, String(bad));
});

/** A metered test route called with the key and the given headers. */
const use = (server: TestServer, key: string, headers: Record<string, string> = {}) =>
  call(`${server.url}/api/v1/test/maps?key=${key}`, { headers });

async function patch(server: TestServer, account: Account, id: string, body: unknown) {
  const res = await server.dashboard(account, 'PATCH', `/keys/${id}`, body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function roll(server: TestServer, account: Account, id: string, grace?: string) {
  const res = await server.dashboard(account, 'POST', `/keys/${id}/roll`, grace === undefined ? {} : { grace });
  if (res.status !== 200) throw new Error(`roll failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { key: { hint: string; previousHashExpiresAt: string | null }; value: string };
}

for (const kind of STORE_KINDS) {
  test(`${kind}: a key restricted to origins answers only requests from them, by Origin or else Referer`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const account = await server.signUp();
    const { value } = await server.createKey(account, { allowedOrigins: ['https://app.example.com', 'https://*.example.org'] });
    const allowed: Record<string, string>[] = [
      { origin: 'https://app.example.com' },
      { origin: 'https://maps.example.org' },
      { origin: 'https://a.b.example.org' },
      { referer: 'https://www.example.org/page?x=1' },
    ];
    for (const headers of allowed) {
      t.is((await use(server, value, headers)).status, 200, JSON.stringify(headers));
    }
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'https://example.org' },
      { origin: 'http://app.example.com' },
      { origin: 'https://app.example.com:8443' },
      { origin: 'https://app.example.com.evil.example' },
      { referer: 'https://evil.example/?https://app.example.com' },
      { origin: 'null' },
      // Origins are parsed, not matched as text: what follows `?`, `#` or `@` is no part of the host.
      { origin: 'https://evil.com?.example.org' },
      { origin: 'https://evil.com#.example.org' },
      { origin: 'https://evil.com@.example.org' },
      { origin: 'https://evil.com/.example.org' },
      { origin: 'https://a..example.org' },
      { origin: 'https://app.example.com/' },
      { origin: 'https://app.example.com, https://evil.example' },
      // An opaque origin is foreign: it never falls back to the Referer.
      { origin: 'null', referer: 'https://app.example.com/page' },
    ];
    for (const headers of refused) {
      const message = assertError(t, await use(server, value, headers), 403);
      t.regex(message, /restricted to certain web sites/, JSON.stringify(headers));
      t.false(message.includes('*.example.org'), 'the allowed values are not named');
    }
    t.regex(assertError(t, await use(server, value), 403), /no Origin or Referer/);
    t.regex(assertError(t, await use(server, value, { referer: 'not a url' }), 403), /no Origin or Referer/);
  });

  test(`${kind}: a key restricted to addresses answers only them, reading X-Forwarded-For from trusted proxies alone`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind), trustedProxies: CidrSet.parse(['127.0.0.1', '::1']) });
    const account = await server.signUp();
    const office = await server.createKey(account, { allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const local = await server.createKey(account, { allowedIps: ['127.0.0.1'] });
    t.regex(assertError(t, await use(server, office.value), 403), /restricted to certain client addresses, and 127\.0\.0\.1 is not one/);
    t.is((await use(server, office.value, { 'x-forwarded-for': '203.0.113.9' })).status, 200);
    t.is((await use(server, office.value, { 'x-forwarded-for': '2001:db8::5, 127.0.0.1' })).status, 200);
    assertError(t, await use(server, office.value, { 'x-forwarded-for': '198.51.100.1' }), 403);
    // A client before an untrusted hop cannot name itself.
    assertError(t, await use(server, office.value, { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' }), 403);
    t.is((await use(server, local.value)).status, 200);
  });

  test(`${kind}: an untrusted peer's X-Forwarded-For is ignored`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const account = await server.signUp();
    const office = await server.createKey(account, { allowedIps: ['203.0.113.0/24'] });
    assertError(t, await use(server, office.value, { 'x-forwarded-for': '203.0.113.9' }), 403);
  });

  test(`${kind}: an expired key is a 401; edits apply from the next request`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const account = await server.signUp();
    const { id, value } = await server.createKey(account, { expiresAt: '2026-11-16T00:00:00Z' });
    t.is((await use(server, value)).status, 200);
    server.clock.set(Date.parse('2026-11-16T00:00:00Z'));
    t.regex(assertError(t, await use(server, value), 401), /expired at 2026-11-16T00:00:00.000Z/);
    t.regex(assertError(t, await patch(server, account, id, { expiresAt: '2026-11-15T00:00:00Z' }), 400), /future/);
    t.like((await patch(server, account, id, { expiresAt: null, allowedOrigins: ['https://app.example.com'] })).body, {
      key: { expiresAt: null },
    });
    assertError(t, await use(server, value), 403);
    t.is((await use(server, value, { origin: 'https://app.example.com' })).status, 200);
    t.is((await patch(server, account, id, { allowedOrigins: [] })).status, 200);
    t.is((await use(server, value)).status, 200);
    t.regex(assertError(t, await patch(server, account, id, { allowedIps: ['not an address'] }), 400), /allowed IPs/);
    t.is((await use(server, value)).status, 200, 'a refused edit changes nothing');
  });

  test(`${kind}: a rolled key's old value works for the grace period, then 401; with grace 0 at once`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const account = await server.signUp();
    const { id, value: first } = await server.createKey(account);
    const graced = await roll(server, account, id, '1h');
    t.is(graced.key.previousHashExpiresAt, '2026-11-15T13:00:00.000Z');
    t.is((await use(server, first)).status, 200);
    t.is((await use(server, graced.value)).status, 200);
    server.clock.set(Date.parse('2026-11-15T13:00:00Z'));
    t.regex(assertError(t, await use(server, first), 401), /replaced when the key was rolled/);
    t.is((await use(server, graced.value)).status, 200);

    const byDefault = await roll(server, account, id);
    t.is(byDefault.key.previousHashExpiresAt, '2026-11-16T13:00:00.000Z');
    t.is((await use(server, graced.value)).status, 200);
    const now = await roll(server, account, id, '0');
    t.is(now.key.previousHashExpiresAt, null);
    for (const old of [first, graced.value, byDefault.value]) assertError(t, await use(server, old), 401);
    t.is((await use(server, now.value)).status, 200);
    t.regex(
      assertError(
        t,
        await server
          .dashboard(account, 'POST', `/keys/${id}/roll`, { grace: '1y' })
          .then(async (r) => ({ status: r.status, body: await r.json() })),
        400,
      ),
      /grace period/,
    );
  });
}

test('the CLI creates, updates and rolls restricted keys, and a running server applies them from its next request', async (t) => {
  const server = await serve(t);
  const account = await server.signUp('ops@example.com', 'Ops');
  const data = ['--data', server.dataDir, '--json'];
  const created = await waymark([
    'key',
    'create',
    '--org',
    'Ops',
    '--name',
    'web',
    '--allowed-origins',
    'https://app.example.com',
    '--expires',
    '2027-01-01T00:00:00Z',
    ...data,
  ]);
  t.is(created.code, 0, created.stderr);
  const key = JSON.parse(created.stdout) as { id: string; value: string; allowedOrigins: string[]; expiresAt: string };
  t.like(key, { allowedOrigins: ['https://app.example.com'], expiresAt: '2027-01-01T00:00:00.000Z' });
  assertError(t, await use(server, key.value), 403);

  const updated = await waymark([
    'key',
    'update',
    '--org',
    'Ops',
    '--id',
    key.id,
    '--allowed-origins',
    'none',
    '--allowed-ips',
    '10.0.0.0/8',
    ...data,
  ]);
  t.is(updated.code, 0, updated.stderr);
  t.like(JSON.parse(updated.stdout), { allowedOrigins: [], allowedIps: ['10.0.0.0/8'] });
  t.regex(assertError(t, await use(server, key.value), 403), /client addresses/);
  t.is((await waymark(['key', 'update', '--org', 'Ops', '--id', key.id, '--allowed-ips', 'none', ...data])).code, 0);
  t.is((await use(server, key.value)).status, 200);

  const listed = JSON.parse((await waymark(['key', 'list', '--org', 'Ops', ...data])).stdout) as Record<string, unknown>[];
  t.like(listed[0], { allowedOrigins: [], allowedIps: [], expiresAt: '2027-01-01T00:00:00.000Z' });

  const rolled = await waymark(['key', 'roll', '--org', 'Ops', '--id', key.id, '--grace', '0', ...data]);
  t.is(rolled.code, 0, rolled.stderr);
  const fresh = JSON.parse(rolled.stdout) as { id: string; value: string; previousHashExpiresAt: null };
  t.like(fresh, { id: key.id, previousHashExpiresAt: null });
  assertError(t, await use(server, key.value), 401);
  t.is((await use(server, fresh.value)).status, 200);

  for (const [args, message] of [
    [['key', 'update', '--org', 'Ops', '--id', key.id], /nothing to change/],
    [['key', 'update', '--org', 'Ops', '--id', 'key_none', '--name', 'x'], /no active key/],
    [['key', 'roll', '--org', 'Ops', '--id', key.id, '--grace', 'forever'], /grace period/],
    [['key', 'create', '--org', 'Ops', '--name', 'x', '--expires', 'yesterday'], /ISO 8601/],
  ] as [string[], RegExp][]) {
    const run = await waymark([...args, '--data', server.dataDir]);
    t.not(run.code, 0, args.join(' '));
    t.regex(run.stderr, message, args.join(' '));
  }
  t.truthy(account);
});

test('redis: edits and rolls made through one node apply on the two others from their next request', async (t) => {
  const redis = redisFor(t, 'redis');
  const [a, b, c] = [await serve(t, { redis }), await serve(t, { redis }), await serve(t, { redis })];
  const account = await a.signUp();
  const { id, value } = await a.createKey(account);
  t.is((await use(b, value)).status, 200, 'a key made on A works at once on B');

  // Each edit is followed at once by requests on the other nodes: none may be answered by the old rules.
  for (let round = 0; round < 5; round++) {
    t.is((await patch(a, account, id, { allowedOrigins: ['https://app.example.com'] })).status, 200);
    assertError(t, await use(b, value), 403);
    t.is((await use(c, value, { origin: 'https://app.example.com' })).status, 200);
    t.is((await patch(a, account, id, { allowedOrigins: null, allowedIps: ['203.0.113.0/24'] })).status, 200);
    assertError(t, await use(c, value), 403);
    t.is((await patch(a, account, id, { allowedIps: [], scopes: ['geocoding'] })).status, 200);
    assertError(t, await use(b, value), 403);
    t.is((await patch(a, account, id, { scopes: ['maps'] })).status, 200);
    t.is((await use(b, value)).status, 200);
  }

  const graced = await roll(a, account, id, '1h');
  t.is((await use(b, value)).status, 200);
  t.is((await use(c, graced.value)).status, 200);
  // Rolled again with grace: the value before the last ends at once, even on a node that last saw it valid.
  const again = await roll(a, account, id, '1h');
  t.is((await use(b, graced.value)).status, 200);
  assertError(t, await use(c, value), 401);
  t.is((await use(c, again.value)).status, 200);
  const now = await roll(a, account, id, '0');
  for (const node of [b, c]) {
    for (const old of [value, graced.value, again.value]) assertError(t, await use(node, old), 401);
    t.is((await use(node, now.value)).status, 200);
  }
  t.is((await patch(a, account, id, { expiresAt: '2026-11-16T00:00:00Z' })).status, 200);
  for (const node of [a, b, c]) node.clock.set(Date.parse('2026-11-16T00:00:00Z'));
  for (const node of [b, c]) t.regex(assertError(t, await use(node, now.value), 401), /expired/);
});
