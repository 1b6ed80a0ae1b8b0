/** Invitations in the SQLite store; accepting one creates its user (accounts.ts) inside the caller's transaction. */
import type Database from 'better-sqlite3';
import type { InvitationRecord, Organization, Role, User } from '../types.js';
import { insertUser, orgRow } from './accounts.js';
import { inviterMayStillInvite } from './members.js';
import { toInvitation, toOrg, type InvitationRow } from './rows.js';

export function insertInvitation(db: Database.Database, invitation: InvitationRecord): void {
  db.prepare(
    `INSERT INTO invitations (id, org_id, hash, hint, role, created_by, created_at, expires_at, accepted_by, accepted_at, revoked_at)
         VALUES (@id, @orgId, @hash, @hint, @role, @createdBy, @createdAt, @expiresAt, @acceptedBy, @acceptedAt, @revokedAt)`,
  ).run(invitation);
}

export function listInvitations(db: Database.Database, orgId: string): InvitationRecord[] {
  return db
    .prepare<[string], InvitationRow>('SELECT * FROM invitations WHERE org_id = ? ORDER BY created_at DESC, rowid DESC')
    .all(orgId)
    .map(toInvitation);
}

export function findInvitation(db: Database.Database, hash: string): InvitationRecord | null {
  const row = db.prepare<[string], InvitationRow>('SELECT * FROM invitations WHERE hash = ?').get(hash);
  return row ? toInvitation(row) : null;
}

export function revokeInvitation(db: Database.Database, orgId: string, invitationId: string, atIso: string): InvitationRecord | null {
  const row = db
    .prepare<[string, string, string, string], InvitationRow>(
      `UPDATE invitations SET revoked_at = ?
         WHERE id = ? AND org_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? RETURNING *`,
    )
    .get(atIso, invitationId, orgId, atIso);
  return row ? toInvitation(row) : null;
}

/** Call in a transaction. */
export function acceptInvitation(
  db: Database.Database,
  input: { hash: string; nowIso: string; email: string; passwordHash: string },
): { user: User; org: Organization } | null {
  const invitation = db
    .prepare<[string, string], InvitationRow>(
      'SELECT * FROM invitations WHERE hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?',
    )
    .get(input.hash, input.nowIso);
  const org = invitation && inviterMayStillInvite(db, invitation) && orgRow(db, invitation.org_id);
  if (!invitation || !org) return null;
  const user = insertUser(db, input.email, input.passwordHash, org.id, invitation.role as Role, input.nowIso);
  db.prepare('UPDATE invitations SET accepted_by = ?, accepted_at = ? WHERE id = ?').run(user.id, input.nowIso, invitation.id);
  return { user, org: toOrg(org) };
}
