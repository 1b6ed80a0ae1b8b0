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
import { parseWebOrigin } from '../http/web-origin.js';

const EDIT_HINT = 'see the key in the API Keys area of the dashboard';

/**
 * Origins allowed: exact `scheme://host[:port]`, and `scheme://*.domain[:port]` for any subdomain.
 * Requests' origins come parsed (src/http/web-origin.ts): scheme, host and port are compared as
 * such, and a wildcard matches whole labels in front of the domain, never a string that merely ends
 * like it.
 */
class OriginMatcher {
  private readonly exact = new Set<string>();
  /** Per wildcard: its scheme (`https:`), port (`''` for the default) and what the host ends with (`.example.com`). */
  private readonly wildcards: { protocol: string; port: string; suffix: string }[] = [];

  constructor(origins: readonly string[]) {
    for (const origin of origins) {
      const star = origin.indexOf('://*.');
      if (star < 0) {
        this.exact.add(origin);
        continue;
      }
      const domain = new URL(origin.slice(0, star + 3) + origin.slice(star + 5));
      this.wildcards.push({ protocol: domain.protocol, port: domain.port, suffix: `.${domain.hostname}` });
    }
  }

  allows(origin: URL): boolean {
    if (this.exact.has(origin.origin)) return true;
    const { protocol, port, hostname } = origin;
    return this.wildcards.some(
      (wildcard) =>
        wildcard.protocol === protocol &&
        wildcard.port === port &&
        hostname.endsWith(wildcard.suffix) &&
        wholeLabels(hostname.slice(0, -wildcard.suffix.length)),
    );
  }
}

/** Whether the part of a host in front of a wildcard's domain is one or more labels (`a`, `a.b`; not ``, `a.`). */
const wholeLabels = (prefix: string): boolean => prefix !== '' && !prefix.split('.').includes('');

/**
 * The origin a request comes from: its Origin header, else (no Origin at all: an `<img>`, a
 * same-origin GET) its Referer's origin; `none` when it has neither. An `Origin` that is no web
 * origin — `null`, sent for sandboxed frames, `file:` pages and redirects across sites, or junk —
 * is `foreign`: it never falls back to the Referer.
 */
function requestOrigin(req: Request): URL | 'foreign' | 'none' {
  const origin = req.header('origin');
  if (origin !== undefined) return parseWebOrigin(origin) ?? 'foreign';
  const referer = req.header('referer');
  if (referer === undefined || !URL.canParse(referer)) return 'none';
  const url = new URL(referer);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : 'none';
}

const RESTRICTED = 'this API key is restricted to certain web sites, and';

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
      if (origin === 'none') throw new ApiError(403, `${RESTRICTED} the request has no Origin or Referer header; ${EDIT_HINT}`);
      if (origin === 'foreign') {
        throw new ApiError(
          403,
          `${RESTRICTED} the request's Origin header names no web site it allows (an opaque origin, null, is none); ${EDIT_HINT}`,
        );
      }
      if (!this.origins.allows(origin)) throw new ApiError(403, `${RESTRICTED} ${origin.origin} is not one of them; ${EDIT_HINT}`);
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
