/**
 * The control plane in Redis, for running several server nodes on one store. Records are hashes
 * (keys.ts names them); multi-record writes are Lua scripts (scripts.ts), atomic across nodes;
 * quota counters are exact (ledger.ts); every node keeps the directory of keys and organizations
 * in memory, kept current through a changes channel (directory.ts). The store's operations live in
 * its parts beside it: accounts.ts (users, organizations), sessions.ts (sessions, passwords),
 * api-keys.ts, invitations.ts and usage.ts.
 */
import type { Redis } from 'ioredis';
import { setting } from '../../../core/config.js';
import type { RedisSettings } from '../../../core/redis-settings.js';
import type { ControlStore, InvitationAcceptance, KeyRoll, Removal, RemovalRequest } from '../store.js';
import type {
  ApiKeyRecord,
  AuditEntry,
  DailyUsage,
  InvitationRecord,
  KeyChanges,
  KeyUsage,
  Organization,
  PasswordResetRecord,
  Role,
  SessionRecord,
  User,
  UserWithPassword,
} from '../types.js';
import { RedisAccounts } from './accounts.js';
import { RedisApiKeys } from './api-keys.js';
import { commandConnection, storeError, subscriberConnection } from './connection.js';
import { RedisDirectory } from './directory.js';
import { RedisInvitations } from './invitations.js';
import { controlKeys, type ControlKeys } from './keys.js';
import { RedisLedger } from './ledger.js';
import { indexOrgSkeletons } from './org-skeletons.js';
import { defineScripts } from './scripts.js';
import { RedisSessions } from './sessions.js';
import { RedisSignIns } from './sign-ins.js';
import { AnalyticsCounter, type AnalyticsRow } from '../analytics.js';
import { RedisAnalytics } from './analytics.js';
import { RedisAuditLog } from './audit.js';
import { RedisShortWindow } from './short-window.js';
import { RedisSignUps } from './sign-ups.js';
import type { RedisContext } from './store-part.js';
import { indexSessions, upgradeRoles } from './upgrade.js';
import { RedisUsageReports } from './usage.js';

export class RedisStore implements ControlStore {
  readonly directory: RedisDirectory;
  readonly ledger: RedisLedger;
  readonly shortWindow: RedisShortWindow;
  readonly signIns: RedisSignIns;
  readonly signUps: RedisSignUps;
  private readonly accounts: RedisAccounts;
  private readonly sessions: RedisSessions;
  private readonly keys: RedisApiKeys;
  private readonly invitations: RedisInvitations;
  private readonly usage: RedisUsageReports;
  private readonly audit: RedisAuditLog;
  private readonly analyticsStore: RedisAnalytics;
  readonly analytics = new AnalyticsCounter();
  private readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly names: ControlKeys;

  constructor(settings: RedisSettings, options: { now?: () => number } = {}) {
    this.names = controlKeys(settings.prefix);
    this.client = commandConnection(settings);
    this.subscriber = subscriberConnection(settings);
    const scripts = defineScripts(this.client);
    this.directory = new RedisDirectory(this.client, this.names);
    this.ledger = new RedisLedger(
      this.client,
      scripts,
      this.names,
      (error) => storeError(error, settings),
      (keyId) => this.directory.versionOf(keyId),
      setting('quotaLeaseTtlMs'),
    );
    this.shortWindow = new RedisShortWindow(this.client, this.names, (error) => storeError(error, settings));
    this.signIns = new RedisSignIns(this.client, this.names, (error) => storeError(error, settings));
    this.signUps = new RedisSignUps(this.client, this.names, (error) => storeError(error, settings));
    const context: RedisContext = {
      settings,
      client: this.client,
      names: this.names,
      scripts,
      directory: this.directory,
      now: options.now ?? Date.now,
    };
    this.accounts = new RedisAccounts(context);
    this.sessions = new RedisSessions(context);
    this.keys = new RedisApiKeys(context, this.ledger);
    this.invitations = new RedisInvitations(context, this.accounts);
    this.usage = new RedisUsageReports(context, this.ledger);
    this.audit = new RedisAuditLog(context);
    this.analyticsStore = new RedisAnalytics(context);
  }

  /**
   * Connects, subscribes to changes and loads the directory; the server awaits it before listening.
   * `directory: false` skips the subscription and the load, for a command that only reads and
   * writes records (the CLI): its directory stays empty.
   */
  static async open(settings: RedisSettings, options: { now?: () => number; directory?: boolean } = {}): Promise<RedisStore> {
    const store = new RedisStore(settings, options);
    try {
      await store.client.connect();
      await upgradeRoles(store.client, store.names);
      await indexSessions(store.client, store.names);
      await indexOrgSkeletons(store.client, store.names);
      if (options.directory !== false) {
        await store.directory.listen(store.subscriber);
        await store.ledger.listen(store.subscriber);
      }
    } catch (error) {
      store.subscriber.disconnect();
      store.client.disconnect();
      throw storeError(error, settings);
    }
    return store;
  }

