/**
 * What a key may be restricted to, as people write it (the dashboard, the CLI), checked and put in
 * one canonical form: web origins (`https://app.example.com`, `https://*.example.com`), client
 * address ranges (CIDRs) and an expiry instant; and how long a rolled key's old value keeps working.
 * The gateway applies them (src/gateway/key-policy.ts).
 */
import { CidrError, normalizeCidr } from '../../core/cidr.js';
import { AccountError } from './account-error.js';

/** As many as a web app's domains take; the checks run on every request of the key. */
export const MAX_RESTRICTIONS = 50;
/** Longest grace period of a roll: a deploy cycle, not a second key. */
export const MAX_GRACE_MS = 30 * 86_400_000;
export const DEFAULT_GRACE_MS = 86_400_000;

/** A list as given: an array of strings, or one comma-separated string (the CLI's form). */
function listOf(value: unknown, what: string): string[] {
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || items.some((item) => typeof item !== 'string')) {
    throw new AccountError(`${what} must be a list of strings, or one comma-separated string`);
  }
  const trimmed = (items as string[]).map((item) => item.trim()).filter((item) => item !== '');
  if (trimmed.length > MAX_RESTRICTIONS) throw new AccountError(`${what} may hold at most ${MAX_RESTRICTIONS} entries`);
  return trimmed;
}

const ORIGIN = /^(https?):\/\/(\*\.)?([^/?#*]+)$/i;

/** `scheme://host[:port]`, lower-cased, default port dropped, host in its ASCII (punycode) form. */
export function normalizeOrigin(entry: string): string {
  const match = ORIGIN.exec(entry);
  const invalid = () =>
    new AccountError(
      `${JSON.stringify(entry)} is not a web origin: write it as https://app.example.com, or https://*.example.com for every subdomain`,
    );
  if (!match) throw invalid();
  const [, scheme, wildcard, hostAndPort] = match;
  let url: URL;
  try {
    url = new URL(`${scheme}://${hostAndPort}`);
  } catch {
    throw invalid();
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) throw invalid();
  if (wildcard && !url.hostname.includes('.'))
    throw new AccountError(`${JSON.stringify(entry)} is too wide: a wildcard needs a domain under it, as in https://*.example.com`);
  return `${url.protocol}//${wildcard ?? ''}${url.host}`;
}

/** Allowed origins: absent or empty means any. */
export function parseAllowedOrigins(value: unknown): string[] {
  return [...new Set(listOf(value, 'allowed origins').map(normalizeOrigin))];
}

/** Allowed client addresses: absent or empty means any. */
export function parseAllowedIps(value: unknown): string[] {
  const entries = listOf(value, 'allowed IPs');
  try {
    return [...new Set(entries.map(normalizeCidr))];
  } catch (error) {
    if (error instanceof CidrError) throw new AccountError(`allowed IPs: ${error.message}`);
    throw error;
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An expiry instant (ISO 8601; a bare date means its start in UTC), in the future; null for none. */
export function parseExpiry(value: unknown, now: number): string | null {
  if (value === null || value === 'none') return null;
  const ms = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new AccountError('the expiry must be an ISO 8601 instant, e.g. 2027-01-31T00:00:00Z, or none');
  if (ms <= now) throw new AccountError('the expiry must be in the future');
  return new Date(ms).toISOString();
}

const DURATION = /^(\d{1,9})([smhd]?)$/;
const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A roll's grace period: `0`, or a number of seconds with an optional unit (`90s`, `30m`, `24h`, `7d`). */
export function parseGrace(value: unknown): number {
  if (value === undefined) return DEFAULT_GRACE_MS;
  const match = typeof value === 'number' ? DURATION.exec(String(value)) : typeof value === 'string' ? DURATION.exec(value.trim()) : null;
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : NaN;
  if (Number.isNaN(ms) || ms > MAX_GRACE_MS) {
    throw new AccountError(`the grace period must be 0 or a duration such as 90s, 30m, 24h or 7d, at most ${MAX_GRACE_MS / 86_400_000}d`);
  }
  return ms;
}
