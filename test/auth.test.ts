/** Spec sections 3 and 5, PRODUCT.md "Authentication": how a request proves which key it uses. */
import test from 'ava';
import { generateKey } from '../src/control-plane/keys.js';
import { customer, otherProcess, serve } from './helpers/fixtures.js';
import { assertError, call, rateLimit, rawGet, rawRequest } from './helpers/http.js';

const MAPS = '/api/v1/test/maps';

test('a key is accepted as the key parameter, as Authorization: Bearer and as X-API-Key', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const byQuery = await call(`${server.url}${MAPS}?key=${key.value}`);
  const byBearer = await call(`${server.url}${MAPS}`, { headers: { authorization: `Bearer ${key.value}` } });
  const byHeader = await call(`${server.url}${MAPS}`, { headers: { 'x-api-key': key.value } });
  for (const answer of [byQuery, byBearer, byHeader]) {
    t.is(answer.status, 200);
    t.deepEqual(answer.body, { service: 'maps', ok: true });
  }
  t.is(rateLimit(byHeader.headers).remaining, String(10_000 - 3));
});

test('the same key sent by two or three methods is accepted', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const twice = await call(`${server.url}${MAPS}?key=${key.value}`, { headers: { authorization: `Bearer ${key.value}` } });
  t.is(twice.status, 200);
  const thrice = await call(`${server.url}${MAPS}?key=${key.value}&key=${key.value}`, {
    headers: { authorization: `Bearer ${key.value}`, 'x-api-key': key.value },
  });
  t.is(thrice.status, 200);
});

test('a key header sent twice with the same key is accepted; with different keys it is a 400', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const { key: other } = await customer(server);
  const send = async (lines: string[]) => {
    const raw = await rawRequest(server.port, rawGet(MAPS, lines));
    return { status: raw.status!, body: JSON.parse(raw.body) };
  };
  t.is((await send([`X-API-Key: ${key.value}`, `X-API-Key: ${key.value}`])).status, 200);
  t.is((await send([`Authorization: Bearer ${key.value}`, `Authorization: Bearer ${key.value}`])).status, 200);
  t.regex(assertError(t, await send([`X-API-Key: ${key.value}`, `X-API-Key: ${other.value}`]), 400), /different API keys/);
  t.regex(
    assertError(t, await send([`Authorization: Bearer ${key.value}`, `Authorization: Bearer ${other.value}`]), 400),
    /different API keys/,
  );
});

test('different keys in two methods, or twice in one, are a 400', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const { key: other } = await customer(server);
  const cases: [string, RequestInit][] = [
    [`?key=${key.value}`, { headers: { authorization: `Bearer ${other.value}` } }],
    [`?key=${key.value}`, { headers: { 'x-api-key': other.value } }],
    ['', { headers: { authorization: `Bearer ${key.value}`, 'x-api-key': other.value } }],
    [`?key=${key.value}&key=${other.value}`, {}],
  ];
  for (const [query, init] of cases) {
    const message = assertError(t, await call(`${server.url}${MAPS}${query}`, init), 400);
    t.regex(message, /different API keys/);
  }
  const usage = await call(`${server.url}/api/v1/usage/current?key=${key.value}`);
  t.is(usage.body.services.maps.used, 0);
});

test('missing, malformed, mistyped, unknown and revoked keys are 401s, each with its own message', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const revoked = await server.createKey(account, { name: 'old' });
  t.is((await server.dashboard(account, 'POST', `/keys/${revoked.id}/revoke`)).status, 200);

  const random = key.value.slice(4, 36);
  const badChecksum = `wmk_${random}${key.value.slice(36, 41)}${key.value[41] === 'A' ? 'B' : 'A'}`;
  const attempts: Record<string, string> = {
    missing: MAPS,
    'bad prefix': `${MAPS}?key=pk_${key.value.slice(4)}`,
    'bad checksum': `${MAPS}?key=${badChecksum}`,
    unknown: `${MAPS}?key=${generateKey()}`,
    revoked: `${MAPS}?key=${revoked.value}`,
  };
  const messages = new Map<string, string>();
  for (const [what, path] of Object.entries(attempts)) {
    const answer = await call(`${server.url}${path}`);
    messages.set(what, assertError(t, answer, 401));
    t.is(answer.headers.get('access-control-allow-origin'), '*', what);
  }
  t.is(new Set(messages.values()).size, messages.size, 'each 401 has its own message');
  t.regex(messages.get('missing')!, /API key is required/);
  t.regex(messages.get('bad prefix')!, /malformed/);
  t.regex(messages.get('bad checksum')!, /checksum/);
  t.regex(messages.get('unknown')!, /unknown API key/);
  t.regex(messages.get('revoked')!, /revoked/);
});

