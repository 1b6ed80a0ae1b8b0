/** The organization's members, and their roles (set by owners). */
import { parseRole } from '../../control-plane/accounts.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { accountCall, jsonBody, requirePower, sessionRoutes, type DashboardDeps } from './routes.js';
import { memberView } from './views.js';

export function registerMembers(router: Router, { store, sessions }: DashboardDeps): void {
  sessionRoutes(router, sessions, {
    'GET /members': async (_req, { user }) => json(200, { members: (await store.listUsers(user.orgId)).map(memberView) }),

    // Owners set roles; at least one owner always remains (409 otherwise).
    'PUT /members/:id/role': async (req, { user }) => {
      requirePower(user, 'roles', "change members' roles");
      const role = await accountCall(async () => parseRole(jsonBody(req).role));
      const member = await accountCall(() => store.setRole(user.orgId, req.params.id!, role));
      if (!member) throw new ApiError(404, `no member ${req.params.id} in your organization`);
      return json(200, { member: memberView(member) });
    },
  });
}
