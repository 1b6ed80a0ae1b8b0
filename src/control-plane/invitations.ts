/**
 * Invitations: the only way into an existing organization from the dashboard. A member makes one;
 * its token (`wmi_` + 43 random base64url characters) is shown once, inside the invitation link,
 * and stored only as its SHA-256. It admits one user, within 7 days, unless a member revokes it,
 * and only while its maker is a member whose role may still make it: a demotion or removal
 * revokes the maker's pending invitations beyond its new role, and acceptance checks again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AccountError, newCredentials } from './accounts.js';
import { newId } from './ids.js';
import { secretHint } from './keys.js';
import { mayInvite } from './permissions.js';
import type { ControlStore } from './store.js';
import type { InvitationRecord, InvitationStatus, Organization, Role, User } from './types.js';

const TOKEN_PREFIX = 'wmi_';
const TOKEN_PATTERN = /^wmi_[A-Za-z0-9_-]{43}$/;
const INVITATION_TTL_MS = 7 * 86_400_000;

const UNUSABLE =
  'this invitation link is not valid: it may have expired, been revoked or been used already; ask a member of the organization for a new one';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function invitationStatus(invitation: InvitationRecord, nowIso: string): InvitationStatus {
  if (invitation.acceptedAt !== null) return 'accepted';
  if (invitation.revokedAt !== null) return 'revoked';
  return invitation.expiresAt > nowIso ? 'pending' : 'expired';
}

/** Makes an invitation into the member's organization, for `role`; the token exists only in the returned value. */
export async function createInvitation(
  store: ControlStore,
  member: User,
  role: Role,
  now: number,
): Promise<{ invitation: InvitationRecord; token: string }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const invitation: InvitationRecord = {
    id: newId('inv'),
    orgId: member.orgId,
    hash: hashToken(token),
    hint: secretHint(token, TOKEN_PREFIX),
    role,
    createdBy: member.id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + INVITATION_TTL_MS).toISOString(),
    acceptedBy: null,
    acceptedAt: null,
    revokedAt: null,
  };
  await store.insertInvitation(invitation);
  return { invitation, token };
}

/** Whether the invitation's maker is still a member whose role may make it, as acceptance checks (the store, atomically). */
async function inviterMayStillInvite(store: ControlStore, invitation: InvitationRecord): Promise<boolean> {
  const inviter = await store.getUser(invitation.createdBy);
  return inviter !== null && inviter.orgId === invitation.orgId && mayInvite(inviter.role, invitation.role);
}

/** The organization a token can still admit someone to; an AccountError when it cannot. */
export async function invitingOrganization(
  store: ControlStore,
  token: unknown,
  now: number,
): Promise<{ org: Organization; expiresAt: string }> {
  const invitation = typeof token === 'string' && TOKEN_PATTERN.test(token) ? await store.findInvitation(hashToken(token)) : null;
  const usable =
    invitation &&
    invitationStatus(invitation, new Date(now).toISOString()) === 'pending' &&
    (await inviterMayStillInvite(store, invitation));
  const org = usable ? await store.getOrg(invitation.orgId) : null;
  if (!invitation || !org) throw new AccountError(UNUSABLE);
  return { org, expiresAt: invitation.expiresAt };
}

/** Signs a new user up into the organization that invited them, using the invitation up. */
export async function acceptInvitation(
  store: ControlStore,
  input: { invitation: unknown; email: unknown; password: unknown },
  now: number,
): Promise<{ user: User; org: Organization }> {
  const token = input.invitation;
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) throw new AccountError(UNUSABLE);
  const credentials = await newCredentials(store, input);
  const joined = await store.acceptInvitation({ hash: hashToken(token), nowIso: new Date(now).toISOString(), ...credentials });
  if (!joined) throw new AccountError(UNUSABLE);
  return joined;
}