test('an Authorization header that is not Bearer is a 401, even next to a good key', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  for (const authorization of [`Basic ${Buffer.from(`u:${key.value}`).toString('base64')}`, `Token ${key.value}`, 'Bearer', 'Bearer  ']) {
    const message = assertError(t, await call(`${server.url}${MAPS}?key=${key.value}`, { headers: { authorization } }), 401);
    t.regex(message, /Bearer/);
  }
});

test('a key lacking the scope of a route is a 403 that names the scope, with rate-limit headers', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server, ['maps']);
  t.is((await call(`${server.url}${MAPS}?key=${key.value}`)).status, 200);
  for (const service of ['geocoding', 'routing']) {
    const answer = await call(`${server.url}/api/v1/test/${service}?key=${key.value}`);
    const message = assertError(t, answer, 403);
    t.true(message.includes(`"${service}" scope`), message);
    t.deepEqual(rateLimit(answer.headers), { limit: '5000', remaining: '5000', reset: '2026-12-01T00:00:00.000Z' });
  }
  const usage = await call(`${server.url}/api/v1/usage/current?key=${key.value}`);
  t.deepEqual([usage.body.services.geocoding.used, usage.body.services.routing.used], [0, 0]);
});

test('a new key has all three scopes unless others are chosen', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const list = await server.dashboard(account, 'GET', '/keys');
  const keys = ((await list.json()) as { keys: { id: string; scopes: string[] }[] }).keys;
  t.deepEqual(keys.find((k) => k.id === key.id)?.scopes, ['maps', 'geocoding', 'routing']);
  for (const service of ['maps', 'geocoding', 'routing']) {
    t.is((await call(`${server.url}/api/v1/test/${service}?key=${key.value}`)).status, 200, service);
  }
});

test('revocation in the dashboard takes effect on the very next request', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  t.is((await call(`${server.url}${MAPS}?key=${key.value}`)).status, 200);
  t.is((await server.dashboard(account, 'POST', `/keys/${key.id}/revoke`)).status, 200);
  t.regex(assertError(t, await call(`${server.url}${MAPS}?key=${key.value}`), 401), /revoked/);
  t.regex(assertError(t, await call(`${server.url}${MAPS}`, { headers: { 'x-api-key': key.value } }), 401), /revoked/);
  t.is((await call(`${server.url}/api/v1/usage/current?key=${key.value}`)).status, 401);
});

test('a key revoked by another process on the same SQLite file stops working on the next request', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  t.is((await call(`${server.url}${MAPS}?key=${key.value}`)).status, 200);
  const revoked = await otherProcess(server, (store) => store.revokeKey(account.orgId, key.id, new Date().toISOString()));
  t.is(revoked?.status, 'revoked');
  t.regex(assertError(t, await call(`${server.url}${MAPS}?key=${key.value}`), 401), /revoked/);
});

test('a key created by another process works on the next request', async (t) => {
  const server = await serve(t);
  const { account } = await customer(server);
  const { createKey } = await import('../src/control-plane/accounts.js');
  const created = await otherProcess(server, (store) => createKey(store, account.orgId, { name: 'cli' }, Date.now()));
  t.is((await call(`${server.url}${MAPS}?key=${created.value}`)).status, 200);
});

test('a tier changed by another process applies on the next request', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const before = await call(`${server.url}/api/v1/test/geocoding?key=${key.value}`);
  t.is(rateLimit(before.headers).limit, '5000');
  await otherProcess(server, (store) => store.setTier(account.orgId, 'enterprise', { geocoding: 2 }));
  const after = await call(`${server.url}/api/v1/test/geocoding?key=${key.value}`);
  t.is(after.status, 200);
  t.deepEqual([rateLimit(after.headers).limit, rateLimit(after.headers).remaining], ['2', '0']);
  t.is((await call(`${server.url}/api/v1/test/geocoding?key=${key.value}`)).status, 429);
  t.is(rateLimit((await call(`${server.url}${MAPS}?key=${key.value}`)).headers).limit, '2147483647');
});

test('errors on dashboard, system and unknown routes have the same body shape', async (t) => {
  const server = await serve(t);
  assertError(t, await call(`${server.url}/dashboard/api/me`), 401);
  assertError(t, await call(`${server.url}/dashboard/api/keys`, { method: 'POST' }), 401);
  assertError(t, await call(`${server.url}/nowhere`), 404);
  assertError(t, await call(`${server.url}/healthz`, { method: 'DELETE' }), 405);
  assertError(t, await call(`${server.url}/api/v1/usage/current`), 401);
  assertError(t, await call(`${server.url}/v1/test/routing`), 401);
});
