/** The embedded control-plane store: one SQLite file (WAL), shared safely with CLI processes. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { announceChange } from '../../../core/change-channel.js';
import type { LocalLedger } from '../local-ledger.js';
import * as audit from './audit.js';
import * as analytics from './analytics.js';
import { AnalyticsCounter, mergeRows, type AnalyticsRow } from '../analytics.js';
import { LocalShortWindow } from '../local-short-window.js';
import { nameSkeleton } from '../name-skeleton.js';
import type { ControlStore, InvitationAcceptance, KeyRoll, Removal, RemovalRequest } from '../store.js';
import { usageByDay, usageByKey } from '../store-views.js';
import type {
  ApiKeyRecord,
  AuditEntry,
  DailyUsage,
  InvitationRecord,
  KeyChanges,
  KeyUsage,
  Organization,
  PerMinuteLimits,
  PasswordResetRecord,
  Role,
  Service,
  SessionRecord,
  Tier,
  UsageIncrement,
  User,
  UserWithPassword,
} from '../types.js';
import * as accounts from './accounts.js';
import * as keys from './api-keys.js';
import { SqliteDirectory } from './directory.js';
import * as invitations from './invitations.js';
import * as members from './members.js';
import { migrate } from './schema.js';
import { SqliteSignIns } from './sign-ins.js';
import { SqliteSignUps } from './sign-ups.js';
import * as usage from './usage.js';

/** How often the serving store also checks for writes nobody announced (e.g. a sqlite3 shell). */
const FALLBACK_SYNC_MS = 1000;

/**
 * The store's operations live beside it, as functions over the database: accounts.ts (users,
 * organizations), members.ts (sessions, removing members, passwords), api-keys.ts, invitations.ts
 * and usage.ts; the store runs them in transactions and announces key and organization writes.
 */
export class SqliteStore implements ControlStore {
  readonly directory: SqliteDirectory;
  readonly ledger: LocalLedger;
  readonly shortWindow: LocalShortWindow;
  readonly analytics = new AnalyticsCounter();
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
    this.ledger = usage.newLedger(this.db, this.now());
    this.shortWindow = new LocalShortWindow(this.now);
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

  private nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  async createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }> {
    const created = this.db.transaction(() => accounts.createUserWithOrg(this.db, input, this.nowIso(), () => this.nextRevision()))();
    await this.announce();
    return created;
  }

  async createUserInOrg(input: {
    email: string;
    passwordHash: string;
    orgId: string;
    role: Role;
  }): Promise<{ user: User; org: Organization }> {
    return this.db.transaction(() => accounts.createUserInOrg(this.db, input, this.nowIso()))();
  }

  async setRole(orgId: string, userId: string, role: Role): Promise<User | null> {
    return this.db.transaction(() => accounts.setRole(this.db, orgId, userId, role, this.nowIso()))();
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
    return accounts.listUsers(this.db, orgId);
  }

  async findUserByEmail(email: string): Promise<UserWithPassword | null> {
    return accounts.findUserByEmail(this.db, email);
  }

  async getUser(id: string): Promise<User | null> {
    return accounts.getUser(this.db, id);
  }

  async getOrg(id: string): Promise<Organization | null> {
    return accounts.getOrg(this.db, id);
  }

  async findOrgByName(name: string): Promise<Organization | null> {
    return accounts.findOrgByName(this.db, name);
  }

  async setTier(
    orgId: string,
    tier: Tier,
    customQuotas?: Partial<Record<Service, number>>,
    customPerMinute?: PerMinuteLimits,
  ): Promise<Organization> {
    const custom = { quotas: customQuotas, perMinute: customPerMinute };
    const org = this.db.transaction(() => accounts.setTier(this.db, orgId, tier, custom, () => this.nextRevision()))();
    await this.announce();
    return org;
  }

  async createSession(session: SessionRecord): Promise<void> {
    members.createSession(this.db, session);
  }

  async findSession(hash: string, nowIso: string): Promise<SessionRecord | null> {
    return members.findSession(this.db, hash, nowIso);
  }

  async deleteSession(hash: string): Promise<void> {
    members.deleteSession(this.db, hash);
  }

  async insertKey(key: ApiKeyRecord): Promise<void> {
    // Immediate: the count and the insert hold the file's write lock, so no other process inserts between them.
    this.db.transaction(() => keys.insertKey(this.db, key, this.nowIso(), () => this.nextRevision())).immediate();
    await this.announce();
  }

  async listKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return keys.listKeys(this.db, orgId, this.ledger.pending().keyUse);
  }

  async revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null> {
    const revoked = this.db.transaction(() => keys.revokeKey(this.db, orgId, keyId, atIso, () => this.nextRevision()))();
    if (revoked) await this.announce();
    return revoked;
  }

  /** Updates an active key of the organization in one statement; the updated key, or null. */
  private async writeActiveKey(orgId: string, keyId: string, set: keys.KeyAssignments): Promise<ApiKeyRecord | null> {
    const written = this.db.transaction(() => keys.writeActiveKey(this.db, orgId, keyId, set, () => this.nextRevision()))();
    if (written) await this.announce();
    return written;
  }

  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(orgId, keyId, keys.changeAssignments(changes));
  }

  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(orgId, keyId, keys.rollAssignments(roll));
  }

  async insertInvitation(invitation: InvitationRecord): Promise<void> {
    invitations.insertInvitation(this.db, invitation);
  }

  async listInvitations(orgId: string): Promise<InvitationRecord[]> {
    return invitations.listInvitations(this.db, orgId);
  }

  async findInvitation(hash: string): Promise<InvitationRecord | null> {
    return invitations.findInvitation(this.db, hash);
  }

  async revokeInvitation(orgId: string, invitationId: string, atIso: string): Promise<InvitationRecord | null> {
    return invitations.revokeInvitation(this.db, orgId, invitationId, atIso);
  }

  async acceptInvitation(input: InvitationAcceptance): Promise<{ user: User; org: Organization } | null> {
    return this.db.transaction(() => invitations.acceptInvitation(this.db, input))();
  }

  async usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]> {
    return usageByKey(usage.usageRows(this.db, this.ledger, orgId, fromDay, toDay));
  }

  async usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    return usageByDay(usage.usageRows(this.db, this.ledger, orgId, fromDay, toDay));
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    audit.appendAudit(this.db, entry);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    return audit.listAudit(this.db, orgId, limit);
  }

  /** Adds recorded usage directly (imports of history, test fixtures); the ledger is not told. */
  recordUsage(increments: readonly UsageIncrement[]): void {
    usage.recordUsage(this.db, increments);
  }

  async flush(): Promise<void> {
    usage.flush(this.db, this.ledger);
    const counted = this.analytics.drain();
    try {
      analytics.addAnalytics(this.db, counted);
    } catch (error) {
      this.analytics.restore(counted);
      throw error;
    }
  }

  async analyticsRows(orgId: string, fromDay: string, toDay: string): Promise<AnalyticsRow[]> {
    return mergeRows([...analytics.analyticsRows(this.db, orgId, fromDay, toDay), ...this.analytics.pendingOf(orgId, fromDay, toDay)]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.db.close();
  }
}
