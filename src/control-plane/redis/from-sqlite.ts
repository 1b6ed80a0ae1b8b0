/** Copying an embedded (SQLite) control plane into Redis: `waymark migrate --to-redis`. */
import Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import { toInvitation, toKey, toOrg, toUser, type InvitationRow, type KeyRow, type OrgRow, type UserRow } from '../sqlite/rows.js';
import { dayUsageField, type ControlKeys } from './keys.js';
import { nameSkeleton } from '../name-skeleton.js';
import { invitationFields, keyFields, orgFields, userFields } from './records.js';

export interface MigrationCounts {
  organizations: number;
  users: number;
  keys: number;
  invitations: number;
  sessions: number;
  usageRows: number;
}

/** Whether any control-plane key exists under the prefix. */
export async function holdsControlPlane(client: Redis, names: ControlKeys): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', names.all, 'COUNT', 1000);
    if (found.length > 0) return true;
    cursor = next;
  } while (cursor !== '0');
  return false;
}

/**
 * Writes every record of the SQLite file (in creation order, so that listings keep theirs), the
 * unexpired sessions and all recorded usage, in one MULTI: all of it or nothing.
 */
export async function copySqliteToRedis(file: string, client: Redis, names: ControlKeys, nowIso: string): Promise<MigrationCounts> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const tx = client.multi();
  try {
    const orgs = db.prepare<[], OrgRow>('SELECT * FROM organizations ORDER BY created_at, rowid').all().map(toOrg);
    for (const org of orgs) {
      tx.hset(names.org(org.id), orgFields(org)).sadd(names.orgs, org.id).hset(names.orgNames, org.name.toLowerCase(), org.id);
      tx.hsetnx(names.orgSkeletons, nameSkeleton(org.name), org.id);
    }

    const users = db.prepare<[], UserRow>('SELECT * FROM users ORDER BY created_at, rowid').all().map(toUser);
    for (const user of users) {
      tx.hset(names.user(user.id), userFields(user))
        .hset(names.emails, user.email.toLowerCase(), user.id)
        .rpush(names.orgUsers(user.orgId), user.id);
      if (user.role === 'owner') tx.sadd(names.orgOwners(user.orgId), user.id);
    }
    // The file's schema gave every user a role already.
    tx.set(names.rolesUpgraded, '1');

    const keys = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, rowid').all().map(toKey);
    for (const key of keys) {
      tx.hset(names.key(key.hash), keyFields(key))
        .hset(names.keyIds, key.id, key.hash)
        .sadd(names.keys, key.hash)
        .rpush(names.orgKeys(key.orgId), key.hash);
    }

    const invitations = db.prepare<[], InvitationRow>('SELECT * FROM invitations ORDER BY created_at, rowid').all().map(toInvitation);
    for (const invitation of invitations) {
      tx.hset(names.invitation(invitation.hash), invitationFields(invitation))
        .hset(names.invitationIds, invitation.id, invitation.hash)
        .rpush(names.orgInvitations(invitation.orgId), invitation.hash);
    }

    const sessions = db
      .prepare<[string], { hash: string; user_id: string; expires_at: string }>('SELECT * FROM sessions WHERE expires_at > ?')
      .all(nowIso);
    const latestSession = new Map<string, number>();
    for (const s of sessions) {
      const key = names.session(s.hash);
      const expiresAt = Date.parse(s.expires_at);
      tx.hset(key, { hash: s.hash, userId: s.user_id, expiresAt: s.expires_at })
        .pexpireat(key, expiresAt)
        .sadd(names.userSessions(s.user_id), s.hash);
      latestSession.set(s.user_id, Math.max(latestSession.get(s.user_id) ?? 0, expiresAt));
    }
    for (const [userId, expiresAt] of latestSession) tx.pexpireat(names.userSessions(userId), expiresAt);
    tx.set(names.sessionsIndexed, '1');

    const resets = db
      .prepare<[string], { user_id: string; hash: string; created_at: string; expires_at: string }>(
        'SELECT * FROM password_resets WHERE expires_at > ?',
      )
      .all(nowIso);
    for (const r of resets) {
      const key = names.passwordReset(r.hash);
      tx.hset(key, { hash: r.hash, userId: r.user_id, createdAt: r.created_at, expiresAt: r.expires_at })
        .pexpireat(key, Date.parse(r.expires_at))
        .hset(names.user(r.user_id), 'resetHash', r.hash);
    }

    const usage = db
      .prepare<[], { org_id: string; service: string; day: string; key_id: string; count: number }>('SELECT * FROM usage_daily')
      .all();
    for (const u of usage) {
      tx.hincrby(names.dayUsage(u.org_id, u.day), dayUsageField(u.service, u.key_id), u.count).hincrby(
        names.monthUsage(u.org_id, u.day.slice(0, 7)),
        u.service,
        u.count,
      );
    }
    await tx.exec();
    return {
      organizations: orgs.length,
      users: users.length,
      keys: keys.length,
      invitations: invitations.length,
      sessions: sessions.length,
      usageRows: usage.length,
    };
  } catch (error) {
    tx.discard();
    throw error;
  } finally {
    db.close();
  }
}