  /** The command connection, e.g. for `checkRedisDurability`. */
  get redis(): Redis {
    return this.client;
  }

  createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }> {
    return this.accounts.createUserWithOrg(input);
  }

  createUserInOrg(input: { email: string; passwordHash: string; orgId: string; role: Role }): Promise<{ user: User; org: Organization }> {
    return this.accounts.createUserInOrg(input);
  }

  findUserByEmail(email: string): Promise<UserWithPassword | null> {
    return this.accounts.findUserByEmail(email);
  }

  getUser(id: string): Promise<User | null> {
    return this.accounts.getUser(id);
  }

  listUsers(orgId: string): Promise<User[]> {
    return this.accounts.listUsers(orgId);
  }

  setRole(orgId: string, userId: string, role: Role): Promise<User | null> {
    return this.accounts.setRole(orgId, userId, role);
  }

  getOrg(id: string): Promise<Organization | null> {
    return this.accounts.getOrg(id);
  }

  findOrgByName(name: string): Promise<Organization | null> {
    return this.accounts.findOrgByName(name);
  }

  setTier(...change: Parameters<ControlStore['setTier']>): Promise<Organization> {
    return this.accounts.setTier(...change);
  }

  removeUser(request: RemovalRequest): Promise<Removal | null> {
    return this.accounts.removeUser(request);
  }

  createSession(session: SessionRecord): Promise<void> {
    return this.sessions.createSession(session);
  }

  findSession(hash: string, nowIso: string): Promise<SessionRecord | null> {
    return this.sessions.findSession(hash, nowIso);
  }

  deleteSession(hash: string): Promise<void> {
    return this.sessions.deleteSession(hash);
  }

  setPassword(userId: string, passwordHash: string, keepSession: string | null): Promise<boolean> {
    return this.sessions.setPassword(userId, passwordHash, keepSession);
  }

  insertPasswordReset(reset: PasswordResetRecord): Promise<boolean> {
    return this.sessions.insertPasswordReset(reset);
  }

  usePasswordReset(input: { hash: string; nowIso: string; passwordHash: string }): Promise<User | null> {
    return this.sessions.usePasswordReset(input);
  }

  insertKey(key: ApiKeyRecord): Promise<void> {
    return this.keys.insertKey(key);
  }

  listKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return this.keys.listKeys(orgId);
  }

  revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null> {
    return this.keys.revokeKey(orgId, keyId, atIso);
  }

  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null> {
    return this.keys.updateKey(orgId, keyId, changes);
  }

  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null> {
    return this.keys.rollKey(orgId, keyId, roll);
  }

  insertInvitation(invitation: InvitationRecord): Promise<void> {
    return this.invitations.insertInvitation(invitation);
  }

  listInvitations(orgId: string): Promise<InvitationRecord[]> {
    return this.invitations.listInvitations(orgId);
  }

  findInvitation(hash: string): Promise<InvitationRecord | null> {
    return this.invitations.findInvitation(hash);
  }

  revokeInvitation(orgId: string, invitationId: string, atIso: string): Promise<InvitationRecord | null> {
    return this.invitations.revokeInvitation(orgId, invitationId, atIso);
  }

  acceptInvitation(input: InvitationAcceptance): Promise<{ user: User; org: Organization } | null> {
    return this.invitations.acceptInvitation(input);
  }

  usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]> {
    return this.usage.usageByKey(orgId, fromDay, toDay);
  }

  usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    return this.usage.usageByDay(orgId, fromDay, toDay);
  }

  appendAudit(entry: AuditEntry): Promise<void> {
    return this.audit.append(entry);
  }

  listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    return this.audit.list(orgId, limit);
  }

  async flush(): Promise<void> {
    await Promise.all([this.ledger.flush(), this.analyticsStore.flush(this.analytics)]);
  }

  analyticsRows(orgId: string, fromDay: string, toDay: string): Promise<AnalyticsRow[]> {
    return this.analyticsStore.rows(orgId, fromDay, toDay, this.analytics);
  }

  /** Every node serves from `open()` on (subscribed and loaded); there is nothing more to start. */
  serve(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    try {
      await Promise.all([this.ledger.close(), this.shortWindow.close(), this.analyticsStore.flush(this.analytics)]);
    } finally {
      this.subscriber.disconnect();
      // QUIT lets commands in flight (a release) finish first.
      await this.client.quit().catch(() => this.client.disconnect());
    }
  }
}
