/**
 * What every dashboard route group shares: the guards, applied once per group (a state change from
 * another site is refused before anything else is read; a member's routes need a session, and its
 * state changes the session's CSRF token), `Cache-Control: no-store` on every answer (they carry
 * the member's data, CSRF tokens, key values, invitation links), JSON bodies, and the 400/403/409
 * answers of accounts.
 */
import { AccountError } from '../../control-plane/accounts.js';
import type { AuditContext } from '../../control-plane/audit.js';
import { holds, leastRoleFor, type Power } from '../../control-plane/permissions.js';
import { StoreConflict, type ControlStore } from '../../control-plane/store.js';
import type { Organization, Role, User } from '../../control-plane/types.js';
import type { PeriodTracker } from '../../gateway/rate-limit.js';
import { ApiError } from '../../http/errors.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import type { Router } from '../../http/router.js';
import { requireSameOrigin, type Session, type Sessions } from '../sessions.js';

export interface DashboardDeps {
  store: ControlStore;
  sessions: Sessions;
  periods: PeriodTracker;
  now: () => number;
  /** The origin the caller reaches the server at, for invitation links; null for a bad Host. */
  originOf: (req: Request) => string | null;
  /** The client's address (through trusted proxies), for the sign-in throttle. */
  clientAddressOf: (req: Request) => string;
}

/** Handlers by `'METHOD /path'` under `/dashboard/api`; each gets what its group's guard found. */
type Routes<Found> = Record<`${'GET' | 'POST' | 'PUT' | 'PATCH'} /${string}`, (req: Request, found: Found) => Promise<Reply>>;

function addGroup<Found>(router: Router, guard: (req: Request) => Promise<Found>, routes: Routes<Found>): void {
  for (const [route, handler] of Object.entries(routes)) {
    const [method, path] = route.split(' ') as [string, string];
    const guarded = async (req: Request) => {
      if (method !== 'GET') requireSameOrigin(req);
      const reply = await handler(req, await guard(req));
      reply.headers['Cache-Control'] = 'no-store';
      return reply;
    };
    router.add(method, `/dashboard/api${path}`, guarded, { public: false });
  }
}

/** Routes anyone may call: signing up and in, an invitation's preview, the plans. */
export const publicRoutes = (router: Router, routes: Routes<undefined>) => addGroup(router, async () => undefined, routes);

/** Routes of a signed-in member, acting on the session's organization. */
export const sessionRoutes = (router: Router, sessions: Sessions, routes: Routes<Session>) =>
  addGroup(router, (req) => sessions.require(req), routes);

export function jsonBody(req: Request): Record<string, unknown> {
  if (!/^application\/json\b/i.test(req.header('content-type') ?? '')) {
    throw new ApiError(415, 'send the request body as JSON with Content-Type: application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    throw new ApiError(400, 'the request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Turns account validation failures into 400s and uniqueness conflicts into 409s. */
export async function accountCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AccountError) throw new ApiError(400, error.message);
    if (error instanceof StoreConflict) throw new ApiError(409, error.message);
    throw error;
  }
}

/** Who makes a signed-in member's changes, and from where, for the audit log. */
export const auditOf = (deps: DashboardDeps, req: Request, user: User): AuditContext => ({
  store: deps.store,
  orgId: user.orgId,
  actor: { kind: 'user', id: user.id, email: user.email },
  address: deps.clientAddressOf(req),
  nowMs: deps.now(),
});

export const withArticle = (role: Role) => `${role === 'member' ? 'a' : 'an'} ${role}`;

/** The 403 for a member whose role lacks a power; the server refuses whatever the page shows. */
export function requirePower(user: User, power: Power, what: string): void {
  if (!holds(user.role, power)) {
    throw new ApiError(403, `only ${withArticle(leastRoleFor(power))} of the organization can ${what}; you are ${withArticle(user.role)}`);
  }
}

/** The session's organization; 404 once it has been deleted. */
export async function orgOf(store: ControlStore, orgId: string): Promise<Organization> {
  const org = await store.getOrg(orgId);
  if (!org) throw new ApiError(404, 'your organization no longer exists');
  return org;
}
