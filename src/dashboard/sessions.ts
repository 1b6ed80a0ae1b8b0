/**
 * Dashboard sessions: a random id in an HttpOnly, SameSite=Strict cookie, stored only as its
 * SHA-256, expiring after 30 days. State-changing calls also need the session's CSRF token (derived
 * from the cookie value, so it cannot be guessed without it) and, when the browser sends one, a
 * same-origin `Origin`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ControlStore } from '../control-plane/store.js';
import type { User } from '../control-plane/types.js';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';
import { parseWebOrigin } from '../http/web-origin.js';

export const SESSION_COOKIE = 'waymark_session';
const SESSION_TTL_MS = 30 * 86_400_000;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const csrfTokenOf = (cookieValue: string) => createHash('sha256').update(`csrf:${cookieValue}`).digest('base64url');

export interface Session {
  user: User;
  /** The stored form of the cookie value (its SHA-256): the session a password change keeps. */
  hash: string;
  cookieValue: string;
  csrfToken: string;
}

function cookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export class Sessions {
  constructor(
    private readonly store: ControlStore,
    private readonly now: () => number,
    private readonly secureCookies: boolean,
  ) {}

  /** Starts a session; returns the Set-Cookie header and the CSRF token for the page. */
  async start(user: User): Promise<{ setCookie: string; csrfToken: string }> {
    const value = randomBytes(32).toString('base64url');
    await this.store.createSession({
      hash: sha256(value),
      userId: user.id,
      expiresAt: new Date(this.now() + SESSION_TTL_MS).toISOString(),
    });
    return { setCookie: cookieHeader(value, SESSION_TTL_MS / 1000, this.secureCookies), csrfToken: csrfTokenOf(value) };
  }

  /** The signed-in user of a request, or null. */
  async current(req: Request): Promise<Session | null> {
    const value = req.cookie(SESSION_COOKIE);
    if (!value || !COOKIE_VALUE.test(value)) return null;
    // Looked up in the store on every request: a session ended or a member removed through any
    // node (or the CLI) is refused from the next request on, on every node.
    const session = await this.store.findSession(sha256(value), new Date(this.now()).toISOString());
    const user = session && (await this.store.getUser(session.userId));
    return user ? { user, hash: session.hash, cookieValue: value, csrfToken: csrfTokenOf(value) } : null;
  }

  /** The session of a request that must be signed in; state changes also check the CSRF token. */
  async require(req: Request): Promise<Session> {
    const session = await this.current(req);
    if (!session) throw new ApiError(401, 'sign in first: this dashboard call needs a session');
    if (req.method !== 'GET' && req.header('x-csrf-token') !== session.csrfToken) {
      throw new ApiError(403, 'missing or wrong X-CSRF-Token header; reload the dashboard');
    }
    return session;
  }

  async end(req: Request): Promise<string> {
    const value = req.cookie(SESSION_COOKIE);
    if (value && COOKIE_VALUE.test(value)) await this.store.deleteSession(sha256(value));
    return cookieHeader('', 0, this.secureCookies);
  }
}

/**
 * Refuses state changes sent from another site (the dashboard API is same-origin only): an
 * `Origin` must be a web origin whose host is the request's (its Host, or from a trusted proxy its
 * X-Forwarded-Host).
 */
export function requireSameOrigin(req: Request): void {
  if (req.header('sec-fetch-site') === 'cross-site') throw new ApiError(403, 'cross-site requests to the dashboard are refused');
  const origin = req.header('origin');
  if (origin === undefined) return;
  const parsed = parseWebOrigin(origin);
  if (parsed === null)
    throw new ApiError(
      403,
      'the Origin header is not a web origin (scheme://host[:port]); cross-origin requests to the dashboard are refused',
    );
  if (parsed.host !== (req.header('x-forwarded-host') ?? req.header('host')))
    throw new ApiError(403, 'cross-origin requests to the dashboard are refused');
}
