/** Invitations in the Redis store; accepting one creates its user through the accounts (accounts.ts). */
import { invitersOf } from '../permissions.js';
import { withoutPassword } from '../store-views.js';
import type { InvitationAcceptance } from '../store.js';
import type { InvitationRecord, Organization, Role, User } from '../types.js';
import { emailField, type RedisAccounts } from './accounts.js';
import { fromPairs, invitationFields, isPresent, toInvitation, toOrg, userFields } from './records.js';
import { RedisStorePart, type RedisContext } from './store-part.js';

export class RedisInvitations extends RedisStorePart {
  constructor(
    context: RedisContext,
    private readonly accounts: RedisAccounts,
  ) {
    super(context);
  }

  insertInvitation(invitation: InvitationRecord): Promise<void> {
    return this.guarded(async () => {
      const n = this.names;
      await this.client
        .multi()
        .hset(n.invitation(invitation.hash), invitationFields(invitation))
        .hset(n.invitationIds, invitation.id, invitation.hash)
        .rpush(n.orgInvitations(invitation.orgId), invitation.hash)
        .exec();
    });
  }

  listInvitations(orgId: string): Promise<InvitationRecord[]> {
    return this.guarded(async () => {
      const hashes = await this.client.lrange(this.names.orgInvitations(orgId), 0, -1);
      const records = await Promise.all(hashes.map((hash) => this.client.hgetall(this.names.invitation(hash))));
      // Newest first, and the later-made first among equal times (sort is stable).
      return records
        .filter(isPresent)
        .map(toInvitation)
        .reverse()
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    });
  }

  findInvitation(hash: string): Promise<InvitationRecord | null> {
    return this.guarded(async () => {
      const h = await this.client.hgetall(this.names.invitation(hash));
      return isPresent(h) ? toInvitation(h) : null;
    });
  }

  revokeInvitation(orgId: string, invitationId: string, atIso: string): Promise<InvitationRecord | null> {
    return this.guarded(async () => {
      const hash = await this.client.hget(this.names.invitationIds, invitationId);
      if (!hash) return null;
      const pairs = (await this.scripts.revokeInvitation([this.names.invitation(hash)], [orgId, invitationId, atIso])) as string[] | null;
      return pairs ? toInvitation(fromPairs(pairs)) : null;
    });
  }

  acceptInvitation(input: InvitationAcceptance): Promise<{ user: User; org: Organization } | null> {
    return this.guarded(async () => {
      const [orgId, invitedRole, inviterId] = await this.client.hmget(this.names.invitation(input.hash), 'orgId', 'role', 'createdBy');
      if (!orgId || !inviterId) return null;
      const inviters = invitersOf((invitedRole ?? 'member') as Role).join(',');
      // The role is the invitation's, which the script reads as it accepts it.
      const user = this.accounts.newUser(input.email, input.passwordHash, orgId, 'member', input.nowIso);
      const n = this.names;
      const [outcome, orgPairs, role] = (await this.scripts.acceptInvitation(
        [n.invitation(input.hash), n.emails, n.org(orgId), n.user(user.id), n.orgUsers(orgId), n.orgOwners(orgId), n.user(inviterId)],
        [input.nowIso, orgId, emailField(user.email), user.id, JSON.stringify(userFields(user)), inviters],
      )) as [string, string[]?, Role?];
      if (outcome === 'unusable') return null;
      if (outcome === 'email-taken') throw this.accounts.emailTaken(input.email);
      return { user: withoutPassword({ ...user, role: role! }), org: toOrg(fromPairs(orgPairs!)) };
    });
  }
}
