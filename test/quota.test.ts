/** Spec sections 7 and 8, PRODUCT.md "Quotas and metering": monthly quotas, headers and counting. */
import test from 'ava';
import type { Service, Tier } from '../src/control-plane/types.js';
import { customer, serve } from './helpers/fixtures.js';
import { assertError, call, rateLimit } from './helpers/http.js';
import { testRoutes, type TestServer } from './helpers/server.js';
import { ApiError } from '../src/http/errors.js';
import type { Request } from '../src/http/request.js';

const NOVEMBER = '2026-11-15';
const NEXT_MONTH = '2026-12-01T00:00:00.000Z';
const UNLIMITED = '2147483647';

/** Records `count` units of earlier usage this month, before the organization's first request. */
function seed(server: TestServer, orgId: string, service: Service, count: number, keyId: string | null = null): void {
  server.store.recordUsage([{ orgId, keyId, service, day: NOVEMBER, count }]);
}

const usedOf = async (server: TestServer, keyValue: string, service: Service): Promise<number> =>
  (await call(`${server.url}/api/v1/usage/current?key=${keyValue}`)).body.services[service].used;

interface Plan {
  tier: Tier;
  custom?: Partial<Record<Service, number>>;
  limits: Record<Service, number>;
}

const PLANS: Plan[] = [
  { tier: 'free', limits: { maps: 10_000, geocoding: 5_000, routing: 5_000 } },
  { tier: 'pro', limits: { maps: 500_000, geocoding: 100_000, routing: 100_000 } },
  {
    tier: 'enterprise',
    custom: { maps: 1_234_567, geocoding: 250, routing: 42 },
    limits: { maps: 1_234_567, geocoding: 250, routing: 42 },
  },
];

for (const plan of PLANS) {
  for (const service of ['maps', 'geocoding', 'routing'] as const) {
    const limit = plan.limits[service];
    test(`${plan.tier}: ${service} is served up to ${limit} a month, then refused with 429`, async (t) => {
      const server = await serve(t);
      const { account, key } = await customer(server);
      if (plan.tier !== 'free') await server.store.setTier(account.orgId, plan.tier, plan.custom);
      seed(server, account.orgId, service, limit - 1);
      const url = `${server.url}/api/v1/test/${service}?key=${key.value}`;

      const last = await call(url);
      t.is(last.status, 200);
      t.deepEqual(rateLimit(last.headers), { limit: String(limit), remaining: '0', reset: NEXT_MONTH });

      for (let attempt = 0; attempt < 2; attempt++) {
        const refused = await call(url);
        const message = assertError(t, refused, 429);
        t.regex(message, /monthly quota exceeded/i);
        t.true(message.includes(service), message);
        t.regex(
          message,
          plan.tier === 'enterprise'
            ? /contact us to raise the custom quota/
            : /upgrade at the billing page: http:\/\/127\.0\.0\.1:\d+\/dashboard\/#billing/,
        );
        t.notRegex(message, plan.tier === 'enterprise' ? /upgrade/ : /contact us/);
        t.deepEqual(rateLimit(refused.headers), { limit: String(limit), remaining: '0', reset: NEXT_MONTH });
      }
      t.is(await usedOf(server, key.value, service), limit);
      // Other services of the organization are not affected.
      const other = service === 'maps' ? 'routing' : 'maps';
      t.is((await call(`${server.url}/api/v1/test/${other}?key=${key.value}`)).status, 200);
    });
  }
}

test('enterprise without custom quotas is unlimited and reports 2147483647 as limit and remaining', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await server.store.setTier(account.orgId, 'enterprise');
  for (const service of ['maps', 'geocoding', 'routing'] as const) {
    seed(server, account.orgId, service, 50_000_000);
    const answer = await call(`${server.url}/api/v1/test/${service}?key=${key.value}`);
    t.is(answer.status, 200, service);
    t.deepEqual(rateLimit(answer.headers), { limit: UNLIMITED, remaining: UNLIMITED, reset: NEXT_MONTH });
  }
  const usage = await call(`${server.url}/api/v1/usage/current?key=${key.value}`);
  t.deepEqual(usage.body.services.maps, { used: 50_000_001, limit: null, remaining: null });
});

