/** The embedded control-plane store: one SQLite file (WAL), shared safely with CLI processes. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { monthBounds, monthKey } from '../../clock.js';
import { newId } from '../ids.js';
import { LocalLedger } from '../local-ledger.js';
import { nameSkeleton } from '../name-skeleton.js';
import {
  KeyLimitReached,
  LastOwner,
  OrgNameLookAlike,
  OrgNameTaken,
  StoreConflict,
  type ControlStore,
  type KeyRoll,
  type Removal,
  type RemovalRequest,
} from '../store.js';
import { TIER_ACTIVE_KEYS } from '../tiers.js';
import {
  SERVICES,
  type ApiKeyRecord,
  type DailyUsage,
  type InvitationRecord,
  type KeyChanges,
  type KeyUsage,
  type Organization,
  type PasswordResetRecord,
  type Role,
  type Service,
  type SessionRecord,
  type Tier,
  type UsageIncrement,
  type User,
  type UserWithPassword,
} from '../types.js';
import { announceChange } from '../../../core/change-channel.js';
import { SqliteDirectory } from './directory.js';
import { listColumn, toInvitation, toKey, toOrg, toUser, type InvitationRow, type KeyRow, type OrgRow, type UserRow } from './rows.js';
import * as members from './members.js';
import { migrate } from './schema.js';
import { SqliteSignIns } from './sign-ins.js';
import { SqliteSignUps } from './sign-ups.js';

const withoutPassword = ({ passwordHash: _, ...user }: UserWithPassword): User => user;

function lastDayOfMonth(month: string): string {
  const { end } = monthBounds(Date.parse(`${month}-01T00:00:00Z`));
  return new Date(end - 86_400_000).toISOString().slice(0, 10);
}

/** How often the serving store also checks for writes nobody announced (e.g. a sqlite3 shell). */
const FALLBACK_SYNC_MS = 1000;

export class SqliteStore implements ControlStore {
  readonly directory: SqliteDirectory;
  readonly ledger: LocalLedger;
  readonly signIns: SqliteSignIns;
  readonly signUps: SqliteSignUps;
  private readonly db: Database.Database;
  private serving = false;
  private readonly now: () => number;

  constructor(
    private readonly file: string,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    // Organization names are unique in any letter case, also beyond ASCII (NOCASE folds ASCII only).
    this.db.function('casefold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
    // For the schema upgrade that gives each organization its name's skeleton.
    this.db.function('name_skeleton', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? nameSkeleton(text) : text));
    migrate(this.db);
    this.directory = new SqliteDirectory(this.db);
    this.signIns = new SqliteSignIns(this.db);
    this.signUps = new SqliteSignUps(this.db);
    const monthUsed = this.db.prepare<[string, string, string, string], { n: number | null }>(
      'SELECT SUM(count) AS n FROM usage_daily WHERE org_id = ? AND service = ? AND day BETWEEN ? AND ?',
    );
    this.ledger = new LocalLedger((orgId, service, month) => monthUsed.get(orgId, service, `${month}-01`, lastDayOfMonth(month))?.n ?? 0);
    this.ledger.preload(this.monthTotals(monthKey(this.now())));
  }

  private monthTotals(month: string): { orgId: string; service: Service; month: string; used: number }[] {
    const rows = this.db
      .prepare<[string, string], { org_id: string; service: Service; n: number }>(
        'SELECT org_id, service, SUM(count) AS n FROM usage_daily WHERE day BETWEEN ? AND ? GROUP BY org_id, service',
      )
      .all(`${month}-01`, lastDayOfMonth(month));
    return rows.map((r) => ({ orgId: r.org_id, service: r.service, month, used: r.n }));
  }

  serve(): () => void {
    const timer = setInterval(() => this.directory.sync(), FALLBACK_SYNC_MS);
    timer.unref();
    this.serving = true;
    return () => {
      clearInterval(timer);
      this.serving = false;
    };
  }

  /** After a key or organization write: update this directory, and tell the serving process. */
  private async announce(): Promise<void> {
    this.directory.sync();
    if (!this.serving) await announceChange(this.file, 'directory');
  }

