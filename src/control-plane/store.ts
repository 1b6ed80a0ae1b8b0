/**
 * The one interface the control plane is stored behind. The embedded default is SQLite
 * (`./sqlite/`); a Redis implementation for scale-out slots in beside it.
 *
 * Account, key and usage operations are async so that a networked store fits. The two parts the
 * gateway calls on every request are synchronous and in memory: the `directory` (key and
 * organization look-ups, kept coherent with the store) and the `ledger` (quota reservation).
 */
import type { AnalyticsCounter, AnalyticsRow } from './analytics.js';
import type { ShortWindowLimiter } from './short-window.js';
import type { SignInLimiter } from './sign-ins.js';
import type { SignUpLimiter } from './sign-ups.js';
import { TIER_ACTIVE_KEYS, TIER_LABELS } from './tiers.js';
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
  User,
  UserWithPassword,
} from './types.js';

export class StoreConflict extends Error {}

/** The store cannot be reached (a networked store's server is down): the request gets a 503. */
export class StoreUnavailable extends Error {}

/** Sign-up named an organization that exists: joining one takes an invitation. */
export class OrgNameTaken extends StoreConflict {
  constructor(readonly orgName: string) {
    super(`an organization named ${JSON.stringify(orgName)} already exists`);
  }
}

/** Sign-up named an organization that looks like an existing one's name (the same UTS #39 skeleton, name-skeleton.ts). */
export class OrgNameLookAlike extends OrgNameTaken {
  constructor(orgName: string) {
    super(orgName);
    this.message = `an organization whose name looks like ${JSON.stringify(orgName)} already exists`;
  }
}

/** A role change would leave the organization without an owner. */
export class LastOwner extends StoreConflict {
  constructor() {
    super('an organization keeps at least one owner: make another member an owner first');
  }
}

/** A new key would take the organization past its tier's active-key limit (tiers.ts). */
export class KeyLimitReached extends StoreConflict {
  constructor(tier: Tier) {
    const limit = TIER_ACTIVE_KEYS[tier];
    super(
      `your organization has ${limit} active API keys, the most the ${TIER_LABELS[tier]} plan allows; ` +
        `revoke a key it no longer uses${tier === 'free' ? ', or upgrade to Pro at the billing page' : ''}`,
    );
  }
}

/** What removing a member asks: who, which roles the remover may remove, and whether their keys go too. */
export interface RemovalRequest {
  orgId: string;
  userId: string;
  /** The member is removed only while its role is one of these (checked atomically with the removal). */
  removableRoles: readonly Role[];
  /** Also revoke the active keys the member created in the dashboard. */
  revokeKeys: boolean;
  nowIso: string;
}

/** What a removal did. */
export interface Removal {
  user: User;
  /** The keys revoked with the member (none unless asked). */
  revokedKeys: ApiKeyRecord[];
}

/** A rolled key's new value (only its hash and hint are stored) and until when the old one works. */
export interface KeyRoll {
  hash: string;
  hint: string;
  /** Null: the old value stops at once. */
  previousHashExpiresAt: string | null;
}

export interface ControlStore {
  readonly directory: Directory;
  readonly ledger: QuotaLedger;
  /** The short-window rate limits' buckets (short-window.ts), exact across every node on the store. */
  readonly shortWindow: ShortWindowLimiter;
  /** The sign-in throttle's counters, shared by every process or node on the store. */
  readonly signIns: SignInLimiter;
  /** The sign-up throttle's counters, shared likewise. */
  readonly signUps: SignUpLimiter;

