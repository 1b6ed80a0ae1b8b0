/**
 * What a metered reply says of the short-window limits (control-plane/short-window.ts): the IETF
 * `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers, structured
 * fields: `"key";q=30;w=60` and `"key";r=12;t=36`, one item per bucket the request took from,
 * the organization's first), and the 429's message when a bucket is empty.
 */
import type { WindowBucket, WindowDecision } from '../control-plane/short-window.js';
import { WINDOW_S } from '../control-plane/short-window.js';
import type { Service } from '../control-plane/types.js';

const NONE: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** `RateLimit-Policy` of each bucket list (bucketsOf gives the same list for the same records). */
const policies = new WeakMap<readonly WindowBucket[], string>();

function policyOf(buckets: readonly WindowBucket[]): string {
  let policy = policies.get(buckets);
  if (policy === undefined) {
    policy = buckets.map((bucket) => `"${bucket.policy}";q=${bucket.perMinute};w=${WINDOW_S}`).join(', ');
    policies.set(buckets, policy);
  }
  return policy;
}

/**
 * `RateLimit-Policy` (quota `q` per window `w` seconds) and `RateLimit` (remaining `r`, seconds `t`
 * until full), as one entry: uWebSockets.js writes `name: value\r\n` per entry, and one call for the
 * pair costs a metered request half as much (both values are the server's own, never request input).
 */
export function windowHeaders(window: WindowDecision | null): Record<string, string> {
  if (window === null) return NONE;
  let current = '';
  for (const { bucket, remaining, fullInS } of window.states) {
    current += `${current === '' ? '' : ', '}"${bucket.policy}";r=${remaining};t=${fullInS}`;
  }
  return { 'RateLimit-Policy': `${policyOf(window.buckets)}\r\nRateLimit: ${current}` };
}

/** Says a per-minute limit was hit (never the monthly quota), whose, and when to retry. */
export function windowMessage(service: Service, window: WindowDecision): string {
  const bucket = window.refusedBy!;
  const whose = bucket.policy === 'key' ? 'this API key' : "your organization's plan";
  return (
    `rate limit exceeded: ${whose} allows ${bucket.perMinute} ${service} requests per minute; ` +
    `retry after ${window.retryAfterS} s (see the Retry-After header)`
  );
}
