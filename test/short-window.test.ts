/**
 * Short-window rate limits (src/control-plane/short-window.ts, the gateway's `limitWindow`): a
 * burst against a per-minute limit is served exactly the limit, on one node and spread over three
 * nodes on Redis; each refusal is a 429 with `Retry-After` and the IETF `RateLimit-Policy` /
 * `RateLimit` fields beside the monthly `X-RateLimit-*` ones, worded apart from the monthly quota's;
 * after the wait it serves again. Then the tier defaults, an Enterprise organization's operator-set
 * limits, the limits as a key is made and edited, and the Redis buckets' blocks: tokens a node holds
 * are waited for, and a dead node's are counted spent after their grace.
 */
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RedisShortWindow } from '../src/control-plane/redis/short-window.js';
import { controlKeys } from '../src/control-plane/redis/keys.js';
import { storeError } from '../src/control-plane/redis/connection.js';
import { LocalShortWindow } from '../src/control-plane/local-short-window.js';
import type { WindowBucket } from '../src/control-plane/short-window.js';
import { redisFor } from './helpers/backends.js';
import { waymark } from './helpers/cli.js';
import { customer, serve } from './helpers/fixtures.js';
import { assertError, call, rateLimit, type Answer } from './helpers/http.js';
import { deleteKeys, REDIS_URL, TEST_PREFIX_ROOT } from './helpers/queue.js';
import type { TestServer } from './helpers/server.js';

const routingOf = (server: TestServer, key: string) => `${server.url}/api/v1/test/routing?key=${key}`;

/** The statuses of a burst, counted. */
function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Every 429 of a burst: the short-window message, `Retry-After` (whole seconds: `seconds`), both kinds of headers. */
function checkRefusals(t: ExecutionContext, answers: Answer[], seconds: string): void {
  for (const answer of answers.filter((a) => a.status === 429)) {
    const message = assertError(t, answer, 429);
    t.regex(message, new RegExp(`^rate limit exceeded: this API key allows 30 routing requests per minute; retry after ${seconds} s`));
    t.notRegex(message, /monthly/);
    t.regex(answer.headers.get('retry-after')!, new RegExp(`^${seconds}$`));
    t.is(answer.headers.get('ratelimit-policy'), '"org";q=60;w=60, "key";q=30;w=60');
    t.regex(answer.headers.get('ratelimit')!, /^"org";r=\d+;t=\d+, "key";r=0;t=\d+$/);
    t.not(rateLimit(answer.headers).limit, null);
  }
}

test('60 parallel requests against a key limited to 30 per minute get 30 answers and 30 429s; after Retry-After it serves again', async (t) => {
  const server = await serve(t);
  const account = await server.signUp();
  const key = await server.createKey(account, { perMinute: { routing: 30 } });
  const answers = await Promise.all(Array.from({ length: 60 }, () => call(routingOf(server, key.value))));
  t.deepEqual(tally(answers), { 200: 30, 429: 30 });
  checkRefusals(t, answers, '2');
  const served = answers.find((a) => a.status === 200)!;
  t.is(served.headers.get('ratelimit-policy'), '"org";q=60;w=60, "key";q=30;w=60');
  t.regex(served.headers.get('ratelimit')!, /^"org";r=\d+;t=\d+, "key";r=\d+;t=\d+$/);
  t.is(rateLimit(served.headers).limit, '5000');

  server.clock.set(server.clock.now() + 2_000);
  t.is((await call(routingOf(server, key.value))).status, 200);
  t.is((await call(routingOf(server, key.value))).status, 429);
  // The monthly quota counted only what was answered.
  const usage = await server.store.usageByKey(account.orgId, '2026-11-01', '2026-11-30');
  t.is(usage.find((u) => u.keyId === key.id)?.used.routing, 31);
});

test('the same burst spread over three nodes on Redis gets exactly 30 answers; after Retry-After each node serves again', async (t) => {
  const redis = redisFor(t, 'redis');
  const nodes = [await serve(t, { redis }), await serve(t, { redis }), await serve(t, { redis })];
  const account = await nodes[0]!.signUp();
  const key = await nodes[0]!.createKey(account, { perMinute: { routing: 30 } });
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(routingOf(nodes[i % 3]!, key.value))));
  // Redis's clock runs: a burst longer than 2 s (a loaded machine) has had a token back per 2 s.
  const refills = Math.floor((Date.now() - started) / 2000);
  const { 200: served = 0, 429: refused = 0 } = tally(answers);
  t.is(served + refused, 60);
  t.true(served >= 30 && served <= 30 + refills, `${served} served in a burst with ${refills} refills`);
  // Redis's bucket may have refilled part of a token by a refusal: a second back, or two.
  checkRefusals(t, answers, '[12]');
  const retryAfterS = Number(answers.find((a) => a.status === 429)!.headers.get('retry-after'));
  await new Promise((resolve) => setTimeout(resolve, retryAfterS * 1000));
  t.is((await call(routingOf(nodes[1]!, key.value))).status, 200);
});

