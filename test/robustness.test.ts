/**
 * PRODUCT.md "What must never happen": bad input answered 4xx (never 500, never a crash), with the
 * database intact and the server still serving. Also CORS, preflights and the 404/405 bodies.
 */
import test, { type ExecutionContext } from 'ava';
import { customer, serve, type Customer } from './helpers/fixtures.js';
import {
  assertError,
  call,
  rawExchange,
  rawGet,
  rawRequest,
  seededRandom,
  junk,
  snapshotDatabase,
  type DatabaseSnapshot,
} from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

const MAPS = '/api/v1/test/maps';

interface Setup {
  server: TestServer;
  owner: Customer;
  before: DatabaseSnapshot;
}

async function setup(t: ExecutionContext): Promise<Setup> {
  const server = await serve(t);
  const owner = await customer(server);
  return { server, owner, before: snapshotDatabase(server.dataDir) };
}

/** The server still serves, keys and organizations are as before, and nothing was counted. */
async function assertIntact(t: ExecutionContext, { server, owner, before }: Setup): Promise<void> {
  const health = await call(`${server.url}/healthz`);
  t.is(health.status, 200);
  t.deepEqual(health.body, { status: 'ok' });
  t.deepEqual(snapshotDatabase(server.dataDir), before);
  const usage = await call(`${server.url}/api/v1/usage/current?key=${owner.key.value}`);
  t.is(usage.status, 200);
  t.deepEqual([usage.body.services.maps.used, usage.body.services.geocoding.used, usage.body.services.routing.used], [0, 0, 0]);
}

test('a 20 KB header is refused with 431 and the server keeps serving', async (t) => {
  const s = await setup(t);
  const big = `X-Padding: ${'a'.repeat(20 * 1024)}`;
  const withKey = await rawRequest(s.server.port, rawGet(`${MAPS}?key=${s.owner.key.value}`, [big]));
  assertError(t, { status: withKey.status!, body: JSON.parse(withKey.body) }, 431);
  const bigKey = await rawRequest(s.server.port, rawGet(MAPS, [`X-API-Key: wmk_${'A'.repeat(20 * 1024)}`]));
  t.is(bigKey.status, 431);
  const viaFetch = await call(`${s.server.url}/healthz`, { headers: { 'x-padding': 'b'.repeat(20 * 1024) } });
  assertError(t, viaFetch, 431);
  t.truthy(viaFetch.headers.get('x-request-id'));
  await assertIntact(t, s);
});

test('a 20 KB header arriving in several reads gets a 431 or a closed connection, and the server keeps serving', async (t) => {
  const s = await setup(t);
  const request = rawGet(`${MAPS}?key=${s.owner.key.value}`, [`X-Padding: ${'a'.repeat(20 * 1024)}`]);
  // uWS closes such a connection itself when the head is over 4 KB and not read at once.
  const answer = await rawRequest(s.server.port, [request.subarray(0, 2048), request.subarray(2048, 10_000), request.subarray(10_000)]);
  t.true(answer.status === 431 || (answer.status === null && answer.body === ''), answer.statusLine);
  await assertIntact(t, s);
});

test('headers of ordinary size are served', async (t) => {
  const s = await setup(t);
  const answer = await call(`${s.server.url}${MAPS}?key=${s.owner.key.value}`, {
    headers: { 'x-padding': 'a'.repeat(3000), 'user-agent': 'MapLibre GL JS/4.0 '.repeat(10) },
  });
  t.is(answer.status, 200);
});

test('a 100 KB query string is refused with 414 and the server keeps serving', async (t) => {
  const s = await setup(t);
  const query = `key=${s.owner.key.value}&text=${'x'.repeat(100 * 1024)}`;
  const raw = await rawRequest(s.server.port, rawGet(`${MAPS}?${query}`));
  t.is(raw.status, 414);
  assertError(t, { status: raw.status!, body: JSON.parse(raw.body) }, 414);
  const viaFetch = await call(`${s.server.url}${MAPS}?${query}`);
  assertError(t, viaFetch, 414);
  await assertIntact(t, s);
});