  /**
   * Creates a user, the owner, and a new organization (Free tier). StoreConflict when the email is
   * taken, OrgNameTaken when an organization of that name exists, in any letter case, and
   * OrgNameLookAlike when one's name has the same skeleton (name-skeleton.ts).
   */
  createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }>;
  /** Creates a user in an existing organization; StoreConflict when the email is taken. */
  createUserInOrg(input: { email: string; passwordHash: string; orgId: string; role: Role }): Promise<{ user: User; org: Organization }>;
  findUserByEmail(email: string): Promise<UserWithPassword | null>;
  getUser(id: string): Promise<User | null>;
  /** The members of an organization, oldest first. */
  listUsers(orgId: string): Promise<User[]>;
  /**
   * Sets a member's role; null when there is no such member; LastOwner when no owner would remain.
   * Revokes, with it, the member's pending invitations for roles the new one may not grant.
   */
  setRole(orgId: string, userId: string, role: Role): Promise<User | null>;

  /**
   * Removes a member from its organization in one step: the user record (its email is free again),
   * all its sessions (on every node: sessions are looked up in the store on each request), its
   * password-reset link, its pending invitations (revoked) and, when asked, its keys (revoked).
   * Null when there is no such member with a removable role; LastOwner when it is the last owner.
   */
  removeUser(request: RemovalRequest): Promise<Removal | null>;
  /**
   * Sets a user's password hash and ends every session of the user but `keepSession` (a session
   * hash, or null for all), and cancels its password-reset link. False when there is no such user.
   */
  setPassword(userId: string, passwordHash: string, keepSession: string | null): Promise<boolean>;
  /** Stores a password-reset link, replacing the user's earlier one; false when there is no such user. */
  insertPasswordReset(reset: PasswordResetRecord): Promise<boolean>;
  /**
   * Uses a password-reset link up: sets the password, deletes the link and ends all the user's
   * sessions, in one step. Null when the link is unknown, used, replaced or expired.
   */
  usePasswordReset(input: { hash: string; nowIso: string; passwordHash: string }): Promise<User | null>;

  getOrg(id: string): Promise<Organization | null>;
  /** The organization of that name, in any letter case. */
  findOrgByName(name: string): Promise<Organization | null>;
  /** Sets the tier; `customQuotas` and `customPerMinute` replace the custom limits when given. */
  setTier(
    orgId: string,
    tier: Tier,
    customQuotas?: Partial<Record<Service, number>>,
    customPerMinute?: PerMinuteLimits,
  ): Promise<Organization>;

  createSession(session: SessionRecord): Promise<void>;
  findSession(hash: string, nowIso: string): Promise<SessionRecord | null>;
  deleteSession(hash: string): Promise<void>;

  /**
   * Adds a key unless its organization already has its tier's number of active keys
   * (TIER_ACTIVE_KEYS; revoked and expired keys do not count), checked and written atomically:
   * KeyLimitReached then, and StoreConflict when there is no such organization.
   */
  insertKey(key: ApiKeyRecord): Promise<void>;
  listKeys(orgId: string): Promise<ApiKeyRecord[]>;
  /** Revokes an active key of the organization; null when there is no such key. */
  revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null>;
  /** Edits an active key of the organization; null when there is no such key. */
  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null>;
  /** Gives an active key of the organization a new value; null when there is no such key. */
  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null>;

  insertInvitation(invitation: InvitationRecord): Promise<void>;
  /** The organization's invitations, newest first. */
  listInvitations(orgId: string): Promise<InvitationRecord[]>;
  findInvitation(hash: string): Promise<InvitationRecord | null>;
  /** Revokes a pending invitation of the organization; null when there is no such invitation. */
  revokeInvitation(orgId: string, invitationId: string, atIso: string): Promise<InvitationRecord | null>;
  /**
   * Creates a user in the organization of a pending, unexpired invitation and marks it accepted,
   * in one transaction, so that an invitation admits one user at most. Null when the invitation
   * cannot be used, also when its maker is no longer a member whose role may make it (`mayInvite`);
   * StoreConflict when the email is taken.
   */
  acceptInvitation(input: InvitationAcceptance): Promise<{ user: User; org: Organization } | null>;

  /** The usage analytics' counts not yet written (analytics.ts); the gateway counts every metered request here. */
  readonly analytics: AnalyticsCounter;
  /** The organization's analytics counts between two UTC days inclusive, pending ones included. */
  analyticsRows(orgId: string, fromDay: string, toDay: string): Promise<AnalyticsRow[]>;

  /** Adds an entry to its organization's audit log (audit.ts). */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** The organization's latest audit entries, newest first. */
  listAudit(orgId: string, limit: number): Promise<AuditEntry[]>;

  /** Usage of an organization between two UTC days inclusive (`YYYY-MM-DD`). */
  usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]>;
  usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;

  /** Writes pending usage and last-used times; called on a timer and at shutdown. */
  flush(): Promise<void>;
  /**
   * Makes this store the serving one: other processes announce their writes to it (through the
   * server's change channel, which calls `directory.sync()`) and it checks on a slow timer for
   * writes nobody announced. Returns a function that stops that.
   */
  serve(): () => void;
  close(): Promise<void>;
}

