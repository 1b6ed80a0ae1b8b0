/**
 * What the dashboard's web app loads: every ES module under `web/js/`, served as JavaScript and
 * revalidated (no request path reaches a file outside `web/`), and the plan table, from tiers.ts.
 */
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TIER_LABELS, TIER_PRICES_USD, TIER_QUOTAS } from '../src/control-plane/tiers.js';
import { TIER_PER_MINUTE } from '../src/control-plane/short-window.js';
import type { Tier } from '../src/control-plane/types.js';
import { DASHBOARD_WEB_DIR } from '../src/dashboard/static.js';
import { serve } from './helpers/fixtures.js';
import { call, rawGet, rawRequest } from './helpers/http.js';

test('each module of the web app is served as JavaScript, revalidated with its ETag', async (t) => {
  const server = await serve(t);
  const modules = readdirSync(join(DASHBOARD_WEB_DIR, 'js'));
  t.true(modules.includes('app.js'));
  for (const name of modules) {
    const answer = await call(`${server.url}/dashboard/js/${name}`);
    t.is(answer.status, 200, name);
    t.is(answer.headers.get('content-type'), 'text/javascript; charset=utf-8', name);
    t.is(answer.headers.get('cache-control'), 'no-cache', name);
    const etag = answer.headers.get('etag')!;
    t.is((await call(`${server.url}/dashboard/js/${name}`, { headers: { 'if-none-match': etag } })).status, 304, name);
  }
  const page = await call(`${server.url}/dashboard/`);
  t.regex(page.text, /<script type="module" src="\/dashboard\/js\/app\.js"><\/script>/);
});

test('paths outside the web app, and its folders, are 404s', async (t) => {
  const server = await serve(t);
  for (const target of [
    '/dashboard/js/../../api.ts',
    '/dashboard/../dashboard/api.ts',
    '/dashboard/%2e%2e/api.ts',
    '/dashboard/js/%2e%2e%2f%2e%2e%2fapi.ts',
    '/dashboard/..%5capi.ts',
    '/dashboard/js/',
    '/dashboard/js',
    '/dashboard/web/index.html',
  ]) {
    const answer = await rawRequest(server.port, rawGet(target));
    t.is(answer.status, 404, target);
    t.false(answer.body.includes('registerDashboardApi'), target);
  }
});

test("the plan table is public, and is tiers.ts's", async (t) => {
  const server = await serve(t);
  const answer = await call(`${server.url}/dashboard/api/plans`);
  t.is(answer.status, 200);
  t.deepEqual(
    answer.body.plans,
    (Object.keys(TIER_QUOTAS) as Tier[]).map((tier) => ({
      tier,
      label: TIER_LABELS[tier],
      monthlyPriceUsd: TIER_PRICES_USD[tier],
      quotas: TIER_QUOTAS[tier],
      perMinute: TIER_PER_MINUTE[tier],
    })),
  );
  t.deepEqual(answer.body.plans[1], {
    tier: 'pro',
    label: 'Pro',
    monthlyPriceUsd: 49,
    quotas: { maps: 500_000, geocoding: 100_000, routing: 100_000 },
    perMinute: { maps: 30_000, geocoding: 1_200, routing: 600 },
  });
});