test('enterprise custom quotas for some services leave the others unlimited', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await server.store.setTier(account.orgId, 'enterprise', { routing: 1 });
  t.is(rateLimit((await call(`${server.url}/api/v1/test/routing?key=${key.value}`)).headers).limit, '1');
  t.is((await call(`${server.url}/api/v1/test/routing?key=${key.value}`)).status, 429);
  t.is(rateLimit((await call(`${server.url}/api/v1/test/maps?key=${key.value}`)).headers).limit, UNLIMITED);
});

test('rate-limit headers come with successes, with 4xx after authentication and with 429s', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const url = `${server.url}/api/v1/test/geocoding?key=${key.value}`;
  const ok = await call(url);
  t.deepEqual(rateLimit(ok.headers), { limit: '5000', remaining: '4999', reset: NEXT_MONTH });
  for (const status of [400, 404, 422]) {
    const failed = await call(`${url}&status=${status}`);
    t.is(failed.status, status);
    t.deepEqual(rateLimit(failed.headers), { limit: '5000', remaining: '4999', reset: NEXT_MONTH }, `on ${status}`);
  }
  t.deepEqual(rateLimit((await call(url)).headers), { limit: '5000', remaining: '4998', reset: NEXT_MONTH });
  // Before authentication there is no quota to report.
  t.deepEqual(rateLimit((await call(`${server.url}/api/v1/test/geocoding`)).headers), { limit: null, remaining: null, reset: null });
});

test('only 2xx and 304 answers count; 4xx and 5xx from the handler are released', async (t) => {
  const server = await serve(t);
  const { key } = await customer(server);
  const url = `${server.url}/api/v1/test/routing?key=${key.value}`;
  for (const status of [200, 201, 204, 304]) t.is((await call(`${url}&status=${status}`)).status, status);
  for (const status of [400, 404, 409, 500, 503]) t.is((await call(`${url}&status=${status}`)).status, status);
  t.is(await usedOf(server, key.value, 'routing'), 4);
  t.is(rateLimit((await call(url)).headers).remaining, String(5000 - 5));
});

test('a failing request at the limit does not use the last unit', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'maps', 9_999);
  const url = `${server.url}/api/v1/test/maps?key=${key.value}`;
  t.is((await call(`${url}&status=500`)).status, 500);
  t.is((await call(`${url}&status=404`)).status, 404);
  t.is((await call(url)).status, 200);
  t.is((await call(url)).status, 429);
});

test('the 429 body is the uniform error with the billing page of the public URL', async (t) => {
  const server = await serve(t, { publicUrl: 'https://maps.example.com' });
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'geocoding', 5_000);
  const refused = await call(`${server.url}/v1/test/geocoding?key=${key.value}`);
  const message = assertError(t, refused, 429);
  t.true(message.includes('https://maps.example.com/dashboard/#billing'), message);
  t.true(message.includes('geocoding'), message);
});

test('an upgrade in the dashboard billing area raises the limit at once', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'geocoding', 5_000);
  const url = `${server.url}/api/v1/test/geocoding?key=${key.value}`;
  t.is((await call(url)).status, 429);
  const upgrade = await server.dashboard(account, 'PUT', '/billing', { tier: 'pro' });
  t.is(upgrade.status, 200);
  const served = await call(url);
  t.is(served.status, 200);
  t.deepEqual(rateLimit(served.headers), { limit: '100000', remaining: String(100_000 - 5_001), reset: NEXT_MONTH });
});

test('a downgrade applies at once and keeps the usage already counted', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  await server.store.setTier(account.orgId, 'pro');
  seed(server, account.orgId, 'routing', 6_000);
  const url = `${server.url}/api/v1/test/routing?key=${key.value}`;
  t.is((await call(url)).status, 200);
  t.is((await server.dashboard(account, 'PUT', '/billing', { tier: 'free' })).status, 200);
  const refused = await call(url);
  t.is(refused.status, 429);
  t.deepEqual(rateLimit(refused.headers), { limit: '5000', remaining: '0', reset: NEXT_MONTH });
  t.is(await usedOf(server, key.value, 'routing'), 6_001);
});

