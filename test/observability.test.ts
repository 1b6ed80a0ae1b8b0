/** Health, Prometheus metrics and request ids. */
import test from 'ava';
import { customer, serve } from './helpers/fixtures.js';
import { call } from './helpers/http.js';

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2]!.split(',');
    if (wanted.every((w) => present.includes(w))) return Number(match[3]);
  }
  return undefined;
}

test('/healthz answers 200 without a key', async (t) => {
  const server = await serve(t);
  const answer = await call(`${server.url}/healthz`);
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { status: 'ok' });
});

test('/metrics counts requests by route and status, times them, and counts quota rejections', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  server.store.recordUsage([{ orgId: account.orgId, keyId: null, service: 'geocoding', day: '2026-11-15', count: 5_000 }]);
  for (let i = 0; i < 3; i++) await call(`${server.url}/api/v1/test/maps?key=${key.value}`);
  await call(`${server.url}/api/v1/test/maps`);
  await call(`${server.url}/v1/test/routing?key=${key.value}`);
  await call(`${server.url}/api/v1/test/geocoding?key=${key.value}`);
  await call(`${server.url}/api/v1/test/geocoding?key=${key.value}`);
  await call(`${server.url}/no/such/path`);

  const metrics = await call(`${server.url}/metrics`);
  t.is(metrics.status, 200);
  t.regex(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = metrics.text;
  t.regex(text, /# TYPE waymark_http_requests_total counter/);
  t.is(sample(text, 'waymark_http_requests_total', { route: '/api/v1/test/maps', status: '200' }), 3);
  t.is(sample(text, 'waymark_http_requests_total', { route: '/api/v1/test/maps', status: '401' }), 1);
  t.is(sample(text, 'waymark_http_requests_total', { route: '/v1/test/routing', status: '200' }), 1);
  t.is(sample(text, 'waymark_http_requests_total', { route: '/api/v1/test/geocoding', status: '429' }), 2);
  t.is(sample(text, 'waymark_http_requests_total', { route: 'unmatched', status: '404' }), 1);

  t.regex(text, /# TYPE waymark_http_request_duration_seconds histogram/);
  t.is(sample(text, 'waymark_http_request_duration_seconds_count', { route: '/api/v1/test/maps' }), 4);
  t.is(sample(text, 'waymark_http_request_duration_seconds_bucket', { route: '/api/v1/test/maps', le: '+Inf' }), 4);

  t.regex(text, /# TYPE waymark_quota_rejections_total counter/);
  t.is(sample(text, 'waymark_quota_rejections_total', { service: 'geocoding' }), 2);
  t.is(sample(text, 'waymark_quota_rejections_total', { service: 'maps' }), undefined);
  t.false(text.includes(key.value), 'keys never appear in metrics');
});

test('every answer carries an X-Request-Id, and a valid one sent by the client is echoed', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  const answers = [
    await call(`${server.url}/healthz`),
    await call(`${server.url}/metrics`),
    await call(`${server.url}/api/v1/test/maps?key=${key.value}`),
    await call(`${server.url}/api/v1/test/maps`),
    await call(`${server.url}/api/v1/test/maps`, { method: 'OPTIONS' }),
    await call(`${server.url}/api/v1/test/maps`, { method: 'POST' }),
    await call(`${server.url}/nowhere`),
    await call(`${server.url}/dashboard/api/me`, { headers: { cookie: account.cookie } }),
    await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } }),
  ];
  const ids = answers.map((a) => a.headers.get('x-request-id'));
  for (const id of ids) t.regex(id ?? '', /^[A-Za-z0-9._-]{1,64}$/);
  t.is(new Set(ids).size, ids.length, 'ids are unique');

  for (const given of ['trace-123', 'abc.DEF_0-9', 'x'.repeat(64)]) {
    const answer = await call(`${server.url}/api/v1/test/maps?key=${key.value}`, { headers: { 'x-request-id': given } });
    t.is(answer.headers.get('x-request-id'), given);
  }
  for (const invalid of ['has space', 'x'.repeat(65), '<script>', 'a,b']) {
    const answer = await call(`${server.url}/healthz`, { headers: { 'x-request-id': invalid } });
    const id = answer.headers.get('x-request-id');
    t.not(id, invalid);
    t.regex(id ?? '', /^[A-Za-z0-9._-]{1,64}$/);
  }
});
