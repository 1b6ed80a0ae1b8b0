/** Users and organizations in the Redis store: sign-ups, look-ups, roles, plans and removing members. */
import { newId } from '../ids.js';
import { nameSkeleton } from '../name-skeleton.js';
import { mayInvite } from '../permissions.js';
import { LastOwner, OrgNameLookAlike, OrgNameTaken, StoreConflict, type Removal, type RemovalRequest } from '../store.js';
import { withoutPassword } from '../store-views.js';
import {
  ROLES,
  type ApiKeyRecord,
  type Organization,
  type PerMinuteLimits,
  type Role,
  type Service,
  type Tier,
  type User,
  type UserWithPassword,
} from '../types.js';
import { fromPairs, isPresent, orgFields, toKey, toOrg, toUser, userFields } from './records.js';
import { RedisStorePart } from './store-part.js';

/** Emails are unique in any letter case, as in SQLite (COLLATE NOCASE). */
export const emailField = (email: string) => email.toLowerCase();

export class RedisAccounts extends RedisStorePart {
  newUser(email: string, passwordHash: string, orgId: string, role: Role, createdAt: string): UserWithPassword {
    return { id: newId('usr'), email, orgId, role, createdAt, passwordHash };
  }

  emailTaken(email: string): StoreConflict {
    return new StoreConflict(`a user with the email ${email} already exists`);
  }

  createUserWithOrg(input: { email: string; passwordHash: string; orgName: string }): Promise<{ user: User; org: Organization }> {
    return this.guarded(async () => {
      const now = new Date(this.now()).toISOString();
      const org: Organization = {
        id: newId('org'),
        name: input.orgName,
        tier: 'free',
        customQuotas: {},
        customPerMinute: {},
        createdAt: now,
      };
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

  setTier(
    orgId: string,
    tier: Tier,
    customQuotas?: Partial<Record<Service, number>>,
    customPerMinute?: PerMinuteLimits,
  ): Promise<Organization> {
    return this.guarded(async () => {
      // Without new custom limits the record depends on the stored ones: retry if they change meanwhile.
      for (;;) {
        const current = await this.client.hgetall(this.names.org(orgId));
        if (!isPresent(current)) throw new StoreConflict(`no organization ${orgId}`);
        const org: Organization = {
          ...toOrg(current),
          tier,
          ...(customQuotas && { customQuotas }),
          ...(customPerMinute && { customPerMinute }),
        };
        const basedOn = customQuotas && customPerMinute ? '' : `${current.customQuotas}\n${current.customPerMinute ?? '{}'}`;
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
}
