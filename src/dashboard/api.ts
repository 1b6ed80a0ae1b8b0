/** The dashboard's JSON API under `/dashboard/api`: session-authenticated and same-origin only. */
import {
  AccountError,
  checkCredentials,
  createKey,
  keyChanges,
  keyView,
  parseRole,
  parseTier,
  rollKey,
  signUp,
  type KeyInput,
} from '../control-plane/accounts.js';
import { acceptInvitation, createInvitation, invitationStatus, invitingOrganization } from '../control-plane/invitations.js';
import { holds, leastRoleFor, mayGrant, mayManageKey, powersOf, type Power } from '../control-plane/permissions.js';
import { StoreConflict, type ControlStore } from '../control-plane/store.js';
import { quotasOf } from '../control-plane/tiers.js';
import type { ApiKeyRecord, InvitationRecord, Organization, Role, Service, User } from '../control-plane/types.js';
import type { PeriodTracker } from '../gateway/rate-limit.js';
import { ApiError } from '../http/errors.js';
import { empty, json, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Router } from '../http/router.js';
import { lastDay, usageReport } from '../usage/report.js';
import { requireSameOrigin, Sessions } from './sessions.js';

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

function jsonBody(req: Request): Record<string, unknown> {
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
async function accountCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AccountError) throw new ApiError(400, error.message);
    if (error instanceof StoreConflict) throw new ApiError(409, error.message);
    throw error;
  }
}

function orgView(org: Organization) {
  return { id: org.id, name: org.name, tier: org.tier, quotas: quotasOf(org) };
}

const memberView = (user: User) => ({ id: user.id, email: user.email, role: user.role, createdAt: user.createdAt });
const userView = (user: User) => ({ id: user.id, email: user.email, role: user.role, powers: powersOf(user.role) });

const withArticle = (role: Role) => `${role === 'member' ? 'a' : 'an'} ${role}`;

/** The 403 for a member whose role lacks a power; the server refuses whatever the page shows. */
function requirePower(user: User, power: Power, what: string): void {
  if (!holds(user.role, power)) {
    throw new ApiError(403, `only ${withArticle(leastRoleFor(power))} of the organization can ${what}; you are ${withArticle(user.role)}`);
  }
}

/** The key fields a dashboard body may set; others (status, hashes, createdBy) are ignored. */
const keyInputOf = (body: Record<string, unknown>): KeyInput => ({
  name: body.name,
  scopes: body.scopes,
  allowedOrigins: body.allowedOrigins,
  allowedIps: body.allowedIps,
  expiresAt: body.expiresAt,
});

/** An invitation as members see it: never its hash; its makers and users by email. */
function invitationView(invitation: InvitationRecord, nowIso: string, emails: ReadonlyMap<string, string>) {
  return {
    id: invitation.id,
    hint: invitation.hint,
    role: invitation.role,
    status: invitationStatus(invitation, nowIso),
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
    createdBy: emails.get(invitation.createdBy) ?? null,
    acceptedBy: invitation.acceptedBy === null ? null : (emails.get(invitation.acceptedBy) ?? null),
    acceptedAt: invitation.acceptedAt,
    revokedAt: invitation.revokedAt,
  };
}