test("a Free organization's geocoding stops at its plan's 120 a minute, worded as the plan's; Pro allows more", async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const url = `${server.url}/api/v1/test/geocoding?key=${key.value}`;
  const answers = await Promise.all(Array.from({ length: 121 }, () => call(url)));
  t.deepEqual(tally(answers), { 200: 120, 429: 1 });
  const refused = answers.find((a) => a.status === 429)!;
  t.regex(
    assertError(t, refused, 429),
    /^rate limit exceeded: your organization's plan allows 120 geocoding requests per minute; retry after 1 s/,
  );
  t.is(refused.headers.get('ratelimit-policy'), '"org";q=120;w=60');
  await server.store.setTier(account.orgId, 'pro');
  const pro = await call(url);
  t.is(pro.status, 200);
  t.is(pro.headers.get('ratelimit-policy'), '"org";q=1200;w=60');
});

test('an Enterprise organization has no per-minute limit but what the operator sets', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await server.store.setTier(account.orgId, 'enterprise');
  const url = `${server.url}/api/v1/test/maps?key=${key.value}`;
  const free = await call(url);
  t.is(free.status, 200);
  t.is(free.headers.get('ratelimit-policy'), null);
  await server.store.setTier(account.orgId, 'enterprise', {}, { maps: 2 });
  t.deepEqual(tally(await Promise.all([call(url), call(url), call(url)])), { 200: 2, 429: 1 });
});

test("a key's per-minute limits are checked as it is made and edited, and an edit applies from the next request", async (t) => {
  const server = await serve(t);
  const account = await server.signUp();
  for (const perMinute of [
    { routing: 0 },
    { routing: 1.5 },
    { nope: 3 },
    'routing=abc',
    'routing',
    [30],
    { maps: 100_000_001 },
    'maps=1,maps=2',
  ]) {
    const res = await server.dashboard(account, 'POST', '/keys', { name: 'k', perMinute });
    t.is(res.status, 400, JSON.stringify(perMinute));
    t.regex(((await res.json()) as { message: string }).message, /per-minute|per minute/);
  }
  t.deepEqual((await server.store.listKeys(account.orgId)).length, 0, 'a refused key is not made');
  const key = await server.createKey(account, { perMinute: 'maps=1, routing=5' });
  const stored = (await server.store.listKeys(account.orgId))[0]!;
  t.deepEqual(stored.perMinute, { maps: 1, routing: 5 });
  const url = `${server.url}/api/v1/test/maps?key=${key.value}`;
  t.deepEqual(tally(await Promise.all([call(url), call(url)])), { 200: 1, 429: 1 });
  const lifted = await server.dashboard(account, 'PATCH', `/keys/${key.id}`, { perMinute: null });
  t.is(lifted.status, 200);
  t.is((await call(url)).status, 200);
});

test("the CLI sets, shows and lifts a key's per-minute limits, and a running server applies them from its next request", async (t) => {
  const server = await serve(t);
  await server.signUp('ops@example.com', 'Ops');
  const data = ['--data', server.dataDir];
  const created = await waymark(['key', 'create', '--org', 'Ops', '--name', 'script', '--per-minute', 'maps=2,routing=30', ...data]);
  t.is(created.code, 0, created.stderr);
  t.regex(created.stdout, /at most maps 2\/min, routing 30\/min:/);
  const value = created.stdout.split('\n')[1]!;
  const id = /\((key_[^)]+)\)/.exec(created.stdout)![1]!;
  const url = `${server.url}/api/v1/test/maps?key=${value}`;
  t.deepEqual(tally(await Promise.all([call(url), call(url), call(url)])), { 200: 2, 429: 1 });
  const listed = JSON.parse((await waymark(['key', 'list', '--org', 'Ops', '--json', ...data])).stdout) as { perMinute: unknown }[];
  t.deepEqual(listed[0]!.perMinute, { maps: 2, routing: 30 });
  const lifted = await waymark(['key', 'update', '--org', 'Ops', '--id', id, '--per-minute', 'none', ...data]);
  t.is(lifted.code, 0, lifted.stderr);
  t.notRegex(lifted.stdout, /\/min/);
  t.is((await call(url)).status, 200);
  for (const bad of ['maps=0', 'maps=x', 'tiles=3', 'maps=1,maps=1']) {
    const run = await waymark(['key', 'update', '--org', 'Ops', '--id', id, '--per-minute', bad, ...data]);
    t.is(run.code, 1, bad);
    t.regex(run.stderr, /^waymark: .*per[- ]minute[^\n]*\n$/, bad);
  }
});

