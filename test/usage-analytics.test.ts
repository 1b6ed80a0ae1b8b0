/**
 * Usage analytics (src/control-plane/analytics.ts, `GET /api/v1/usage/report`): every metered
 * request whose key is known is counted by key, service, endpoint, status class and day — answers,
 * 4xx, the 429s of a per-minute limit, 5xx — and the report's totals equal the requests sent, as
 * JSON or CSV, on the embedded store and over three nodes on Redis.
 */
import test from 'ava';
import { redisFor } from './helpers/backends.js';
import { serve } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

/** 5 routing answers and 3 of its 429s (a key limited to 5 a minute), 2 geocoding 400s and a maps 500, round robin over the nodes. */
async function sendMix(nodes: TestServer[], key: string): Promise<void> {
  const urls = [
    ...Array.from({ length: 8 }, () => '/test/routing'),
    '/test/geocoding?status=400',
    '/test/geocoding?status=400',
    '/test/maps?status=500',
  ];
  let i = 0;
  for (const url of urls) {
    const node = nodes[i++ % nodes.length]!;
    await call(`${node.url}/api/v1${url}${url.includes('?') ? '&' : '?'}key=${key}`);
  }
}

const EXPECTED = [
  { endpoint: '/test/geocoding', status: '4xx', count: 2 },
  { endpoint: '/test/maps', status: '5xx', count: 1 },
  { endpoint: '/test/routing', status: '2xx', count: 5 },
  { endpoint: '/test/routing', status: '429', count: 3 },
];

test('the report counts every metered request by endpoint and status class, as JSON and as CSV', async (t) => {
  const server = await serve(t);
  const account = await server.signUp();
  const key = await server.createKey(account, { perMinute: { routing: 5 } });
  await sendMix([server], key.value);
  const report = await call(`${server.url}/api/v1/usage/report?key=${key.value}&group_by=endpoint,status`);
  t.is(report.status, 200);
  t.like(report.body, { from: '2026-11-01', to: '2026-11-15', groupBy: ['endpoint', 'status'], total: 11 });
  t.deepEqual(report.body.rows, EXPECTED);

  const byDay = await call(`${server.url}/api/v1/usage/report?key=${key.value}&group_by=day,key,service`);
  t.deepEqual(byDay.body.rows, [
    { day: '2026-11-15', key: key.id, service: 'geocoding', count: 2 },
    { day: '2026-11-15', key: key.id, service: 'maps', count: 1 },
    { day: '2026-11-15', key: key.id, service: 'routing', count: 8 },
  ]);
  await server.store.flush();
  const csv = await call(`${server.url}/api/v1/usage/report?key=${key.value}&group_by=status&format=csv&from=2026-01-01&to=2026-12-31`);
  t.is(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.is(csv.text, 'status,count\r\n2xx,5\r\n4xx,2\r\n429,3\r\n5xx,1\r\n', 'the same after the counts were written');
  // Signed in, the owner sees the organization's keys.
  const dashboard = await fetch(`${server.url}/api/v1/usage/report?group_by=`, { headers: { cookie: account.cookie } });
  t.like(await dashboard.json(), { groupBy: [], rows: [{ count: 11 }], total: 11 });

  for (const query of [
    'from=2026-11-20&to=2026-11-01',
    'from=2025-12-31',
    'to=2026-02-30',
    'group_by=week',
    'format=xml',
    'from=11/01/2026',
  ]) {
    assertError(t, await call(`${server.url}/api/v1/usage/report?key=${key.value}&${query}`), 400);
  }
  assertError(t, await call(`${server.url}/api/v1/usage/report`), 401);
  // Another organization's key and session see nothing of these counts, also in a burst.
  const stranger = await server.signUp();
  const strangerKey = await server.createKey(stranger);
  const theirs = await Promise.all(
    Array.from({ length: 10 }, () => call(`${server.url}/api/v1/usage/report?key=${strangerKey.value}&group_by=`)),
  );
  t.deepEqual(
    theirs.map((answer) => answer.body.total),
    Array(10).fill(0),
  );
  const theirSession = await fetch(`${server.url}/api/v1/usage/report?group_by=`, { headers: { cookie: stranger.cookie } });
  t.like(await theirSession.json(), { rows: [], total: 0 });
});

test('over three nodes on Redis, the report equals the requests sent once the nodes have written their counts', async (t) => {
  const redis = redisFor(t, 'redis');
  const nodes = [await serve(t, { redis }), await serve(t, { redis }), await serve(t, { redis })];
  const account = await nodes[0]!.signUp();
  const key = await nodes[0]!.createKey(account, { perMinute: { routing: 5 } });
  await sendMix(nodes, key.value);
  await Promise.all(nodes.map((node) => node.store.flush()));
  const report = await call(`${nodes[2]!.url}/api/v1/usage/report?key=${key.value}&group_by=endpoint,status`);
  t.like(report.body, { total: 11 });
  t.deepEqual(report.body.rows, EXPECTED);
});