export function registerDashboardApi(router: Router, deps: DashboardDeps): void {
  const { store, sessions, periods, now, originOf } = deps;
  const route = (method: string, path: string, handler: (req: Request) => Promise<Reply>) =>
    router.add(method, `/dashboard/api${path}`, handler, { public: false });

  const orgOf = async (orgId: string): Promise<Organization> => {
    const org = await store.getOrg(orgId);
    if (!org) throw new ApiError(404, 'your organization no longer exists');
    return org;
  };

  const signedIn = async (user: User, status: number) => {
    const { setCookie, csrfToken } = await sessions.start(user);
    const org = await orgOf(user.orgId);
    return json(status, { user: userView(user), organization: orgView(org), csrfToken }, { 'Set-Cookie': setCookie });
  };

  const emailsOf = async (orgId: string) => new Map((await store.listUsers(orgId)).map((u) => [u.id, u.email]));

  // Sign-up makes a new organization, or, with an invitation, joins the one that made it.
  route('POST', '/signup', async (req) => {
    requireSameOrigin(req);
    const body = jsonBody(req);
    if (body.invitation !== undefined && body.organization !== undefined) {
      throw new ApiError(400, 'an invitation joins the organization that made it: send either invitation or organization, not both');
    }
    const { user } = await accountCall(() =>
      body.invitation === undefined
        ? signUp(store, { email: body.email, password: body.password, organization: body.organization })
        : acceptInvitation(store, { invitation: body.invitation, email: body.email, password: body.password }, now()),
    );
    return signedIn(user, 201);
  });

  // What an invitation link leads to, for the sign-up page to show before the person commits.
  route('POST', '/invitations/preview', async (req) => {
    requireSameOrigin(req);
    const { org, expiresAt } = await accountCall(() => invitingOrganization(store, jsonBody(req).invitation, now()));
    return json(200, { organization: { name: org.name }, expiresAt }, { 'Cache-Control': 'no-store' });
  });

  route('GET', '/members', async (req) => {
    const { user } = await sessions.require(req);
    return json(200, { members: (await store.listUsers(user.orgId)).map(memberView) });
  });

  // Owners set roles; at least one owner always remains (409 otherwise).
  route('PUT', '/members/:id/role', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    requirePower(user, 'roles', "change members' roles");
    const role = await accountCall(async () => parseRole(jsonBody(req).role));
    const member = await accountCall(() => store.setRole(user.orgId, req.params.id!, role));
    if (!member) throw new ApiError(404, `no member ${req.params.id} in your organization`);
    return json(200, { member: memberView(member) });
  });

  route('GET', '/invitations', async (req) => {
    const { user } = await sessions.require(req);
    requirePower(user, 'invitations', 'see invitations');
    const [invitations, emails] = await Promise.all([store.listInvitations(user.orgId), emailsOf(user.orgId)]);
    const nowIso = new Date(now()).toISOString();
    return json(200, { invitations: invitations.map((i) => invitationView(i, nowIso, emails)) });
  });

  route('POST', '/invitations', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    requirePower(user, 'invitations', 'invite people');
    const origin = originOf(req);
    if (origin === null) throw new ApiError(400, 'the Host header must name the host the dashboard is reached at; or set WAYMARK_PUBLIC_URL on the server');
    const asked = req.body.length === 0 ? undefined : jsonBody(req).role;
    const role = asked === undefined ? 'member' : await accountCall(async () => parseRole(asked));
    if (!mayGrant(user.role, role)) throw new ApiError(403, `${withArticle(user.role)} cannot invite ${withArticle(role)}: nobody grants more than their own role`);
    const { invitation, token } = await createInvitation(store, user, role, now());
    const view = invitationView(invitation, new Date(now()).toISOString(), new Map([[user.id, user.email]]));
    // The token travels in the fragment, which browsers never send to a server or in a Referer.
    return json(201, { invitation: view, token, url: `${origin}/dashboard/#invitation=${token}` }, { 'Cache-Control': 'no-store' });
  });

  route('POST', '/invitations/:id/revoke', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    requirePower(user, 'invitations', 'revoke invitations');
    const nowIso = new Date(now()).toISOString();
    const invitation = await store.revokeInvitation(user.orgId, req.params.id!, nowIso);
    if (!invitation) throw new ApiError(404, `no pending invitation ${req.params.id} in your organization`);
    return json(200, { invitation: invitationView(invitation, nowIso, await emailsOf(user.orgId)) });
  });

  route('POST', '/signin', async (req) => {
    requireSameOrigin(req);
    const body = jsonBody(req);
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const address = deps.clientAddressOf(req);
    // Counted as a failure before the password is checked, so a burst is limited like a sequence.
    const attempt = await store.signIns.begin(email, address, now());
    if (!attempt.allowed) {
      const wait = attempt.retryAfterSeconds;
      throw new ApiError(429, `too many failed sign-in attempts; try again in ${wait} seconds`, { 'Retry-After': String(wait) });
    }
    const user = await checkCredentials(store, body.email, body.password);
    if (!user) throw new ApiError(401, 'wrong email or password');
    await store.signIns.succeeded(email, address, now());
    return signedIn(user, 200);
  });

  route('POST', '/signout', async (req) => {
    requireSameOrigin(req);
    await sessions.require(req);
    return empty(204, { 'Set-Cookie': await sessions.end(req) });
  });

  route('GET', '/me', async (req) => {
    const { user, csrfToken } = await sessions.require(req);
    return json(200, { user: userView(user), organization: orgView(await orgOf(user.orgId)), csrfToken });
  });

  // Admins see and manage every key; members the keys they created.
  route('GET', '/keys', async (req) => {
    const { user } = await sessions.require(req);
    const keys = (await store.listKeys(user.orgId)).filter((key) => mayManageKey(user, key));
    return json(200, { keys: keys.map(keyView) });
  });

  route('POST', '/keys', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    const input = keyInputOf(jsonBody(req));
    const { key, value } = await accountCall(() => createKey(store, user.orgId, input, now(), user.id));
    return json(201, { key: keyView(key), value }, { 'Cache-Control': 'no-store' });
  });

  /** An active key of the session's organization the member may manage; 404 (or 403) otherwise. */
  const manageableKey = async (user: User, keyId: string): Promise<ApiKeyRecord> => {
    const key = (await store.listKeys(user.orgId)).find((k) => k.id === keyId && k.status === 'active');
    if (!key) throw new ApiError(404, `no active key ${keyId} in your organization`);
    if (!mayManageKey(user, key)) throw new ApiError(403, 'members manage only the keys they created; ask an admin of the organization');
    return key;
  };
  const activeKeyOrMissing = (key: ApiKeyRecord | null, keyId: string): ApiKeyRecord => {
    if (!key) throw new ApiError(404, `no active key ${keyId} in your organization`);
    return key;
  };

  route('PATCH', '/keys/:id', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    const { id } = await manageableKey(user, req.params.id!);
    const changes = await accountCall(async () => keyChanges(keyInputOf(jsonBody(req)), now()));
    return json(200, { key: keyView(activeKeyOrMissing(await store.updateKey(user.orgId, id, changes), id)) });
  });

  // A new value, shown once; the old one keeps working for `grace` (default 24 h, 0 allowed).
  route('POST', '/keys/:id/roll', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    const { id } = await manageableKey(user, req.params.id!);
    const grace = req.body.length === 0 ? undefined : jsonBody(req).grace;
    const rolled = await accountCall(() => rollKey(store, user.orgId, id, grace, now()));
    const key = activeKeyOrMissing(rolled && rolled.key, id);
    return json(200, { key: keyView(key), value: rolled!.value }, { 'Cache-Control': 'no-store' });
  });

  route('POST', '/keys/:id/revoke', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    const { id } = await manageableKey(user, req.params.id!);
    const key = activeKeyOrMissing(await store.revokeKey(user.orgId, id, new Date(now()).toISOString()), id);
    return json(200, { key: keyView(key) });
  });

  // Owners choose between the self-service plans; Enterprise is the operator's to set and to end.
  route('PUT', '/billing', async (req) => {
    requireSameOrigin(req);
    const { user } = await sessions.require(req);
    requirePower(user, 'plan', 'change its plan');
    const tier = await accountCall(async () => parseTier(jsonBody(req).tier));
    const org = await orgOf(user.orgId);
    if (org.tier === 'enterprise') {
      throw new ApiError(403, 'this organization is on an Enterprise plan, which your Waymark operator sets and ends ("waymark org set-tier"); ask them to change it');
    }
    if (tier === 'enterprise') {
      throw new ApiError(403, 'Enterprise plans are arranged by contact: ask your Waymark operator, who sets them with "waymark org set-tier"');
    }
    return json(200, { organization: orgView(await store.setTier(user.orgId, tier)) });
  });

  route('GET', '/usage', async (req) => {
    const { user } = await sessions.require(req);
    const org = await orgOf(user.orgId);
    const period = periods.now();
    const [report, days] = await Promise.all([
      usageReport(store, org, period),
      store.usageByDay(org.id, `${period.month}-01`, lastDay(period)),
    ]);
    const daily = new Map<string, Record<Service, number>>();
    for (const d of days) {
      let row = daily.get(d.day);
      if (!row) daily.set(d.day, (row = { maps: 0, geocoding: 0, routing: 0 }));
      row[d.service] += d.count;
    }
    return json(200, { ...report, daily: [...daily].map(([day, counts]) => ({ day, ...counts })) });
  });
}
