/**
 * The control plane in Redis, for running several server nodes on one store. Records are hashes
 * (keys.ts names them); multi-record writes are Lua scripts (scripts.ts), atomic across nodes;
 * quota counters are exact (ledger.ts); every node keeps the directory of keys and organizations
 * in memory, kept current through a changes channel (directory.ts).
 */
import type { Redis } from 'ioredis';
import { setting } from '../../../core/config.js';
import type { RedisSettings } from '../../../core/redis.js';
import { newId } from '../ids.js';
import { nameSkeleton } from '../name-skeleton.js';
import { invitersOf, mayInvite } from '../permissions.js';
import {
  LastOwner,
  OrgNameLookAlike,
  OrgNameTaken,
  StoreConflict,
  type ControlStore,
  type KeyRoll,
  type Removal,
  type RemovalRequest,
} from '../store.js';
import {
  ROLES,
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
  type User,
  type UserWithPassword,
} from '../types.js';
import { commandConnection, storeError, subscriberConnection } from './connection.js';
import { announce, RedisDirectory, type Change } from './directory.js';
import { RedisKeyInserts } from './key-inserts.js';
import { controlKeys, type ControlKeys } from './keys.js';
import { RedisLedger } from './ledger.js';
import { RedisSignIns } from './sign-ins.js';
import { RedisSignUps } from './sign-ups.js';
import {
  fromPairs,
  invitationFields,
  isPresent,
  keyFields,
  orgFields,
  toInvitation,
  toKey,
  toOrg,
  toUser,
  userFields,
  type Hash,
} from './records.js';
import { defineScripts, type Scripts } from './scripts.js';
import { indexOrgSkeletons } from './org-skeletons.js';
import { indexSessions, upgradeRoles } from './upgrade.js';
import { daysBetween, summarizeDays } from './usage.js';

const withoutPassword = ({ passwordHash: _, ...user }: UserWithPassword): User => user;

/** A key record of no consequence, to convert the fields of a partial change with `keyFields`. */
const BLANK_KEY: ApiKeyRecord = toKey({ id: '', orgId: '', name: '', hint: '', hash: '', scopes: '', status: 'active', createdAt: '' });

/** The `version` field of a new key's hash; each later write of the key counts up from it. */
const FIRST_VERSION = '1';

/** Emails are unique in any letter case, as in SQLite (COLLATE NOCASE). */
const emailField = (email: string) => email.toLowerCase();

export class RedisStore implements ControlStore {
  readonly directory: RedisDirectory;
  readonly ledger: RedisLedger;
  readonly signIns: RedisSignIns;
  readonly signUps: RedisSignUps;
  private readonly keyInserts: RedisKeyInserts;
  private readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly names: ControlKeys;
  private readonly scripts: Scripts;
  private readonly now: () => number;

  constructor(
    private readonly settings: RedisSettings,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.names = controlKeys(settings.prefix);
    this.client = commandConnection(settings);
    this.subscriber = subscriberConnection(settings);
    this.scripts = defineScripts(this.client);
    this.directory = new RedisDirectory(this.client, this.names);
    this.ledger = new RedisLedger(
      this.client,
      this.scripts,
      this.names,
      (error) => storeError(error, settings),
      (keyId) => this.directory.versionOf(keyId),
      setting('quotaLeaseTtlMs'),
    );
    this.signIns = new RedisSignIns(this.client, this.names, (error) => storeError(error, settings));
    this.signUps = new RedisSignUps(this.client, this.names, (error) => storeError(error, settings));
    this.keyInserts = new RedisKeyInserts(this.client, this.names);
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

  /** Runs Redis work, reporting connection failures as StoreUnavailable. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw error instanceof StoreConflict ? error : storeError(error, this.settings);
    }
  }

  /** Tells every node's directory to re-read a record this node wrote, and waits until they have. */
  private announce(change: Change): Promise<void> {
    return announce(this.client, this.names, change);
  }

  private newUser(email: string, passwordHash: string, orgId: string, role: Role, createdAt: string): UserWithPassword {
    return { id: newId('usr'), email, orgId, role, createdAt, passwordHash };
  }

  private emailTaken(email: string): StoreConflict {
    return new StoreConflict(`a user with the email ${email} already exists`);
  }

  createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }> {
    return this.guarded(async () => {
      const now = new Date(this.now()).toISOString();
      const org: Organization = { id: newId('org'), name: input.orgName, tier: 'free', customQuotas: {}, createdAt: now };
      const user = this.newUser(input.email, input.passwordHash, org.id, 'owner', now);
      const n = this.names;
      const outcome = await this.scripts.createUserWithOrg(
        [n.emails, n.orgNames, n.orgs, n.org(org.id), n.user(user.id), n.orgUsers(org.id), n.orgOwners(org.id), n.orgSkeletons],
        [
          emailField(user.email),
          org.name.toLowerCase(),
          org.id,
          user.id,
          JSON.stringify(orgFields(org)),
          JSON.stringify(userFields(user)),
          nameSkeleton(org.name),
        ],
      );
      if (outcome === 'org-name-taken') throw new OrgNameTaken(input.orgName);
      if (outcome === 'org-name-look-alike') throw new OrgNameLookAlike(input.orgName);
      if (outcome === 'email-taken') throw this.emailTaken(input.email);
      this.directory.putOrg(org);
      await this.announce(`org ${org.id}`);
      return { user: withoutPassword(user), org };
    });
  }