  /** Stamps a key or organization write with the next revision, for the directories to pick up. */
  private nextRevision(): number {
    const row = this.db
      .prepare<[], { value: string }>("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision' RETURNING value")
      .get();
    this.directory.noteOwnWrite();
    return Number(row!.value);
  }

  /** Inserts a user into an organization; StoreConflict when the email is taken. Call in a transaction. */
  private insertUser(email: string, passwordHash: string, orgId: string, role: Role, now: string): User {
    if (this.db.prepare('SELECT 1 FROM users WHERE email = ?').get(email)) {
      throw new StoreConflict(`a user with the email ${email} already exists`);
    }
    const row: UserRow = { id: newId('usr'), email, password_hash: passwordHash, org_id: orgId, role, created_at: now };
    this.db
      .prepare(
        'INSERT INTO users (id, email, password_hash, org_id, role, created_at) VALUES (@id, @email, @password_hash, @org_id, @role, @created_at)',
      )
      .run(row);
    return withoutPassword(toUser(row));
  }

  private orgRow(id: string): OrgRow | undefined {
    return this.db.prepare<[string], OrgRow>('SELECT * FROM organizations WHERE id = ?').get(id);
  }

  /** The skeleton of a new organization's name; OrgNameLookAlike when an organization has it already. Call in its transaction. */
  private freeSkeleton(name: string): string {
    const skeleton = nameSkeleton(name);
    if (this.db.prepare('SELECT 1 FROM organizations WHERE skeleton = ?').get(skeleton)) throw new OrgNameLookAlike(name);
    return skeleton;
  }