test('non-ASCII keys are malformed 401s, percent-encoded or as raw bytes', async (t) => {
  const s = await setup(t);
  const { value } = s.owner.key;
  const lookalike = `${value.slice(0, 20)}é${value.slice(21)}`;
  for (const key of [lookalike, `wmk_${'ü'.repeat(38)}`, '🗺️', `${value}\u200b`, `\u00a0${value}`]) {
    const answer = await call(`${s.server.url}${MAPS}?key=${encodeURIComponent(key)}`);
    t.regex(assertError(t, answer, 401), /malformed/, key);
  }
  const rawBytes = [
    Buffer.concat([Buffer.from('X-API-Key: '), Buffer.from(lookalike, 'utf8')]),
    Buffer.concat([Buffer.from('X-API-Key: wmk_'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80, 0xe2, 0x82])]),
    Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from(lookalike, 'latin1')]),
  ];
  for (const line of rawBytes) {
    const raw = await rawRequest(s.server.port, rawGet(MAPS, [line]));
    t.regex(assertError(t, { status: raw.status!, body: JSON.parse(raw.body) }, 401), /malformed/);
  }
  const rawTarget = await rawRequest(s.server.port, rawGet(Buffer.from(`${MAPS}?key=${lookalike}`, 'utf8')));
  t.is(rawTarget.status, 401);
  await assertIntact(t, s);
});

test('SQL-looking keys are malformed 401s', async (t) => {
  const s = await setup(t);
  for (const key of ["' OR 1=1 --", "wmk_' OR '1'='1", `wmk_${"'".repeat(38)}`, "x'; DROP TABLE api_keys; --", '%27%20OR%201%3D1%20--']) {
    t.is((await call(`${s.server.url}${MAPS}?key=${encodeURIComponent(key)}`)).status, 401, key);
    t.is((await call(`${s.server.url}${MAPS}`, { headers: { 'x-api-key': key } })).status, 401, key);
    t.is((await call(`${s.server.url}${MAPS}`, { headers: { authorization: `Bearer ${key}` } })).status, 401, key);
  }
  t.is((await call(`${s.server.url}${MAPS}?key=' OR 1=1 --`)).status, 401);
  await assertIntact(t, s);
});

