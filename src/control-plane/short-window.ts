/**
 * Short-window rate limits: requests per minute per organization and service (by tier; on
 * Enterprise as the operator sets them) and per key where one is set, lower still. Each limit is a
 * token bucket that holds a minute's requests and refills evenly (a limit of 30 gives one request
 * back every 2 s): a burst may spend a whole minute's worth at once, never more. Every metered
 * request that passes the key check takes a token from each bucket that applies, whatever it then
 * answers: the limit guards the servers, the monthly quota the bill. The stores keep the buckets
 * (local-short-window.ts in memory, redis/short-window.ts across nodes).
 */
import { AccountError } from './account-error.js';
import { SERVICES, type ApiKeyRecord, type Organization, type PerMinuteLimits, type Service, type Tier } from './types.js';

/** Each tier's requests per minute and service; Enterprise has none but what the operator sets. */
export const TIER_PER_MINUTE: Record<Tier, PerMinuteLimits> = {
  free: { maps: 1_200, geocoding: 120, routing: 60 },
  pro: { maps: 30_000, geocoding: 1_200, routing: 600 },
  enterprise: {},
};

export const MAX_PER_MINUTE = 100_000_000;

/** The window every limit is counted over, in seconds (the headers' `w`). */
export const WINDOW_S = 60;

/** Whose limit a bucket holds: named so in the `RateLimit-Policy` and `RateLimit` headers. */
export type WindowPolicy = 'org' | 'key';

/** One token bucket a request takes from. */
export interface WindowBucket {
  /** `org:<id>:<service>` or `key:<id>:<service>`. */
  readonly id: string;
  readonly policy: WindowPolicy;
  readonly perMinute: number;
}

/** A bucket as a request left it: whole requests left, and seconds until it is full again. */
export interface BucketState {
  bucket: WindowBucket;
  remaining: number;
  fullInS: number;
}

export interface WindowDecision {
  allowed: boolean;
  /** The buckets as `bucketsOf` gave them. */
  buckets: readonly WindowBucket[];
  /** Each bucket after the request (a refused request takes nothing). */
  states: BucketState[];
  /** For a refusal: the bucket that refused it, and whole seconds until it has a request again. */
  refusedBy: WindowBucket | null;
  retryAfterS: number;
}

/** The store's buckets: a request takes one token from each of its buckets, or from none. */
export interface ShortWindowLimiter {
  take(buckets: readonly WindowBucket[]): WindowDecision | Promise<WindowDecision>;
}

const msPerToken = (bucket: WindowBucket) => (WINDOW_S * 1000) / bucket.perMinute;

/**
 * The decision on buckets that hold `tokens` (fractional; after the request's tokens were taken when
 * it is allowed, as they were when not).
 */
export function windowDecision(buckets: readonly WindowBucket[], tokens: readonly number[], allowed: boolean): WindowDecision {
  let refusedBy: WindowBucket | null = null;
  let retryAfterS = 0;
  const states = buckets.map((bucket, i): BucketState => {
    const held = tokens[i]!;
    if (!allowed && held < 1) {
      const waitS = Math.max(1, Math.ceil(((1 - held) * msPerToken(bucket)) / 1000));
      if (waitS > retryAfterS) [refusedBy, retryAfterS] = [bucket, waitS];
    }
    const fullInS = Math.ceil(((bucket.perMinute - held) * msPerToken(bucket)) / 1000);
    return { bucket, remaining: Math.max(0, Math.floor(held)), fullInS: Math.max(0, fullInS) };
  });
  return { allowed, buckets, states, refusedBy, retryAfterS };
}

/** A bucket's tokens `elapsedMs` after it held `tokens`: refilled evenly, up to a minute's requests. */
export const refilled = (bucket: WindowBucket, tokens: number, elapsedMs: number): number =>
  Math.min(bucket.perMinute, tokens + Math.max(0, elapsedMs) / msPerToken(bucket));

/** The organization's limits in force, by service. */
export function perMinuteOf(org: Pick<Organization, 'tier' | 'customPerMinute'>): PerMinuteLimits {
  return org.tier === 'enterprise' ? org.customPerMinute : TIER_PER_MINUTE[org.tier];
}

/** Each key record's buckets by service, for the organization record they were made with (both are replaced, never changed, on an edit). */
const bucketCache = new WeakMap<ApiKeyRecord, { org: Organization; byService: Partial<Record<Service, readonly WindowBucket[]>> }>();

/** The buckets a request of the key to the service takes from (none when no limit applies); the same array for the same records. */
export function bucketsOf(org: Organization, key: ApiKeyRecord, service: Service): readonly WindowBucket[] {
  let cached = bucketCache.get(key);
  if (cached?.org !== org) {
    cached = { org, byService: {} };
    bucketCache.set(key, cached);
  }
  return (cached.byService[service] ??= makeBuckets(org, key, service));
}

function makeBuckets(org: Organization, key: ApiKeyRecord, service: Service): WindowBucket[] {
  const buckets: WindowBucket[] = [];
  const ofOrg = perMinuteOf(org)[service];
  if (ofOrg !== undefined) buckets.push({ id: `org:${org.id}:${service}`, policy: 'org', perMinute: ofOrg });
  const ofKey = key.perMinute[service];
  if (ofKey !== undefined) buckets.push({ id: `key:${key.id}:${service}`, policy: 'key', perMinute: ofKey });
  return buckets;
}

/**
 * Per-minute limits as people give them: an object (`{"maps": 600}`, the dashboard's and the API's
 * form) or `maps=600,routing=60` (the CLI's); a service left out has no limit of its own.
 */
export function parsePerMinute(value: unknown): PerMinuteLimits {
  const entries =
    typeof value === 'string'
      ? value
          .split(',')
          .filter((entry) => entry.trim() !== '')
          .map((entry) => entry.split('=').map((part) => part.trim()))
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value)
        : null;
  const shape = `per-minute limits are service=N pairs of ${SERVICES.join(', ')} (e.g. maps=600,routing=60), or an object of them`;
  if (entries === null) throw new AccountError(shape);
  const limits: PerMinuteLimits = {};
  for (const entry of entries) {
    const [service, limit] = entry as [string, unknown];
    if (entry.length !== 2 || !SERVICES.includes(service as Service)) throw new AccountError(shape);
    if ((service as Service) in limits) throw new AccountError(`per-minute limits give ${service} twice`);
    const n = typeof limit === 'string' && /^\d+$/.test(limit) ? Number(limit) : limit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PER_MINUTE) {
      throw new AccountError(`the ${service} limit per minute must be a whole number from 1 to ${MAX_PER_MINUTE}`);
    }
    limits[service as Service] = n;
  }
  return limits;
}

/** `maps 12,000/min, routing 60/min`, or `none`. */
export function perMinuteText(limits: PerMinuteLimits): string {
  const parts = SERVICES.filter((s) => limits[s] !== undefined).map((s) => `${s} ${limits[s]!.toLocaleString('en-US')}/min`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}