  async createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }> {
    const created = this.db.transaction(() => {
      if (this.db.prepare('SELECT 1 FROM organizations WHERE casefold(name) = casefold(?)').get(input.orgName)) {
        throw new OrgNameTaken(input.orgName);
      }
      const skeleton = this.freeSkeleton(input.orgName);
      const now = new Date(this.now()).toISOString();
      const orgRow: OrgRow = {
        id: newId('org'),
        name: input.orgName,
        tier: 'free',
        custom_quotas: '{}',
        created_at: now,
        rev: this.nextRevision(),
      };
      this.db
        .prepare(
          'INSERT INTO organizations (id, name, tier, custom_quotas, created_at, rev, skeleton) VALUES (@id, @name, @tier, @custom_quotas, @created_at, @rev, @skeleton)',
        )
        .run({ ...orgRow, skeleton });
      return { user: this.insertUser(input.email, input.passwordHash, orgRow.id, 'owner', now), org: toOrg(orgRow) };
    })();
    await this.announce();
    return created;
  }

  async createUserInOrg(input: {
    email: string;
    passwordHash: string;
    orgId: string;
    role: Role;
  }): Promise<{ user: User; org: Organization }> {
    return this.db.transaction(() => {
      const orgRow = this.orgRow(input.orgId);
      if (!orgRow) throw new StoreConflict(`no organization ${input.orgId}`);
      const user = this.insertUser(input.email, input.passwordHash, orgRow.id, input.role, new Date(this.now()).toISOString());
      return { user, org: toOrg(orgRow) };
    })();
  }

  async setRole(orgId: string, userId: string, role: Role): Promise<User | null> {
    return this.db.transaction(() => {
      const current = this.db.prepare<[string, string], UserRow>('SELECT * FROM users WHERE id = ? AND org_id = ?').get(userId, orgId);
      if (!current) return null;
      if (current.role === 'owner' && role !== 'owner') {
        const owners = this.db
          .prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE org_id = ? AND role = 'owner'")
          .get(orgId)!.n;
        if (owners <= 1) throw new LastOwner();
      }
      const row = this.db.prepare<[string, string], UserRow>('UPDATE users SET role = ? WHERE id = ? RETURNING *').get(role, userId)!;
      members.revokeInvitationsBeyond(this.db, userId, role, new Date(this.now()).toISOString());
      return withoutPassword(toUser(row));
    })();
  }

  async removeUser(request: RemovalRequest): Promise<Removal | null> {
    const removal = this.db.transaction(() => members.removeUser(this.db, request, () => this.nextRevision()))();
    if (removal && removal.revokedKeys.length > 0) await this.announce();
    return removal;
  }

  async setPassword(userId: string, passwordHash: string, keepSession: string | null): Promise<boolean> {
    return this.db.transaction(() => members.setPassword(this.db, userId, passwordHash, keepSession))();
  }

  async insertPasswordReset(reset: PasswordResetRecord): Promise<boolean> {
    return members.insertPasswordReset(this.db, reset);
  }

  async usePasswordReset(input: { hash: string; nowIso: string; passwordHash: string }): Promise<User | null> {
    return this.db.transaction(() => members.usePasswordReset(this.db, input))();
  }

  async listUsers(orgId: string): Promise<User[]> {
    return this.db
      .prepare<[string], UserRow>('SELECT * FROM users WHERE org_id = ? ORDER BY created_at, rowid')
      .all(orgId)
      .map((row) => withoutPassword(toUser(row)));
  }

  async findUserByEmail(email: string): Promise<UserWithPassword | null> {
    const row = this.db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?').get(email);
    return row ? toUser(row) : null;
  }

  async getUser(id: string): Promise<User | null> {
    const row = this.db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?').get(id);
    return row ? withoutPassword(toUser(row)) : null;
  }

  async getOrg(id: string): Promise<Organization | null> {
    const row = this.orgRow(id);
    return row ? toOrg(row) : null;
  }

  async findOrgByName(name: string): Promise<Organization | null> {
    // An exact match first: files from before names were unique in any case may hold two.
    const row = this.db
      .prepare<[string, string], OrgRow>(
        'SELECT * FROM organizations WHERE casefold(name) = casefold(?) ORDER BY name = ? DESC, created_at LIMIT 1',
      )
      .get(name, name);
    return row ? toOrg(row) : null;
  }

  async setTier(orgId: string, tier: Tier, customQuotas?: Partial<Record<Service, number>>): Promise<Organization> {
    const org = this.db.transaction(() => {
      const rev = this.nextRevision();
      const row = this.db
        .prepare<[string, string | null, number, string], OrgRow>(
          'UPDATE organizations SET tier = ?, custom_quotas = COALESCE(?, custom_quotas), rev = ? WHERE id = ? RETURNING *',
        )
        .get(tier, customQuotas ? JSON.stringify(customQuotas) : null, rev, orgId);
      if (!row) throw new StoreConflict(`no organization ${orgId}`);
      return toOrg(row);
    })();
    await this.announce();
    return org;
  }

  async createSession(session: SessionRecord): Promise<void> {
    this.db
      .prepare('INSERT INTO sessions (hash, user_id, expires_at) VALUES (?, ?, ?)')
      .run(session.hash, session.userId, session.expiresAt);
  }

  async findSession(hash: string, nowIso: string): Promise<SessionRecord | null> {
    const row = this.db
      .prepare<[string, string], { hash: string; user_id: string; expires_at: string }>(
        'SELECT * FROM sessions WHERE hash = ? AND expires_at > ?',
      )
      .get(hash, nowIso);
    return row ? { hash: row.hash, userId: row.user_id, expiresAt: row.expires_at } : null;
  }

  async deleteSession(hash: string): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE hash = ?').run(hash);
  }

  /** Refuses a new key of an organization at its tier's active-key limit. Call in the key's (immediate) transaction. */
  private checkKeyRoom(orgId: string): void {
    const org = this.db.prepare<[string], { tier: Tier }>('SELECT tier FROM organizations WHERE id = ?').get(orgId);
    if (!org) throw new StoreConflict(`no organization ${orgId}`);
    const { n } = this.db
      .prepare<[string, string], { n: number }>(
        "SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND status = 'active' AND (expires_at IS NULL OR expires_at > ?)",
      )
      .get(orgId, new Date(this.now()).toISOString())!;
    if (n >= TIER_ACTIVE_KEYS[org.tier]) throw new KeyLimitReached(org.tier);
  }

  async insertKey(key: ApiKeyRecord): Promise<void> {
    // Immediate: the count and the insert hold the file's write lock, so no other process inserts between them.
    this.db
      .transaction(() => {
        this.checkKeyRoom(key.orgId);
        this.db
          .prepare(
            `INSERT INTO api_keys (id, org_id, name, hint, hash, scopes, status, created_by, allowed_origins, allowed_ips, expires_at,
             previous_hash, previous_hash_expires_at, created_at, last_used_at, revoked_at, rev)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            key.id,
            key.orgId,
            key.name,
            key.hint,
            key.hash,
            listColumn(key.scopes),
            key.status,
            key.createdBy,
            listColumn(key.allowedOrigins),
            listColumn(key.allowedIps),
            key.expiresAt,
            key.previousHash,
            key.previousHashExpiresAt,
            key.createdAt,
            key.lastUsedAt,
            key.revokedAt,
            this.nextRevision(),
          );
      })
      .immediate();
    await this.announce();
  }

  async listKeys(orgId: string): Promise<ApiKeyRecord[]> {
    const pendingUse = this.ledger.pending().keyUse;
    return this.db
      .prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at, rowid')
      .all(orgId)
      .map((row) => {
        const key = toKey(row);
        const pending = pendingUse.get(key.id);
        return pending === undefined ? key : { ...key, lastUsedAt: new Date(pending).toISOString() };
      });
  }

  async revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null> {
    const revoked = this.db.transaction(() => {
      const row = this.db
        .prepare<[string, number, string, string], KeyRow>(
          "UPDATE api_keys SET status = 'revoked', revoked_at = ?, rev = ? WHERE id = ? AND org_id = ? AND status = 'active' RETURNING *",
        )
        .get(atIso, this.nextRevision(), keyId, orgId);
      return row ? toKey(row) : null;
    })();
    if (revoked) await this.announce();
    return revoked;
  }

  /** Updates an active key of the organization in one statement; the updated key, or null. */
  private async writeActiveKey(orgId: string, keyId: string, assignments: string, values: (string | null)[]): Promise<ApiKeyRecord | null> {
    const written = this.db.transaction(() => {
      const row = this.db
        .prepare<(string | number | null)[], KeyRow>(
          `UPDATE api_keys SET ${assignments}, rev = ? WHERE id = ? AND org_id = ? AND status = 'active' RETURNING *`,
        )
        .get(...values, this.nextRevision(), keyId, orgId);
      return row ? toKey(row) : null;
    })();
    if (written) await this.announce();
    return written;
  }

  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null> {
    const columns: [string, string | null][] = [];
    if (changes.name !== undefined) columns.push(['name', changes.name]);
    if (changes.scopes !== undefined) columns.push(['scopes', listColumn(changes.scopes)]);
    if (changes.allowedOrigins !== undefined) columns.push(['allowed_origins', listColumn(changes.allowedOrigins)]);
    if (changes.allowedIps !== undefined) columns.push(['allowed_ips', listColumn(changes.allowedIps)]);
    if (changes.expiresAt !== undefined) columns.push(['expires_at', changes.expiresAt]);
    // Nothing to change still answers whether the key exists.
    const assignments = columns.length === 0 ? 'name = name' : columns.map(([column]) => `${column} = ?`).join(', ');
    return this.writeActiveKey(
      orgId,
      keyId,
      assignments,
      columns.map(([, value]) => value),
    );
  }

  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(
      orgId,
      keyId,
      'previous_hash = CASE WHEN ? IS NULL THEN NULL ELSE hash END, previous_hash_expires_at = ?, hash = ?, hint = ?',
      [roll.previousHashExpiresAt, roll.previousHashExpiresAt, roll.hash, roll.hint],
    );
  }

  async insertInvitation(invitation: InvitationRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO invitations (id, org_id, hash, hint, role, created_by, created_at, expires_at, accepted_by, accepted_at, revoked_at)
         VALUES (@id, @orgId, @hash, @hint, @role, @createdBy, @createdAt, @expiresAt, @acceptedBy, @acceptedAt, @revokedAt)`,
      )
      .run(invitation);
  }

  async listInvitations(orgId: string): Promise<InvitationRecord[]> {
    return this.db
      .prepare<[string], InvitationRow>('SELECT * FROM invitations WHERE org_id = ? ORDER BY created_at DESC, rowid DESC')
      .all(orgId)
      .map(toInvitation);
  }

  async findInvitation(hash: string): Promise<InvitationRecord | null> {
    const row = this.db.prepare<[string], InvitationRow>('SELECT * FROM invitations WHERE hash = ?').get(hash);
    return row ? toInvitation(row) : null;
  }

  async revokeInvitation(orgId: string, invitationId: string, atIso: string): Promise<InvitationRecord | null> {
    const row = this.db
      .prepare<[string, string, string, string], InvitationRow>(
        `UPDATE invitations SET revoked_at = ?
         WHERE id = ? AND org_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? RETURNING *`,
      )
      .get(atIso, invitationId, orgId, atIso);
    return row ? toInvitation(row) : null;
  }

  async acceptInvitation(input: {
    hash: string;
    nowIso: string;
    email: string;
    passwordHash: string;
  }): Promise<{ user: User; org: Organization } | null> {
    return this.db.transaction(() => {
      const invitation = this.db
        .prepare<[string, string], InvitationRow>(
          'SELECT * FROM invitations WHERE hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?',
        )
        .get(input.hash, input.nowIso);
      const orgRow = invitation && members.inviterMayStillInvite(this.db, invitation) && this.orgRow(invitation.org_id);
      if (!invitation || !orgRow) return null;
      const user = this.insertUser(input.email, input.passwordHash, orgRow.id, invitation.role as Role, input.nowIso);
      this.db.prepare('UPDATE invitations SET accepted_by = ?, accepted_at = ? WHERE id = ?').run(user.id, input.nowIso, invitation.id);
      return { user, org: toOrg(orgRow) };
    })();
  }

  /** Recorded usage between two days, plus what is buffered and not yet written. */
  private usageRows(orgId: string, fromDay: string, toDay: string): UsageIncrement[] {
    const rows = this.db
      .prepare<[string, string, string], { key_id: string; service: Service; day: string; count: number }>(
        'SELECT key_id, service, day, count FROM usage_daily WHERE org_id = ? AND day BETWEEN ? AND ?',
      )
      .all(orgId, fromDay, toDay)
      .map((r) => ({ orgId, keyId: r.key_id || null, service: r.service, day: r.day, count: r.count }));
    for (const u of this.ledger.pending().usage) {
      if (u.orgId === orgId && u.day >= fromDay && u.day <= toDay) rows.push(u);
    }
    return rows;
  }

  async usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]> {
    const byKey = new Map<string, Record<Service, number>>();
    for (const u of this.usageRows(orgId, fromDay, toDay)) {
      if (!u.keyId) continue;
      let used = byKey.get(u.keyId);
      if (!used) byKey.set(u.keyId, (used = { maps: 0, geocoding: 0, routing: 0 }));
      used[u.service] += u.count;
    }
    return [...byKey].map(([keyId, used]) => ({ keyId, used }));
  }

  async usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const byDay = new Map<string, DailyUsage>();
    for (const u of this.usageRows(orgId, fromDay, toDay)) {
      const id = `${u.day}|${u.service}`;
      const entry = byDay.get(id);
      if (entry) entry.count += u.count;
      else byDay.set(id, { day: u.day, service: u.service, count: u.count });
    }
    return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day) || SERVICES.indexOf(a.service) - SERVICES.indexOf(b.service));
  }

  /** Adds recorded usage directly (imports of history, test fixtures); the ledger is not told. */
  recordUsage(increments: readonly UsageIncrement[]): void {
    const upsert = this.db.prepare(
      `INSERT INTO usage_daily (org_id, service, day, key_id, count) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_id, service, day, key_id) DO UPDATE SET count = count + excluded.count`,
    );
    this.db.transaction(() => {
      for (const u of increments) upsert.run(u.orgId, u.service, u.day, u.keyId ?? '', u.count);
    })();
  }

  async flush(): Promise<void> {
    const { usage, keyUse } = this.ledger.drain();
    if (usage.length === 0 && keyUse.size === 0) return;
    const touch = this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    try {
      this.db.transaction(() => {
        this.recordUsage(usage);
        for (const [keyId, at] of keyUse) touch.run(new Date(at).toISOString(), keyId);
      })();
    } catch (error) {
      this.ledger.restore(usage, keyUse);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.db.close();
  }
}