test('SQL-looking dashboard input is stored literally or refused, never executed', async (t) => {
  const s = await setup(t);
  const json = { 'content-type': 'application/json' };
  const signIn = await call(`${s.server.url}/dashboard/api/signin`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: "' OR 1=1 --", password: "' OR '1'='1" }),
  });
  assertError(t, signIn, 401);
  const badEmail = await call(`${s.server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: "' OR 1=1 --", password: 'correct horse battery' }),
  });
  assertError(t, badEmail, 400);
  await assertIntact(t, s);

  const name = "Robert'); DROP TABLE organizations; --";
  const email = "o'brien--@example.com";
  const account = await s.server.signUp(email, name);
  const me = (await (await s.server.dashboard(account, 'GET', '/me')).json()) as {
    user: { email: string };
    organization: { name: string };
  };
  t.deepEqual([me.user.email, me.organization.name], [email, name]);
  const key = await s.server.createKey(account, { name: "k' OR 1=1; --" });
  const keys = (await (await s.server.dashboard(account, 'GET', '/keys')).json()) as { keys: { id: string; name: string }[] };
  t.deepEqual(
    keys.keys.map((k) => [k.id, k.name]),
    [[key.id, "k' OR 1=1; --"]],
  );
  const after = snapshotDatabase(s.server.dataDir);
  t.is(after.organizations.length, s.before.organizations.length + 1);
  t.is(after.apiKeys.length, s.before.apiKeys.length + 1);
  for (const table of ['organizations', 'users', 'apiKeys'] as const) {
    for (const row of s.before[table])
      t.true(
        after[table].some((r) => JSON.stringify(r) === JSON.stringify(row)),
        table,
      );
  }
  t.is((await call(`${s.server.url}${MAPS}?key=${s.owner.key.value}`)).status, 200);
});

test('malformed percent-encoding is answered 4xx', async (t) => {
  const s = await setup(t);
  for (const path of [`${MAPS}?key=%ZZ%`, `${MAPS}?key=%`, `${MAPS}?key=%E0%A4%A`, `${MAPS}?%%%=%%%`, `${MAPS}?key=wmk_%00%00`]) {
    const raw = await rawRequest(s.server.port, rawGet(path));
    t.is(raw.status, 401, path);
    assertError(t, { status: raw.status!, body: JSON.parse(raw.body) }, 401);
  }
  for (const path of ['/api/v1/%ZZ', '/api/v1/test/maps%', '/%E0%A4%A', '/api/v1/test/%6Daps', '/api%2Fv1%2Ftest%2Fmaps']) {
    const raw = await rawRequest(s.server.port, rawGet(`${path}?key=${s.owner.key.value}`));
    assertError(t, { status: raw.status!, body: JSON.parse(raw.body) }, 404);
  }
  await assertIntact(t, s);
});

test('junk paths are uniform 404s', async (t) => {
  const s = await setup(t);
  const paths = [
    '/../../etc/passwd',
    '/api/v1/../../waymark.db',
    '//',
    '/api/v1',
    '/api/v1/',
    '/api/v2/test/maps',
    '/api/v1/test/maps/extra',
    '/api/v1//test/maps',
    '/API/V1/TEST/MAPS',
    `/${'segment/'.repeat(200)}`,
    '/dashboard/api/',
    '/dashboard/../waymark.db',
    '/.env',
    '/wp-login.php',
  ];
  for (const path of paths) {
    const raw = await rawRequest(s.server.port, rawGet(`${path}?key=${s.owner.key.value}`));
    const message = assertError(t, { status: raw.status!, body: JSON.parse(raw.body) }, 404);
    t.regex(message, /no route/, path);
    // Inside the API the message names no other place to look; outside, it points at the API.
    if (/^\/(api\/v1|v1)(\/|$)/.test(path)) t.regex(message, /no such endpoint in the API/, path);
    else t.regex(message, /the API is served under \/api\/v1 and the dashboard at \/dashboard\//, path);
    t.truthy(raw.headers['x-request-id']);
  }
  await assertIntact(t, s);
});

test('wrong methods are uniform 405s naming the allowed ones; HEAD answers carry no body', async (t) => {
  const s = await setup(t);
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const answer = await call(`${s.server.url}${MAPS}?key=${s.owner.key.value}`, { method, body: method === 'DELETE' ? undefined : '{}' });
    t.regex(assertError(t, answer, 405), /use GET/);
    t.is(answer.headers.get('allow'), 'GET');
    t.is(answer.headers.get('access-control-allow-origin'), '*');
  }
  assertError(t, await call(`${s.server.url}/dashboard/api/signup`), 405);
  // A HEAD answer has no body, so the next answer on the connection is read correctly.
  const exchange = await rawExchange(
    s.server.port,
    `HEAD ${MAPS}?key=${s.owner.key.value} HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  );
  const responses = exchange.split(/(?=HTTP\/1\.1 \d{3} )/);
  t.is(responses.length, 2, exchange);
  t.regex(responses[0]!, /^HTTP\/1\.1 405 /);
  t.true(responses[0]!.endsWith('\r\n\r\n'), 'no body after the HEAD answer');
  t.regex(responses[1]!, /^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{"status":"ok"\}$/);
  await assertIntact(t, s);
});

