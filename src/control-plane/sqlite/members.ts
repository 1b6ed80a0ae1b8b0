/**
 * Sessions and offboarding in the SQLite store: sessions, removing members, ending sessions,
 * password changes and resets, and keeping invitations within their makers' current roles. Each
 * function runs inside the caller's transaction (SqliteStore wraps them).
 */
import type Database from 'better-sqlite3';
import { invitersOf, mayInvite } from '../permissions.js';
import { LastOwner, type Removal, type RemovalRequest } from '../store.js';
import { withoutPassword } from '../store-views.js';
import type { PasswordResetRecord, Role, SessionRecord, User } from '../types.js';
import { toKey, toUser, type InvitationRow, type KeyRow, type UserRow } from './rows.js';

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?';

/** Revokes the member's pending invitations whose role `role` may not grant (all of them when it may invite nobody). */
export function revokeInvitationsBeyond(db: Database.Database, userId: string, role: Role | null, nowIso: string): void {
  const pending = db
    .prepare<[string, string], Pick<InvitationRow, 'id' | 'role'>>(`SELECT id, role FROM invitations WHERE created_by = ? AND ${PENDING}`)
    .all(userId, nowIso);
  const revoke = db.prepare('UPDATE invitations SET revoked_at = ? WHERE id = ?');
  for (const invitation of pending) if (role === null || !mayInvite(role, invitation.role as Role)) revoke.run(nowIso, invitation.id);
}

/** Whether the invitation's maker is still a member of its organization whose role may make it. */
export function inviterMayStillInvite(db: Database.Database, invitation: InvitationRow): boolean {
  const inviter = db
    .prepare<[string, string], { role: string }>('SELECT role FROM users WHERE id = ? AND org_id = ?')
    .get(invitation.created_by, invitation.org_id);
  return inviter !== undefined && invitersOf(invitation.role as Role).includes(inviter.role as Role);
}

const countOwners = (db: Database.Database, orgId: string) =>
  db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE org_id = ? AND role = 'owner'").get(orgId)!.n;

export function createSession(db: Database.Database, session: SessionRecord): void {
  db.prepare('INSERT INTO sessions (hash, user_id, expires_at) VALUES (?, ?, ?)').run(session.hash, session.userId, session.expiresAt);
}

export function findSession(db: Database.Database, hash: string, nowIso: string): SessionRecord | null {
  const row = db
    .prepare<[string, string], { hash: string; user_id: string; expires_at: string }>(
      'SELECT * FROM sessions WHERE hash = ? AND expires_at > ?',
    )
    .get(hash, nowIso);
  return row ? { hash: row.hash, userId: row.user_id, expiresAt: row.expires_at } : null;
}

export function deleteSession(db: Database.Database, hash: string): void {
  db.prepare('DELETE FROM sessions WHERE hash = ?').run(hash);
}

/** Ends the user's sessions, all or all but one (a session hash). */
function endSessions(db: Database.Database, userId: string, keep: string | null): void {
  db.prepare('DELETE FROM sessions WHERE user_id = ? AND hash IS NOT ?').run(userId, keep);
}

export function removeUser(db: Database.Database, request: RemovalRequest, nextRevision: () => number): Removal | null {
  const row = db.prepare<[string, string], UserRow>('SELECT * FROM users WHERE id = ? AND org_id = ?').get(request.userId, request.orgId);
  if (!row || !request.removableRoles.includes(row.role as Role)) return null;
  if (row.role === 'owner' && countOwners(db, request.orgId) <= 1) throw new LastOwner();
  revokeInvitationsBeyond(db, row.id, null, request.nowIso);
  const revokedKeys = request.revokeKeys
    ? db
        .prepare<[string, number, string, string], KeyRow>(
          "UPDATE api_keys SET status = 'revoked', revoked_at = ?, rev = ? WHERE org_id = ? AND created_by = ? AND status = 'active' RETURNING *",
        )
        .all(request.nowIso, nextRevision(), request.orgId, row.id)
        .map(toKey)
    : [];
  endSessions(db, row.id, null);
  db.prepare('DELETE FROM password_resets WHERE user_id = ?').run(row.id);
  db.prepare('DELETE FROM users WHERE id = ?').run(row.id);
  return { user: withoutPassword(toUser(row)), revokedKeys };
}

export function setPassword(db: Database.Database, userId: string, passwordHash: string, keepSession: string | null): boolean {
  if (db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId).changes === 0) return false;
  endSessions(db, userId, keepSession);
  db.prepare('DELETE FROM password_resets WHERE user_id = ?').run(userId);
  return true;
}

export function insertPasswordReset(db: Database.Database, reset: PasswordResetRecord): boolean {
  if (!db.prepare('SELECT 1 FROM users WHERE id = ?').get(reset.userId)) return false;
  db.prepare('INSERT OR REPLACE INTO password_resets (user_id, hash, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    reset.userId,
    reset.hash,
    reset.createdAt,
    reset.expiresAt,
  );
  return true;
}

export function usePasswordReset(db: Database.Database, input: { hash: string; nowIso: string; passwordHash: string }): User | null {
  const reset = db
    .prepare<[string, string], { user_id: string }>('DELETE FROM password_resets WHERE hash = ? AND expires_at > ? RETURNING user_id')
    .get(input.hash, input.nowIso);
  if (!reset || !setPassword(db, reset.user_id, input.passwordHash, null)) return null;
  const row = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?').get(reset.user_id)!;
  return withoutPassword(toUser(row));
}
