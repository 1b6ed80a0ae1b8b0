/** PRODUCT.md "Dashboard" and spec section 3: accounts, sessions, CSRF, keys shown once, billing. */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STYLES } from '../core/maps/style-catalog.js';
import { customer, serve, tempDataDir } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

const PASSWORD = 'correct horse battery';

const post = (server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(`${server.url}/dashboard/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

test('sign-up refuses invalid input with 400s that say what to fix', async (t) => {
  const server = await serve(t);
  const cases: [unknown, RegExp][] = [
    [{ password: PASSWORD }, /email/],
    [{ email: 'not-an-email', password: PASSWORD }, /email/],
    [{ email: 'a b@example.com', password: PASSWORD }, /email/],
    [{ email: 42, password: PASSWORD }, /email/],
    [{ email: 'short@example.com', password: 'short' }, /at least 8/],
    [{ email: 'nopass@example.com' }, /password/],
    [{ email: 'long@example.com', password: 'x'.repeat(2000) }, /at most/],
    [{ email: 'org@example.com', password: PASSWORD, organization: 'x'.repeat(101) }, /organization/],
    [{ email: 'ctl@example.com', password: PASSWORD, organization: 'bad\u0001name' }, /control/],
    [{ email: 'half@example.com', password: PASSWORD, organization: 'org\ud800' }, /valid Unicode/],
    [{ email: 'half\udc00@example.com', password: PASSWORD }, /email/],
    ['{"email": ', /not valid JSON/],
    ['[1,2]', /JSON object/],
  ];
  for (const [body, message] of cases) {
    const answer = await post(server, '/signup', body);
    t.regex(assertError(t, answer, 400), message, JSON.stringify(body));
    t.is(answer.headers.get('set-cookie'), null);
  }
  const wrongType = await call(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: 'a@example.com', password: PASSWORD }),
  });
  assertError(t, wrongType, 415);
});

test('sign-up with an email already registered is a 409, whatever its case', async (t) => {
  const server = await serve(t);
  t.is((await post(server, '/signup', { email: 'dup@example.com', password: PASSWORD })).status, 201);
  t.regex(assertError(t, await post(server, '/signup', { email: 'dup@example.com', password: PASSWORD }), 409), /already exists/);
  assertError(t, await post(server, '/signup', { email: ' DUP@Example.com ', password: 'another password' }), 409);
});

test('sign-in with a wrong password or unknown email is a 401 with no session', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  for (const body of [
    { email: account.email, password: 'wrong password' },
    { email: 'nobody@example.com', password: PASSWORD },
    { email: account.email },
    { email: { $ne: null }, password: { $ne: null } },
  ]) {
    const answer = await post(server, '/signin', body);
    t.regex(assertError(t, answer, 401), /wrong email or password/);
    t.is(answer.headers.get('set-cookie'), null);
  }
  const ok = await post(server, '/signin', { email: account.email.toUpperCase(), password: PASSWORD });
  t.is(ok.status, 200);
  t.regex(ok.headers.get('set-cookie') ?? '', /^waymark_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict/);
});

test('after 5 failed sign-ins the account is locked for a minute: 429 with Retry-After', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  for (let i = 0; i < 5; i++) t.is((await post(server, '/signin', { email: account.email, password: `wrong ${i}` })).status, 401);
  const throttled = await post(server, '/signin', { email: account.email, password: PASSWORD });
  t.regex(assertError(t, throttled, 429), /too many failed sign-in attempts/);
  t.is(throttled.headers.get('retry-after'), '60');
  server.clock.set(Date.parse('2026-11-15T12:00:45Z'));
  const later = await post(server, '/signin', { email: account.email, password: PASSWORD });
  t.is(later.status, 429);
  t.is(later.headers.get('retry-after'), '15');
  server.clock.set(Date.parse('2026-11-15T12:01:00Z'));
  t.is((await post(server, '/signin', { email: account.email, password: PASSWORD })).status, 200);
});

test('sign-out ends the session on the server', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  t.is((await server.dashboard(account, 'GET', '/me')).status, 200);
  const out = await server.dashboard(account, 'POST', '/signout');
  t.is(out.status, 204);
  t.regex(out.headers.get('set-cookie') ?? '', /waymark_session=;.*Max-Age=0/);
  assertError(t, await call(`${server.url}/dashboard/api/me`, { headers: { cookie: account.cookie } }), 401);
  assertError(t, await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } }), 401);
  const res = await server.dashboard(account, 'POST', '/keys', { name: 'after sign-out' });
  t.is(res.status, 401);
});

test('state changes need the CSRF token and a same-origin Origin', async (t) => {
  const server = await serve(t);
  const account = await server.signUp();
  const body = JSON.stringify({ name: 'csrf' });
  const base = { cookie: account.cookie, 'content-type': 'application/json' };
  const noToken = await call(`${server.url}/dashboard/api/keys`, { method: 'POST', headers: base, body });
  t.regex(assertError(t, noToken, 403), /CSRF/);
  const wrongToken = await call(`${server.url}/dashboard/api/keys`, {
    method: 'POST',
    headers: { ...base, 'x-csrf-token': 'x'.repeat(43) },
    body,
  });
  assertError(t, wrongToken, 403);
  const withToken = { ...base, 'x-csrf-token': account.csrfToken };
  for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`]) {
    const crossOrigin = await call(`${server.url}/dashboard/api/keys`, { method: 'POST', headers: { ...withToken, origin }, body });
    assertError(t, crossOrigin, 403);
  }
  const crossSite = await call(`${server.url}/dashboard/api/keys`, {
    method: 'POST',
    headers: { ...withToken, 'sec-fetch-site': 'cross-site' },
    body,
  });
  assertError(t, crossSite, 403);
  const billing = await call(`${server.url}/dashboard/api/billing`, {
    method: 'PUT',
    headers: { ...base, origin: 'https://evil.example', 'x-csrf-token': account.csrfToken },
    body: JSON.stringify({ tier: 'pro' }),
  });
  assertError(t, billing, 403);

  const keys = (await (await server.dashboard(account, 'GET', '/keys')).json()) as { keys: unknown[] };
  t.is(keys.keys.length, 0, 'no refused call created a key');
  const me = (await (await server.dashboard(account, 'GET', '/me')).json()) as { organization: { tier: string } };
  t.is(me.organization.tier, 'free');
  const sameOrigin = await call(`${server.url}/dashboard/api/keys`, {
    method: 'POST',
    headers: { ...withToken, origin: server.url },
    body,
  });
  t.is(sameOrigin.status, 201);
});

