/** API keys: admins see and manage every key of the organization, members the keys they created. */
import { createKey, keyChanges, keyView, rollKey, type KeyInput } from '../../control-plane/accounts.js';
import { mayManageKey } from '../../control-plane/permissions.js';
import type { ApiKeyRecord, User } from '../../control-plane/types.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { auditedKey, changedFields, record, REVOKE_CHANGE, rollChange } from '../../control-plane/audit.js';
import { accountCall, auditOf, jsonBody, sessionRoutes, type DashboardDeps } from './routes.js';

/** The key fields a dashboard body may set; others (status, hashes, createdBy) are ignored. */
const keyInputOf = (body: Record<string, unknown>): KeyInput => ({
  name: body.name,
  scopes: body.scopes,
  allowedOrigins: body.allowedOrigins,
  allowedIps: body.allowedIps,
  expiresAt: body.expiresAt,
  perMinute: body.perMinute,
});

const activeKeyOrMissing = (key: ApiKeyRecord | null, keyId: string): ApiKeyRecord => {
  if (!key) throw new ApiError(404, `no active key ${keyId} in your organization`);
  return key;
};

export function registerKeys(router: Router, deps: DashboardDeps): void {
  const { store, sessions, now } = deps;
  /** An active key of the session's organization the member may manage; 404 (or 403) otherwise. */
  const manageableKey = async (user: User, keyId: string): Promise<ApiKeyRecord> => {
    const key = activeKeyOrMissing((await store.listKeys(user.orgId)).find((k) => k.id === keyId && k.status === 'active') ?? null, keyId);
    if (!mayManageKey(user, key)) throw new ApiError(403, 'members manage only the keys they created; ask an admin of the organization');
    return key;
  };

  sessionRoutes(router, sessions, {
    'GET /keys': async (_req, { user }) => {
      const keys = (await store.listKeys(user.orgId)).filter((key) => mayManageKey(user, key));
      return json(200, { keys: keys.map(keyView) });
    },

    'POST /keys': async (req, { user }) => {
      const input = keyInputOf(jsonBody(req));
      const { key, value } = await accountCall(() => createKey(store, user.orgId, input, now(), user.id));
      await record(auditOf(deps, req, user), { action: 'key.created', target: key.id, after: auditedKey(key) });
      return json(201, { key: keyView(key), value });
    },

    'PATCH /keys/:id': async (req, { user }) => {
      const old = await manageableKey(user, req.params.id!);
      const changes = await accountCall(async () => keyChanges(keyInputOf(jsonBody(req)), now()));
      const key = activeKeyOrMissing(await store.updateKey(user.orgId, old.id, changes), old.id);
      await record(auditOf(deps, req, user), { action: 'key.updated', target: key.id, ...changedFields(auditedKey(old), auditedKey(key)) });
      return json(200, { key: keyView(key) });
    },

    // A new value, shown once; the old one keeps working for `grace` (default 24 h, 0 allowed).
    'POST /keys/:id/roll': async (req, { user }) => {
      const { id } = await manageableKey(user, req.params.id!);
      const grace = req.body.length === 0 ? undefined : jsonBody(req).grace;
      const rolled = await accountCall(() => rollKey(store, user.orgId, id, grace, now()));
      const key = activeKeyOrMissing(rolled?.key ?? null, id);
      await record(auditOf(deps, req, user), { action: 'key.rolled', target: key.id, ...rollChange(key) });
      return json(200, { key: keyView(key), value: rolled!.value });
    },

    'POST /keys/:id/revoke': async (req, { user }) => {
      const { id } = await manageableKey(user, req.params.id!);
      const key = activeKeyOrMissing(await store.revokeKey(user.orgId, id, new Date(now()).toISOString()), id);
      await record(auditOf(deps, req, user), { action: 'key.revoked', target: key.id, ...REVOKE_CHANGE });
      return json(200, { key: keyView(key) });
    },
  });
}