/**
 * In-memory view of keys and organizations, read synchronously on the request path. The store
 * keeps it current, including with changes other processes or nodes commit (a CLI revocation, a
 * tier change made through another node).
 */
export interface Directory {
  /** Applies changes committed elsewhere; cheap when there are none. Never called per request. */
  sync(): void;
  /**
   * Why keys cannot be served right now, or null when they can: a networked store whose
   * connection is down, or that has not yet reloaded what it may have missed while it was.
   */
  unavailable(): string | null;
  keyByHash(hash: string): ApiKeyRecord | undefined;
  org(id: string): Organization | undefined;
  /**
   * A networked store's look-up of a key this directory has not received yet (made through another
   * node a moment ago); found, it is added to the directory with its organization. Absent where
   * the directory cannot lag behind the store.
   */
  findMissingKey?(hash: string): Promise<ApiKeyRecord | undefined>;
  /** A networked store's fresh read of a key (by id) a reservation found stale; undefined when gone. */
  refreshKey?(keyId: string): Promise<ApiKeyRecord | undefined>;
}

/** What the gateway asks the ledger for: `units` of `service` this month for a key of an organization. */
export interface ReserveRequest {
  org: Organization;
  key: ApiKeyRecord;
  service: Service;
  /** `YYYY-MM`, the quota period. */
  month: string;
  /** `YYYY-MM-DD`, the usage-reporting bucket. */
  day: string;
  /** The limit the caller's directory knows (null: unlimited); a networked store uses its own current one. */
  limit: number | null;
  units: number;
}

/**
 * Outcome of a reservation: `used` counts the units already spent (or reserved) this month, this
 * one excluded; `limit` is the limit it was checked against (the store's current one); `revoked`
 * is set when the store found the key revoked, ahead of this node's directory.
 */
/** An invitation taken up: its link's hash, when, and the account it signs up or in. */
export interface InvitationAcceptance {
  hash: string;
  nowIso: string;
  email: string;
  passwordHash: string;
}

export interface Reservation {
  granted: boolean;
  used: number;
  limit: number | null;
  revoked?: boolean;
  /**
   * Set by a networked store whose record of the key is newer than the caller's directory (an
   * edit or roll made through another node a moment ago): the caller refreshes the key
   * (`Directory.refreshKey`) and checks its restrictions again before serving.
   */
  stale?: boolean;
}

/**
 * Per-organization, per-service, per-month counters with exact enforcement: units are reserved
 * before a request runs and either committed (the response succeeded) or released.
 */
export interface QuotaLedger {
  /**
   * Reserves the units if they fit under the limit. The embedded store answers at once; a
   * networked one with a promise (rejected with StoreUnavailable when its server is down).
   */
  reserve(request: ReserveRequest): Reservation | Promise<Reservation>;
  /** Turns a granted reservation into usage, recorded against the key and day for reporting. */
  commit(reservation: Reservation): void;
  /** Gives a granted reservation's units back. */
  release(reservation: Reservation): void;
  /** Units used (committed) this month. */
  used(orgId: string, service: Service, month: string): number | Promise<number>;
  /** Records that a key was used at `atMs`, written with the next flush. */
  touchKey(keyId: string, atMs: number): void;
}