test('quotas reset when the UTC month changes', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'maps', 10_000);
  const url = `${server.url}/api/v1/test/maps?key=${key.value}`;
  server.clock.set('2026-11-30T23:59:59.999Z');
  const refused = await call(url);
  t.is(refused.status, 429);
  t.is(rateLimit(refused.headers).reset, NEXT_MONTH);

  server.clock.set('2026-12-01T00:00:00Z');
  const served = await call(url);
  t.is(served.status, 200);
  t.deepEqual(rateLimit(served.headers), { limit: '10000', remaining: '9999', reset: '2027-01-01T00:00:00.000Z' });
  const usage = await call(`${server.url}/api/v1/usage/current?key=${key.value}`);
  t.deepEqual(usage.body.period, { start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
  t.is(usage.body.services.maps.used, 1);
});

test('200 concurrent requests against 50 remaining units give exactly 50 successes', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'maps', 9_950);
  const url = `${server.url}/api/v1/test/maps?key=${key.value}&delay=20`;
  const answers = await Promise.all(Array.from({ length: 200 }, () => call(url)));
  const statuses = answers.map((a) => a.status);
  t.is(statuses.filter((s) => s === 200).length, 50);
  t.is(statuses.filter((s) => s === 429).length, 150);
  const remaining = answers.filter((a) => a.status === 200).map((a) => Number(rateLimit(a.headers).remaining));
  t.deepEqual(
    [...remaining].sort((a, b) => a - b),
    Array.from({ length: 50 }, (_, i) => i),
    'each success reports its own remaining',
  );

  const usage = await call(`${server.url}/api/v1/usage/current?key=${key.value}`);
  t.is(usage.body.services.maps.used, 10_000);
  t.deepEqual(usage.body.keys.find((k: { id: string }) => k.id === key.id).used, { maps: 50, geocoding: 0, routing: 0 });
});

test('concurrent failures release their reservations, so later requests are served', async (t) => {
  const server = await serve(t);
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'geocoding', 4_990);
  const base = `${server.url}/api/v1/test/geocoding?key=${key.value}&delay=20`;
  const failing = await Promise.all(Array.from({ length: 30 }, () => call(`${base}&status=503`)));
  t.is(failing.filter((a) => a.status === 503).length + failing.filter((a) => a.status === 429).length, 30);
  const served = await Promise.all(Array.from({ length: 30 }, () => call(base)));
  t.is(served.filter((a) => a.status === 200).length, 10);
  t.is(await usedOf(server, key.value, 'geocoding'), 5_000);
});

test('a route that costs several units reserves them up front: whole or refused, reported and released as such', async (t) => {
  const unitsOf = (req: Request) => {
    const units = Number(req.query.get('units'));
    if (!Number.isInteger(units) || units < 1) throw new ApiError(400, 'units must be a positive whole number');
    return units;
  };
  const server = await serve(t, {
    services: [...testRoutes, { path: '/test/heavy', service: 'routing', units: unitsOf, handler: testRoutes[2]!.handler }],
  });
  const { account, key } = await customer(server);
  seed(server, account.orgId, 'routing', 4_990);
  const url = (units: number | string, status = 200) => `${server.url}/api/v1/test/heavy?key=${key.value}&units=${units}&status=${status}`;
  assertError(t, await call(url('x')), 400);
  const heavy = await call(url(7));
  t.is(heavy.status, 200);
  t.is(rateLimit(heavy.headers).remaining, '3');
  t.is((await call(url(4))).status, 429, 'four units do not fit in the three left');
  t.is((await call(url(3, 500))).status, 500, 'a failure');
  t.is((await call(url(3))).status, 200, 'its three units were released');
  t.is(await usedOf(server, key.value, 'routing'), 5_000);
});