  createUserInOrg(input: { email: string; passwordHash: string; orgId: string; role: Role }): Promise<{ user: User; org: Organization }> {
    return this.guarded(async () => {
      const user = this.newUser(input.email, input.passwordHash, input.orgId, input.role, new Date(this.now()).toISOString());
      const n = this.names;
      const [outcome, orgPairs] = (await this.scripts.createUserInOrg(
        [n.emails, n.org(input.orgId), n.user(user.id), n.orgUsers(input.orgId), n.orgOwners(input.orgId)],
        [emailField(user.email), user.id, JSON.stringify(userFields(user))],
      )) as [string, string[]?];
      if (outcome === 'no-org') throw new StoreConflict(`no organization ${input.orgId}`);
      if (outcome === 'email-taken') throw this.emailTaken(input.email);
      return { user: withoutPassword(user), org: toOrg(fromPairs(orgPairs!)) };
    });
  }

  findUserByEmail(email: string): Promise<UserWithPassword | null> {
    return this.guarded(async () => {
      const id = await this.client.hget(this.names.emails, emailField(email));
      if (!id) return null;
      const hash = await this.client.hgetall(this.names.user(id));
      return isPresent(hash) ? toUser(hash) : null;
    });
  }

  getUser(id: string): Promise<User | null> {
    return this.guarded(async () => {
      const hash = await this.client.hgetall(this.names.user(id));
      return isPresent(hash) ? withoutPassword(toUser(hash)) : null;
    });
  }

  listUsers(orgId: string): Promise<User[]> {
    return this.guarded(async () => {
      const ids = await this.client.lrange(this.names.orgUsers(orgId), 0, -1);
      const hashes = await Promise.all(ids.map((id) => this.client.hgetall(this.names.user(id))));
      return hashes.filter(isPresent).map((h) => withoutPassword(toUser(h)));
    });
  }

  setRole(orgId: string, userId: string, role: Role): Promise<User | null> {
    return this.guarded(async () => {
      const n = this.names;
      const grantable = ROLES.filter((invited) => mayInvite(role, invited)).join(',');
      const outcome = (await this.scripts.setRole(
        [n.user(userId), n.orgOwners(orgId), n.orgInvitations(orgId)],
        [orgId, userId, role, grantable, new Date(this.now()).toISOString(), n.invitation('')],
      )) as string[] | string | null;
      if (outcome === 'last-owner') throw new LastOwner();
      return Array.isArray(outcome) ? withoutPassword(toUser(fromPairs(outcome))) : null;
    });
  }

  getOrg(id: string): Promise<Organization | null> {
    return this.guarded(async () => {
      const hash = await this.client.hgetall(this.names.org(id));
      return isPresent(hash) ? toOrg(hash) : null;
    });
  }

  findOrgByName(name: string): Promise<Organization | null> {
    return this.guarded(async () => {
      const id = await this.client.hget(this.names.orgNames, name.toLowerCase());
      return id ? this.getOrg(id) : null;
    });
  }

  setTier(orgId: string, tier: Tier, customQuotas?: Partial<Record<Service, number>>): Promise<Organization> {
    return this.guarded(async () => {
      // Without new custom quotas the limits depend on the stored ones: retry if they change meanwhile.
      for (;;) {
        const current = await this.client.hgetall(this.names.org(orgId));
        if (!isPresent(current)) throw new StoreConflict(`no organization ${orgId}`);
        const org: Organization = { ...toOrg(current), tier, ...(customQuotas && { customQuotas }) };
        const basedOn = customQuotas ? '' : current.customQuotas!;
        const outcome = await this.scripts.setTier([this.names.org(orgId)], [basedOn, JSON.stringify(orgFields(org))]);
        if (outcome === 'no-org') throw new StoreConflict(`no organization ${orgId}`);
        if (outcome === 'ok') {
          this.directory.putOrg(org);
          await this.announce(`org ${org.id}`);
          return org;
        }
      }
    });
  }

