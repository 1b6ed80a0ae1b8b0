/** The organization's members: their roles (set by owners), and removing them (owners and admins). */
import { parseRole } from '../../control-plane/accounts.js';
import { parseRevokeKeys, removeMember } from '../../control-plane/members.js';
import { removableBy } from '../../control-plane/permissions.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { record } from '../../control-plane/audit.js';
import { accountCall, auditOf, jsonBody, requirePower, sessionRoutes, withArticle, type DashboardDeps } from './routes.js';
import { memberView } from './views.js';

export function registerMembers(router: Router, deps: DashboardDeps): void {
  const { store, sessions, now } = deps;
  const notAMember = (id: string) => new ApiError(404, `no member ${id} in your organization`);

  sessionRoutes(router, sessions, {
    'GET /members': async (_req, { user }) => json(200, { members: (await store.listUsers(user.orgId)).map(memberView) }),

    // Owners set roles; at least one owner always remains (409 otherwise).
    'PUT /members/:id/role': async (req, { user }) => {
      requirePower(user, 'roles', "change members' roles");
      const role = await accountCall(async () => parseRole(jsonBody(req).role));
      const before = await store.getUser(req.params.id!);
      const member = before?.orgId === user.orgId ? await accountCall(() => store.setRole(user.orgId, before.id, role)) : null;
      if (!member) throw notAMember(req.params.id!);
      if (before!.role !== member.role) {
        const change = { action: 'member.role_changed', target: member.id, before: { email: member.email, role: before!.role } } as const;
        await record(auditOf(deps, req, user), { ...change, after: { email: member.email, role: member.role } });
      }
      return json(200, { member: memberView(member) });
    },

    // Owners remove anyone, admins admins and members; the last owner stays (409).
    'POST /members/:id/remove': async (req, { user }) => {
      requirePower(user, 'members', 'remove members');
      const id = req.params.id!;
      const revokeKeys = await accountCall(async () => parseRevokeKeys(req.body.length === 0 ? undefined : jsonBody(req).revokeKeys));
      const member = await store.getUser(id);
      if (!member || member.orgId !== user.orgId) throw notAMember(id);
      if (!removableBy(user.role).includes(member.role)) {
        throw new ApiError(403, `${withArticle(user.role)} cannot remove ${withArticle(member.role)}: only an owner can`);
      }
      const removal = await accountCall(() => removeMember(store, user, user.orgId, id, revokeKeys, now()));
      // Gone, or promoted beyond the remover's reach, since it was read.
      if (!removal) throw notAMember(id);
      const removed = { email: removal.user.email, role: removal.user.role, revokedKeys: removal.revokedKeys.map((key) => key.id) };
      await record(auditOf(deps, req, user), { action: 'member.removed', target: id, before: removed });
      return json(200, { member: memberView(removal.user), revokedKeys: removal.revokedKeys.map((key) => key.id) });
    },
  });
}
