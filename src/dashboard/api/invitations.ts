/** Invitation links: made, listed and revoked by admins and owners; previewed by whoever opens one. */
import { parseRole } from '../../control-plane/accounts.js';
import { createInvitation, invitationStatus, invitingOrganization } from '../../control-plane/invitations.js';
import { mayGrant } from '../../control-plane/permissions.js';
import type { ControlStore } from '../../control-plane/store.js';
import type { InvitationRecord } from '../../control-plane/types.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { record } from '../../control-plane/audit.js';
import { accountCall, auditOf, jsonBody, publicRoutes, requirePower, sessionRoutes, withArticle, type DashboardDeps } from './routes.js';

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

const emailsOf = async (store: ControlStore, orgId: string) => new Map((await store.listUsers(orgId)).map((u) => [u.id, u.email]));

export function registerInvitations(router: Router, deps: DashboardDeps): void {
  const { store, sessions, now, originOf } = deps;
  publicRoutes(router, {
    // What an invitation link leads to, for the sign-up page to show before the person commits.
    'POST /invitations/preview': async (req) => {
      const { org, expiresAt } = await accountCall(() => invitingOrganization(store, jsonBody(req).invitation, now()));
      return json(200, { organization: { name: org.name }, expiresAt });
    },
  });

  sessionRoutes(router, sessions, {
    'GET /invitations': async (_req, { user }) => {
      requirePower(user, 'invitations', 'see invitations');
      const [invitations, emails] = await Promise.all([store.listInvitations(user.orgId), emailsOf(store, user.orgId)]);
      const nowIso = new Date(now()).toISOString();
      return json(200, { invitations: invitations.map((i) => invitationView(i, nowIso, emails)) });
    },

    'POST /invitations': async (req, { user }) => {
      requirePower(user, 'invitations', 'invite people');
      const origin = originOf(req);
      if (origin === null)
        throw new ApiError(400, 'the Host header must name the host the dashboard is reached at; or set WAYMARK_PUBLIC_URL on the server');
      const asked = req.body.length === 0 ? undefined : jsonBody(req).role;
      const role = asked === undefined ? 'member' : await accountCall(async () => parseRole(asked));
      if (!mayGrant(user.role, role))
        throw new ApiError(403, `${withArticle(user.role)} cannot invite ${withArticle(role)}: nobody grants more than their own role`);
      const { invitation, token } = await createInvitation(store, user, role, now());
      const invited = { role, hint: invitation.hint, expiresAt: invitation.expiresAt };
      await record(auditOf(deps, req, user), { action: 'member.invited', target: invitation.id, after: invited });
      const view = invitationView(invitation, new Date(now()).toISOString(), new Map([[user.id, user.email]]));
      // The token travels in the fragment, which browsers never send to a server or in a Referer.
      return json(201, { invitation: view, token, url: `${origin}/dashboard/#invitation=${token}` });
    },

    'POST /invitations/:id/revoke': async (req, { user }) => {
      requirePower(user, 'invitations', 'revoke invitations');
      const nowIso = new Date(now()).toISOString();
      const invitation = await store.revokeInvitation(user.orgId, req.params.id!, nowIso);
      if (!invitation) throw new ApiError(404, `no pending invitation ${req.params.id} in your organization`);
      await record(auditOf(deps, req, user), {
        action: 'invitation.revoked',
        target: invitation.id,
        before: { status: 'pending' },
        after: { status: 'revoked' },
      });
      return json(200, { invitation: invitationView(invitation, nowIso, await emailsOf(store, user.orgId)) });
    },
  });
}