test('the dashboard API sends no CORS headers and refuses preflights', async (t) => {
  const server = await serve(t);
  const preflight = await call(`${server.url}/dashboard/api/keys`, {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  t.is(preflight.status, 405);
  t.is(preflight.headers.get('access-control-allow-origin'), null);
  t.is((await call(`${server.url}/dashboard/api/me`)).headers.get('access-control-allow-origin'), null);
});

test('a key value is shown once at creation and can never be read again', async (t) => {
  const server = await serve(t, { dataDir: tempDataDir(t) });
  const account = await server.signUp();
  const res = await server.dashboard(account, 'POST', '/keys', { name: 'secret', scopes: ['maps', 'routing'] });
  t.is(res.status, 201);
  t.is(res.headers.get('cache-control'), 'no-store');
  const created = (await res.json()) as { key: Record<string, unknown>; value: string };
  t.regex(created.value, /^wmk_[0-9A-Za-z]{38}$/);
  t.deepEqual(created.key.scopes, ['maps', 'routing']);
  t.is(created.key.status, 'active');
  t.false('hash' in created.key);
  const value = created.value;
  const secretPart = value.slice(4, 36);
  t.is((await call(`${server.url}/api/v1/test/maps?key=${value}`)).status, 200);

  const readable: string[] = [
    await (await server.dashboard(account, 'GET', '/keys')).text(),
    await (await server.dashboard(account, 'GET', '/usage')).text(),
    (await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } })).text,
    (await call(`${server.url}/api/v1/usage/current?key=${value}`)).text,
  ];
  for (const text of readable) {
    t.false(text.includes(secretPart), text);
    t.true(text.includes(created.key.id as string), 'the key is listed');
  }
  t.false((await (await server.dashboard(account, 'GET', '/me')).text()).includes(secretPart));
  const listed = JSON.parse(readable[0]!) as { keys: Record<string, unknown>[] };
  t.deepEqual(Object.keys(listed.keys[0]!).sort(), [
    'allowedIps',
    'allowedOrigins',
    'createdAt',
    'createdBy',
    'expiresAt',
    'hint',
    'id',
    'lastUsedAt',
    'name',
    'orgId',
    'perMinute',
    'previousHashExpiresAt',
    'revokedAt',
    'scopes',
    'status',
  ]);

  const databaseBytes = () =>
    readdirSync(server.dataDir)
      .filter((name) => name.startsWith('waymark.db'))
      .map((name) => readFileSync(join(server.dataDir, name)));
  await server.store.flush();
  for (const bytes of databaseBytes()) {
    t.true(bytes.length > 0);
    t.is(bytes.indexOf(secretPart), -1);
    t.is(bytes.indexOf(Buffer.from(secretPart, 'utf16le')), -1);
  }
  await server.close();
  const files = databaseBytes();
  t.true(files.length >= 1);
  for (const bytes of files) t.is(bytes.indexOf(secretPart), -1);
  t.true(
    files.some((bytes) => bytes.indexOf(created.key.id as string) >= 0),
    'the key record itself is stored',
  );
});

