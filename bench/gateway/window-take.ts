/**
 * The gateway's per-request bookkeeping of issue 36 alone, in a loop: a key's bucket list
 * (`bucketsOf`), a take from the embedded store's buckets, the `RateLimit-Policy`/`RateLimit`
 * values of the reply, and the usage analytics' count, in nanoseconds per request; the clock
 * advances 10 µs per request, as at 100,000 requests/s.
 *
 *   node dist/bench/gateway/window-take.js
 */
import { AnalyticsCounter } from '../../src/control-plane/analytics.js';
import { LocalShortWindow } from '../../src/control-plane/local-short-window.js';
import { bucketsOf, MAX_PER_MINUTE } from '../../src/control-plane/short-window.js';
import type { ApiKeyRecord, Organization } from '../../src/control-plane/types.js';
import { windowHeaders } from '../../src/gateway/window-headers.js';

const org = { id: 'org_bench', tier: 'enterprise', customQuotas: {}, customPerMinute: {} } as unknown as Organization;
const key = { id: 'key_bench', perMinute: { geocoding: MAX_PER_MINUTE } } as unknown as ApiKeyRecord;
let now = Date.now();
const buckets = new LocalShortWindow(() => now);
const analytics = new AnalyticsCounter();
const N = 2_000_000;

const perRequest = (step: () => unknown): number => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    now += 0.01;
    step();
  }
  return Number(process.hrtime.bigint() - start) / N;
};

for (let round = 1; round <= 3; round++) {
  const list = perRequest(() => bucketsOf(org, key, 'geocoding'));
  const take = perRequest(() => buckets.take(bucketsOf(org, key, 'geocoding')));
  const headers = perRequest(() => windowHeaders(buckets.take(bucketsOf(org, key, 'geocoding'))));
  const counted = perRequest(() => analytics.count(org.id, key.id, 'geocoding', '/bench/cheap', 200, '2026-12-04'));
  console.log(
    `round ${round}: bucket list ${list.toFixed(0)} ns, with the take ${take.toFixed(0)} ns, ` +
      `with the header values ${headers.toFixed(0)} ns; analytics count ${counted.toFixed(0)} ns`,
  );
}
