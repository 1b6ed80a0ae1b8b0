/**
 * Users and organizations in the SQLite store: sign-ups, look-ups, roles and plans. Functions that
 * write more than one row run inside the caller's transaction (SqliteStore wraps them); those that
 * write a key or an organization stamp it with `nextRevision` for the directories to pick up.
 */
import type Database from 'better-sqlite3';
import { newId } from '../ids.js';
import { nameSkeleton } from '../name-skeleton.js';
import { LastOwner, OrgNameLookAlike, OrgNameTaken, StoreConflict } from '../store.js';
import { withoutPassword } from '../store-views.js';
import type { Organization, PerMinuteLimits, Role, Service, Tier, User, UserWithPassword } from '../types.js';
import { revokeInvitationsBeyond } from './members.js';
import { toOrg, toUser, type OrgRow, type UserRow } from './rows.js';

/** Inserts a user into an organization; StoreConflict when the email is taken. Call in a transaction. */
export function insertUser(db: Database.Database, email: string, passwordHash: string, orgId: string, role: Role, now: string): User {
  if (db.prepare('SELECT 1 FROM users WHERE email = ?').get(email)) {
    throw new StoreConflict(`a user with the email ${email} already exists`);
  }
  const row: UserRow = { id: newId('usr'), email, password_hash: passwordHash, org_id: orgId, role, created_at: now };
  db.prepare(
    'INSERT INTO users (id, email, password_hash, org_id, role, created_at) VALUES (@id, @email, @password_hash, @org_id, @role, @created_at)',
  ).run(row);
  return withoutPassword(toUser(row));
}

export function orgRow(db: Database.Database, id: string): OrgRow | undefined {
  return db.prepare<[string], OrgRow>('SELECT * FROM organizations WHERE id = ?').get(id);
}

/** The skeleton of a new organization's name; OrgNameLookAlike when an organization has it already. Call in its transaction. */
function freeSkeleton(db: Database.Database, name: string): string {
  const skeleton = nameSkeleton(name);
  if (db.prepare('SELECT 1 FROM organizations WHERE skeleton = ?').get(skeleton)) throw new OrgNameLookAlike(name);
  return skeleton;
}

export function createUserWithOrg(
  db: Database.Database,
  input: { email: string; passwordHash: string; orgName: string },
  now: string,
  nextRevision: () => number,
): { user: User; org: Organization } {
  if (db.prepare('SELECT 1 FROM organizations WHERE casefold(name) = casefold(?)').get(input.orgName)) {
    throw new OrgNameTaken(input.orgName);
  }
  const skeleton = freeSkeleton(db, input.orgName);
  const row: OrgRow = {
    id: newId('org'),
    name: input.orgName,
    tier: 'free',
    custom_quotas: '{}',
    custom_per_minute: '{}',
    created_at: now,
    rev: nextRevision(),
  };
  db.prepare(
    `INSERT INTO organizations (id, name, tier, custom_quotas, custom_per_minute, created_at, rev, skeleton)
       VALUES (@id, @name, @tier, @custom_quotas, @custom_per_minute, @created_at, @rev, @skeleton)`,
  ).run({ ...row, skeleton });
  return { user: insertUser(db, input.email, input.passwordHash, row.id, 'owner', now), org: toOrg(row) };
}

export function createUserInOrg(
  db: Database.Database,
  input: { email: string; passwordHash: string; orgId: string; role: Role },
  now: string,
): { user: User; org: Organization } {
  const row = orgRow(db, input.orgId);
  if (!row) throw new StoreConflict(`no organization ${input.orgId}`);
  const user = insertUser(db, input.email, input.passwordHash, row.id, input.role, now);
  return { user, org: toOrg(row) };
}

export function setRole(db: Database.Database, orgId: string, userId: string, role: Role, nowIso: string): User | null {
  const current = db.prepare<[string, string], UserRow>('SELECT * FROM users WHERE id = ? AND org_id = ?').get(userId, orgId);
  if (!current) return null;
  if (current.role === 'owner' && role !== 'owner') {
    const owners = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE org_id = ? AND role = 'owner'").get(orgId)!.n;
    if (owners <= 1) throw new LastOwner();
  }
  const row = db.prepare<[string, string], UserRow>('UPDATE users SET role = ? WHERE id = ? RETURNING *').get(role, userId)!;
  revokeInvitationsBeyond(db, userId, role, nowIso);
  return withoutPassword(toUser(row));
}

export function listUsers(db: Database.Database, orgId: string): User[] {
  return db
    .prepare<[string], UserRow>('SELECT * FROM users WHERE org_id = ? ORDER BY created_at, rowid')
    .all(orgId)
    .map((row) => withoutPassword(toUser(row)));
}

export function findUserByEmail(db: Database.Database, email: string): UserWithPassword | null {
  const row = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?').get(email);
  return row ? toUser(row) : null;
}

export function getUser(db: Database.Database, id: string): User | null {
  const row = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?').get(id);
  return row ? withoutPassword(toUser(row)) : null;
}

export function getOrg(db: Database.Database, id: string): Organization | null {
  const row = orgRow(db, id);
  return row ? toOrg(row) : null;
}

export function findOrgByName(db: Database.Database, name: string): Organization | null {
  // An exact match first: files from before names were unique in any case may hold two.
  const row = db
    .prepare<[string, string], OrgRow>(
      'SELECT * FROM organizations WHERE casefold(name) = casefold(?) ORDER BY name = ? DESC, created_at LIMIT 1',
    )
    .get(name, name);
  return row ? toOrg(row) : null;
}

/** Call in a transaction. */
export function setTier(
  db: Database.Database,
  orgId: string,
  tier: Tier,
  custom: { quotas?: Partial<Record<Service, number>>; perMinute?: PerMinuteLimits },
  nextRevision: () => number,
): Organization {
  const rev = nextRevision();
  const asJson = (limits: object | undefined) => (limits ? JSON.stringify(limits) : null);
  const row = db
    .prepare<[string, string | null, string | null, number, string], OrgRow>(
      `UPDATE organizations SET tier = ?, custom_quotas = COALESCE(?, custom_quotas),
         custom_per_minute = COALESCE(?, custom_per_minute), rev = ? WHERE id = ? RETURNING *`,
    )
    .get(tier, asJson(custom.quotas), asJson(custom.perMinute), rev, orgId);
  if (!row) throw new StoreConflict(`no organization ${orgId}`);
  return toOrg(row);
}