test('204 and 304 answers carry no body, so keep-alive connections stay in step', async (t) => {
  const s = await setup(t);
  const key = s.owner.key.value;
  const exchange = await rawExchange(
    s.server.port,
    `GET ${MAPS}?key=${key}&status=204 HTTP/1.1\r\nHost: x\r\n\r\n` +
      `GET ${MAPS}?key=${key}&status=304 HTTP/1.1\r\nHost: x\r\n\r\n` +
      'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  );
  const responses = exchange.split(/(?=HTTP\/1\.1 \d{3} )/);
  t.deepEqual(
    responses.map((r) => r.slice(0, 12)),
    ['HTTP/1.1 204', 'HTTP/1.1 304', 'HTTP/1.1 200'],
  );
  t.true(responses[0]!.endsWith('\r\n\r\n'));
  t.true(responses[1]!.endsWith('\r\n\r\n'));
  t.true(responses[2]!.endsWith('{"status":"ok"}'));
});

test('an OPTIONS preflight is answered 204 with CORS headers, without a key, and never counted', async (t) => {
  const s = await setup(t);
  for (const path of [MAPS, '/v1/test/routing', '/api/v1/usage/current', `${MAPS}?key=wmk_bogus`]) {
    const preflight = await call(`${s.server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    t.is(preflight.status, 204, path);
    t.is(preflight.text, '');
    t.is(preflight.headers.get('access-control-allow-origin'), '*');
    t.regex(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'x-api-key']) t.true(allowed.includes(header), header);
    t.is(preflight.headers.get('x-ratelimit-limit'), null);
  }
  await assertIntact(t, s);
});

test('public answers carry CORS headers that expose the rate-limit headers', async (t) => {
  const s = await setup(t);
  const key = s.owner.key.value;
  s.server.store.recordUsage([{ orgId: s.owner.account.orgId, keyId: null, service: 'routing', day: '2026-11-15', count: 5_000 }]);
  const answers = [
    await call(`${s.server.url}${MAPS}?key=${key}`),
    await call(`${s.server.url}${MAPS}?key=${key}&status=400`),
    await call(`${s.server.url}${MAPS}`),
    await call(`${s.server.url}/api/v1/test/routing?key=${key}`),
    await call(`${s.server.url}/v1/test/geocoding?key=${key}`),
    await call(`${s.server.url}/api/v1/usage/current?key=${key}`),
    await call(`${s.server.url}/api/v1/no-such-route?key=${key}`),
  ];
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 400, 401, 429, 200, 200, 404],
  );
  for (const answer of answers) {
    t.is(answer.headers.get('access-control-allow-origin'), '*', String(answer.status));
    const exposed = answer.headers.get('access-control-expose-headers') ?? '';
    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) t.true(exposed.includes(header));
  }
  t.is((await call(`${s.server.url}/healthz`)).headers.get('access-control-allow-origin'), null);
});

/** A random string of printable ASCII, plus percent signs, UTF-8 and a few SQL and JSON characters. */
test('fuzz: a few hundred random queries and headers on a metered route never get a 5xx', async (t) => {
  const s = await setup(t);
  const random = seededRandom(20261115);
  const { value } = s.owner.key;
  const statuses = new Map<number, number>();
  for (let i = 0; i < 300; i++) {
    // Keep the test route's own knobs (status, delay) out of the fuzz.
    const query = junk(random, 200).replace(/status|delay/gi, 'x');
    const keyChoice = random();
    const key = keyChoice < 0.2 ? value : keyChoice < 0.4 ? value.slice(0, Math.floor(random() * value.length)) : junk(random, 50);
    const headers: string[] = [];
    if (random() < 0.5) headers.push(`X-API-Key: ${key}`);
    if (random() < 0.3) headers.push(`Authorization: ${random() < 0.7 ? 'Bearer ' : ''}${junk(random, 60)}`);
    if (random() < 0.3) headers.push(`X-Request-Id: ${junk(random, 80)}`);
    if (random() < 0.2) headers.push(`Cookie: waymark_session=${junk(random, 60)}`);
    const target = `${random() < 0.5 ? MAPS : '/v1/test/maps'}?${random() < 0.5 ? `key=${encodeURIComponent(key)}&` : ''}${query}`;
    const raw = await rawRequest(
      s.server.port,
      rawGet(
        Buffer.from(target, 'utf8'),
        headers.map((h) => Buffer.from(h, 'utf8')),
      ),
    );
    if (raw.status === null) {
      t.fail(`no answer to ${JSON.stringify(target)} with ${JSON.stringify(headers)}`);
      continue;
    }
    statuses.set(raw.status, (statuses.get(raw.status) ?? 0) + 1);
    t.true(raw.status < 500, `${raw.status} for ${JSON.stringify(target)}`);
    const body = JSON.parse(raw.body) as Record<string, unknown>;
    if (raw.status === 200) t.deepEqual(body, { service: 'maps', ok: true });
    else assertError(t, { status: raw.status, body }, raw.status);
  }
  t.true((statuses.get(200) ?? 0) > 0, 'some fuzzed requests carried the real key');
  t.true((statuses.get(401) ?? 0) > 0);
  t.true((statuses.get(400) ?? 0) > 0, 'some sent two different keys');
  t.is((await call(`${s.server.url}/healthz`)).status, 200);
  t.deepEqual(snapshotDatabase(s.server.dataDir), s.before);
  const used = (await call(`${s.server.url}/api/v1/usage/current?key=${value}`)).body.services.maps.used;
  t.is(used, statuses.get(200));
});