test('local buckets refill evenly up to a minute of requests', (t) => {
  let now = 0;
  const buckets = new LocalShortWindow(() => now);
  const bucket: WindowBucket = { id: 'key:k:maps', policy: 'key', perMinute: 6 };
  for (let i = 0; i < 6; i++) t.true(buckets.take([bucket]).allowed);
  const refused = buckets.take([bucket]);
  t.false(refused.allowed);
  t.is(refused.retryAfterS, 10);
  now += 9_999;
  t.false(buckets.take([bucket]).allowed);
  now += 1;
  t.like(buckets.take([bucket]), { allowed: true, states: [{ remaining: 0, fullInS: 60 }] });
  now += 3_600_000;
  t.like(buckets.take([bucket]), { allowed: true, states: [{ remaining: 5, fullInS: 10 }] });
});

test('a refusal by one bucket takes nothing from the other', (t) => {
  const buckets = new LocalShortWindow(() => 0);
  const org: WindowBucket = { id: 'org:o:maps', policy: 'org', perMinute: 10 };
  const key: WindowBucket = { id: 'key:k:maps', policy: 'key', perMinute: 1 };
  t.true(buckets.take([org, key]).allowed);
  const refused = buckets.take([org, key]);
  t.like(refused, { allowed: false, refusedBy: key, states: [{ remaining: 9 }, { remaining: 0 }] });
});

/** Limiters as separate nodes would hold them, each on a connection of its own, on one key prefix. */
function redisNodes(t: ExecutionContext) {
  const prefix = `${TEST_PREFIX_ROOT}-window-${randomBytes(3).toString('hex')}`;
  const clients: Redis[] = [];
  t.teardown(async () => {
    for (const client of clients) client.disconnect();
    await deleteKeys(`${prefix}:*`);
  });
  const node = () => {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    const settings = { url: REDIS_URL, prefix };
    return { client, limiter: new RedisShortWindow(client, controlKeys(prefix), (error) => storeError(error, settings)) };
  };
  return { node };
}

/** How many of `n` takes at once were allowed, and how many tokens the bucket (`perMinute`) can have refilled meanwhile. */
async function burst(take: () => unknown, n: number, perMinute: number): Promise<{ served: number; refills: number }> {
  const started = Date.now();
  const allowed = await Promise.all(Array.from({ length: n }, async () => ((await take()) as { allowed: boolean }).allowed));
  return { served: allowed.filter(Boolean).length, refills: Math.floor(((Date.now() - started) * perMinute) / 60_000) };
}

test('on Redis, a node finding the bucket empty waits for the tokens another node holds unused, and gets them', async (t) => {
  const { node } = redisNodes(t);
  const a = node().limiter;
  const b = node().limiter;
  const bucket: WindowBucket = { id: `key:${randomBytes(3).toString('hex')}:maps`, policy: 'key', perMinute: 16 };
  // A takes one request's token in a block of two (an eighth of 16), and keeps the other for a while.
  t.true((await a.take([bucket])).allowed);
  const { served, refills } = await burst(() => b.take([bucket]), 20, 16);
  t.true(served >= 15 && served <= 15 + refills, `${served} served, ${refills} refilled`);
});

test('on Redis, the tokens of a node that died with a block out count as spent once its grace has passed', async (t) => {
  const { node } = redisNodes(t);
  const dying = node();
  const b = node().limiter;
  const bucket: WindowBucket = { id: `key:${randomBytes(3).toString('hex')}:maps`, policy: 'key', perMinute: 16 };
  t.true((await dying.limiter.take([bucket])).allowed);
  dying.client.disconnect(); // its block's unused token never comes back
  const { served, refills } = await burst(() => b.take([bucket]), 20, 16);
  t.true(served >= 14 && served <= 14 + refills, `${served} served, ${refills} refilled`);
});