  createSession(session: SessionRecord): Promise<void> {
    return this.guarded(async () => {
      const key = this.names.session(session.hash);
      const userSessions = this.names.userSessions(session.userId);
      const expiresAt = Date.parse(session.expiresAt);
      // A new session outlives the user's earlier ones: the index expires with it.
      await this.client
        .multi()
        .hset(key, { ...session })
        .pexpireat(key, expiresAt)
        .sadd(userSessions, session.hash)
        .pexpireat(userSessions, expiresAt)
        .exec();
    });
  }

  findSession(hash: string, nowIso: string): Promise<SessionRecord | null> {
    return this.guarded(async () => {
      const h = await this.client.hgetall(this.names.session(hash));
      return isPresent(h) && h.expiresAt! > nowIso ? { hash: h.hash!, userId: h.userId!, expiresAt: h.expiresAt! } : null;
    });
  }

  deleteSession(hash: string): Promise<void> {
    return this.guarded(async () => {
      const userId = await this.client.hget(this.names.session(hash), 'userId');
      const tx = this.client.multi().del(this.names.session(hash));
      if (userId) tx.srem(this.names.userSessions(userId), hash);
      await tx.exec();
    });
  }

  removeUser(request: RemovalRequest): Promise<Removal | null> {
    return this.guarded(async () => {
      const n = this.names;
      const { orgId, userId } = request;
      const user = await this.getUser(userId);
      if (!user) return null;
      const outcome = (await this.scripts.removeUser(
        [
          n.user(userId),
          n.emails,
          n.orgUsers(orgId),
          n.orgOwners(orgId),
          n.orgInvitations(orgId),
          n.userSessions(userId),
          n.orgKeys(orgId),
        ],
        [
          orgId,
          userId,
          request.removableRoles.join(','),
          request.revokeKeys ? '1' : '0',
          request.nowIso,
          n.invitation(''),
          n.session(''),
          n.passwordReset(''),
          n.key(''),
          emailField(user.email),
        ],
      )) as [string, string[]] | string | null;
      if (outcome === 'last-owner') throw new LastOwner();
      if (!Array.isArray(outcome)) return null;
      const revokedKeys: ApiKeyRecord[] = [];
      for (const hash of outcome[1]) {
        const fields = await this.client.hgetall(n.key(hash));
        const key = toKey(fields);
        this.directory.putKey(key, fields.version!);
        await this.announce(`key ${hash}`);
        revokedKeys.push(key);
      }
      return { user, revokedKeys };
    });
  }

  setPassword(userId: string, passwordHash: string, keepSession: string | null): Promise<boolean> {
    return this.guarded(async () => {
      const n = this.names;
      const done = await this.scripts.setPassword(
        [n.user(userId), n.userSessions(userId)],
        [passwordHash, keepSession ?? '', n.session(''), n.passwordReset('')],
      );
      return done === 1;
    });
  }

  insertPasswordReset(reset: PasswordResetRecord): Promise<boolean> {
    return this.guarded(async () => {
      const n = this.names;
      const done = await this.scripts.insertPasswordReset(
        [n.user(reset.userId), n.passwordReset(reset.hash)],
        [
          n.passwordReset(''),
          reset.hash,
          reset.userId,
          reset.createdAt,
          reset.expiresAt,
          // Relative to this store's clock, as the link's expiry is.
          Math.max(1, Date.parse(reset.expiresAt) - this.now()),
        ],
      );
      return done === 1;
    });
  }

  usePasswordReset(input: { hash: string; nowIso: string; passwordHash: string }): Promise<User | null> {
    return this.guarded(async () => {
      const n = this.names;
      const userId = await this.client.hget(n.passwordReset(input.hash), 'userId');
      if (!userId) return null;
      const pairs = (await this.scripts.usePasswordReset(
        [n.passwordReset(input.hash), n.user(userId), n.userSessions(userId)],
        [input.nowIso, input.passwordHash, input.hash, n.session('')],
      )) as string[] | null;
      return pairs ? withoutPassword(toUser(fromPairs(pairs))) : null;
    });
  }

  insertKey(key: ApiKeyRecord): Promise<void> {
    return this.guarded(async () => {
      await this.keyInserts.insert(key, FIRST_VERSION, new Date(this.now()).toISOString());
      this.directory.putKey(key, FIRST_VERSION);
      await this.announce(`key ${key.hash}`);
    });
  }

  listKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return this.guarded(async () => {
      const hashes = await this.client.lrange(this.names.orgKeys(orgId), 0, -1);
      const records = await Promise.all(hashes.map((hash) => this.client.hgetall(this.names.key(hash))));
      const pendingUse = this.ledger.pendingKeyUses();
      return records.filter(isPresent).map((h) => {
        const key = toKey(h);
        const pending = pendingUse.get(key.id);
        return pending === undefined ? key : { ...key, lastUsedAt: new Date(pending).toISOString() };
      });
    });
  }

  revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(keyId, (hash) => this.scripts.revokeKey([this.names.key(hash)], [orgId, keyId, atIso]));
  }

  /** Runs a key script on the active key `keyId` of the organization; the key it wrote, or null. */
  private writeActiveKey(keyId: string, write: (hash: string) => Promise<unknown>): Promise<ApiKeyRecord | null> {
    return this.guarded(async () => {
      const hash = await this.client.hget(this.names.keyIds, keyId);
      if (!hash) return null;
      const pairs = (await write(hash)) as string[] | null;
      if (!pairs) return null;
      const fields = fromPairs(pairs);
      const key = toKey(fields);
      this.directory.putKey(key, fields.version!);
      await this.announce(`key ${key.hash}`);
      return key;
    });
  }

  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(keyId, (hash) => {
      const fields = keyFields({ ...BLANK_KEY, ...changes });
      const set: Record<string, string> = {};
      const removed: string[] = [];
      for (const field of Object.keys(changes)) {
        if (fields[field] === undefined) removed.push(field);
        else set[field] = fields[field];
      }
      return this.scripts.updateKey([this.names.key(hash)], [orgId, keyId, JSON.stringify(set), JSON.stringify(removed)]);
    });
  }

  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null> {
    const n = this.names;
    return this.writeActiveKey(keyId, (hash) =>
      this.scripts.rollKey(
        [n.key(hash), n.key(roll.hash), n.keyIds, n.keys, n.orgKeys(orgId)],
        [orgId, keyId, hash, roll.hash, roll.hint, roll.previousHashExpiresAt ?? ''],
      ),
    );
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

  acceptInvitation(input: {
    hash: string;
    nowIso: string;
    email: string;
    passwordHash: string;
  }): Promise<{ user: User; org: Organization } | null> {
    return this.guarded(async () => {
      const [orgId, invitedRole, inviterId] = await this.client.hmget(this.names.invitation(input.hash), 'orgId', 'role', 'createdBy');
      if (!orgId || !inviterId) return null;
      const inviters = invitersOf((invitedRole ?? 'member') as Role).join(',');
      // The role is the invitation's, which the script reads as it accepts it.
      const user = this.newUser(input.email, input.passwordHash, orgId, 'member', input.nowIso);
      const n = this.names;
      const [outcome, orgPairs, role] = (await this.scripts.acceptInvitation(
        [n.invitation(input.hash), n.emails, n.org(orgId), n.user(user.id), n.orgUsers(orgId), n.orgOwners(orgId), n.user(inviterId)],
        [input.nowIso, orgId, emailField(user.email), user.id, JSON.stringify(userFields(user)), inviters],
      )) as [string, string[]?, Role?];
      if (outcome === 'unusable') return null;
      if (outcome === 'email-taken') throw this.emailTaken(input.email);
      return { user: withoutPassword({ ...user, role: role! }), org: toOrg(fromPairs(orgPairs!)) };
    });
  }

  /** The day-usage hashes of the range, oldest first; this node's served units are reported first (other nodes' lag by up to a second). */
  private usageDays(orgId: string, fromDay: string, toDay: string): Promise<{ day: string; usage: Hash }[]> {
    return this.guarded(async () => {
      await this.ledger.flush();
      return Promise.all(
        daysBetween(fromDay, toDay).map(async (day) => ({ day, usage: await this.client.hgetall(this.names.dayUsage(orgId, day)) })),
      );
    });
  }

  async usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]> {
    const byKey = new Map<string, Record<Service, number>>();
    for (const { keyId, service, count } of summarizeDays(await this.usageDays(orgId, fromDay, toDay))) {
      if (!keyId) continue;
      let used = byKey.get(keyId);
      if (!used) byKey.set(keyId, (used = { maps: 0, geocoding: 0, routing: 0 }));
      used[service] += count;
    }
    return [...byKey].map(([keyId, used]) => ({ keyId, used }));
  }

  async usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const byDay = new Map<string, DailyUsage>();
    for (const { day, service, count } of summarizeDays(await this.usageDays(orgId, fromDay, toDay))) {
      const id = `${day}|${service}`;
      const entry = byDay.get(id);
      if (entry) entry.count += count;
      else byDay.set(id, { day, service, count });
    }
    return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day) || SERVICES.indexOf(a.service) - SERVICES.indexOf(b.service));
  }

  flush(): Promise<void> {
    return this.ledger.flush();
  }

  /** Every node serves from `open()` on (subscribed and loaded); there is nothing more to start. */
  serve(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    try {
      await this.ledger.close();
    } finally {
      this.subscriber.disconnect();
      // QUIT lets commands in flight (a release) finish first.
      await this.client.quit().catch(() => this.client.disconnect());
    }
  }
}
