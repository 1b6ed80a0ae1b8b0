/**
 * A key's restrictions as the gateway applies them on every request: its expiry, the grace period
 * of its previous value, the web origins and the client addresses allowed. Compiled once per key
 * record (records are replaced, never changed, when a key is edited) and checked inline, with no
 * I/O. An unrestricted key costs one property read (`restricted`).
 */
import type { ApiKeyRecord } from '../control-plane/types.js';
import { CidrSet } from '../../core/cidr.js';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';

const EDIT_HINT = 'see the key in the API Keys area of the dashboard';

/** Origins allowed: exact `scheme://host[:port]`, and `scheme://*.domain[:port]` for any subdomain. */
class OriginMatcher {
  private readonly exact = new Set<string>();
  /** Per wildcard: what the origin starts with (`https://`), and what it ends with (`.example.com:8443`). */
  private readonly wildcards: { scheme: string; suffix: string }[] = [];

  constructor(origins: readonly string[]) {
    for (const origin of origins) {
      const star = origin.indexOf('://*.');
      if (star < 0) this.exact.add(origin);
      else this.wildcards.push({ scheme: origin.slice(0, star + 3), suffix: origin.slice(star + 4) });
    }
  }

  /** `origin` as a browser sends it: lower-case scheme and host, default port left out. */
  allows(origin: string): boolean {
    if (this.exact.has(origin)) return true;
    for (const { scheme, suffix } of this.wildcards) {
      // At least one label before the domain: `https://*.example.com` is not `https://example.com`.
      if (origin.length > scheme.length + suffix.length && origin.startsWith(scheme) && origin.endsWith(suffix)) {
        const host = origin.slice(scheme.length, origin.length - suffix.length);
        if (!host.includes(':') && !host.includes('/')) return true;
      }
    }
    return false;
  }
}

/** The origin a request comes from: its Origin header, else its Referer's origin; null when neither is usable. */
function requestOrigin(req: Request): string | null {
  const origin = req.header('origin');
  if (origin !== undefined && origin !== 'null') return origin.toLowerCase();
  const referer = req.header('referer');
  if (referer === undefined) return null;
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export class KeyPolicy {
  private readonly expiresAtMs: number;
  private readonly previousUntilMs: number;
  private readonly origins: OriginMatcher | null;
  private readonly ips: CidrSet | null;

  constructor(key: ApiKeyRecord) {
    this.expiresAtMs = key.expiresAt === null ? Infinity : Date.parse(key.expiresAt);
    this.previousUntilMs = key.previousHashExpiresAt === null ? -Infinity : Date.parse(key.previousHashExpiresAt);
    this.origins = key.allowedOrigins.length > 0 ? new OriginMatcher(key.allowedOrigins) : null;
    this.ips = key.allowedIps.length > 0 ? CidrSet.parse(key.allowedIps) : null;
  }

  /**
   * Whether a request carrying the value of hash `valueHash` has anything to check beyond the key
   * being active: a restriction, or a value other than the current one (its previous one during a
   * roll's grace, or any older one when a networked store's fresh read found the key by id).
   */
  static applies(key: ApiKeyRecord, valueHash: string): boolean {
    return valueHash !== key.hash || key.expiresAt !== null || key.allowedOrigins.length > 0 || key.allowedIps.length > 0;
  }

  /**
   * Throws the 401 (expired, or a previous value past its grace) or the 403 (origin, address) for
   * a request that may not use the key. 403s name the restriction, never the allowed values.
   */
  check(key: ApiKeyRecord, valueHash: string, req: Request, nowMs: number, clientAddressOf: (req: Request) => string): void {
    if (nowMs >= this.expiresAtMs) throw new ApiError(401, `this API key expired at ${key.expiresAt}; ${EDIT_HINT}`);
    if (valueHash !== key.hash && (valueHash !== key.previousHash || nowMs >= this.previousUntilMs)) {
      throw new ApiError(401, `this API key value was replaced when the key was rolled; use its new value (${key.hint})`);
    }
    if (this.origins) {
      const origin = requestOrigin(req);
      if (origin === null) {
        throw new ApiError(
          403,
          `this API key is restricted to certain web sites, and the request has no Origin or Referer header; ${EDIT_HINT}`,
        );
      }
      if (!this.origins.allows(origin))
        throw new ApiError(403, `this API key is restricted to certain web sites, and ${origin} is not one of them; ${EDIT_HINT}`);
    }
    if (this.ips) {
      const address = clientAddressOf(req);
      if (!this.ips.contains(address))
        throw new ApiError(403, `this API key is restricted to certain client addresses, and ${address} is not one of them; ${EDIT_HINT}`);
    }
  }
}

/** Each key record's compiled policy, dropped with the record when the key is written again. */
const policies = new WeakMap<ApiKeyRecord, KeyPolicy>();

export function policyOf(key: ApiKeyRecord): KeyPolicy {
  let policy = policies.get(key);
  if (!policy) policies.set(key, (policy = new KeyPolicy(key)));
  return policy;
}