test('Enterprise cannot be chosen in the dashboard (403); Free and Pro can, and unknown tiers are 400s', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  const enterprise = await server.dashboard(account, 'PUT', '/billing', { tier: 'enterprise' });
  t.regex(assertError(t, { status: enterprise.status, body: await enterprise.json() }, 403), /contact|operator/i);
  const unknown = await server.dashboard(account, 'PUT', '/billing', { tier: 'platinum' });
  t.regex(assertError(t, { status: unknown.status, body: await unknown.json() }, 400), /unknown tier/);
  const pro = await server.dashboard(account, 'PUT', '/billing', { tier: 'Pro' });
  t.is(pro.status, 200);
  t.deepEqual(((await pro.json()) as { organization: { tier: string; quotas: unknown } }).organization, {
    id: account.orgId,
    name: account.email,
    tier: 'pro',
    quotas: { maps: 500_000, geocoding: 100_000, routing: 100_000 },
    perMinute: { maps: 30_000, geocoding: 1_200, routing: 600 },
  });
});

test('revoking a key of another organization is a 404 and leaves it working', async (t) => {
  const server = await serve(t);
  const mine = await customer(server);
  const theirs = await customer(server);
  const res = await server.dashboard(mine.account, 'POST', `/keys/${theirs.key.id}/revoke`);
  t.regex(assertError(t, { status: res.status, body: await res.json() }, 404), /no active key/);
  t.is((await call(`${server.url}/api/v1/test/maps?key=${theirs.key.value}`)).status, 200);
  const missing = await server.dashboard(mine.account, 'POST', '/keys/key_doesnotexist/revoke');
  t.is(missing.status, 404);
});

test('revoking twice is a 404 the second time; the list shows the key as revoked', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  t.is((await server.dashboard(account, 'POST', `/keys/${key.id}/revoke`)).status, 200);
  t.is((await server.dashboard(account, 'POST', `/keys/${key.id}/revoke`)).status, 404);
  const list = (await (await server.dashboard(account, 'GET', '/keys')).json()) as { keys: { status: string; revokedAt: string }[] };
  t.is(list.keys[0]?.status, 'revoked');
  t.is(list.keys[0]?.revokedAt, '2026-11-15T12:00:00.000Z');
});

test('keys are refused with 400s for a missing name or unknown scopes', async (t) => {
  const server = await serve(t);
  const account = await server.signUp();
  for (const body of [
    {},
    { name: '  ' },
    { name: 'k', scopes: [] },
    { name: 'k', scopes: ['admin'] },
    { name: 'k', scopes: 'maps,everything' },
  ]) {
    const res = await server.dashboard(account, 'POST', '/keys', body);
    assertError(t, { status: res.status, body: await res.json() }, 400);
  }
  t.is(((await (await server.dashboard(account, 'GET', '/keys')).json()) as { keys: unknown[] }).keys.length, 0);
});

test('the style list needs no session and no key, while the styles themselves still need a key', async (t) => {
  const server = await serve(t);
  const list = await call(`${server.url}/dashboard/api/styles`);
  t.is(list.status, 200);
  t.deepEqual(list.body, {
    styles: STYLES.map(({ slug, name }) => ({ slug, name })),
    languages: ['local', 'en', 'de'],
  });
  assertError(t, await call(`${server.url}/api/v1/styles`), 401);
  assertError(t, await call(`${server.url}/api/v1/styles/light/style.json`), 401);
});
