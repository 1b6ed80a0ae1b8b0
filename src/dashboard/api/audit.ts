/** The organization's audit log, newest first: owners and admins read it, members get a 403. */
import { MAX_AUDIT_ENTRIES } from '../../control-plane/audit.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { requirePower, sessionRoutes, type DashboardDeps } from './routes.js';

const DEFAULT_ENTRIES = 100;

export function registerAudit(router: Router, { store, sessions }: DashboardDeps): void {
  sessionRoutes(router, sessions, {
    'GET /audit': async (req, { user }) => {
      requirePower(user, 'audit', 'read its audit log');
      const asked = req.query.get('limit');
      const limit = asked === null ? DEFAULT_ENTRIES : /^\d{1,4}$/.test(asked) ? Number(asked) : NaN;
      if (!(limit >= 1 && limit <= MAX_AUDIT_ENTRIES))
        throw new ApiError(400, `limit must be a whole number from 1 to ${MAX_AUDIT_ENTRIES}`);
      return json(200, { entries: await store.listAudit(user.orgId, limit) });
    },
  });
}
