/** Conversions between control-plane records and the flat string hashes Redis stores them in. */
import { quotaOf } from '../tiers.js';
import {
  SERVICES,
  type ApiKeyRecord,
  type InvitationRecord,
  type KeyStatus,
  type Organization,
  type PerMinuteLimits,
  type Role,
  type Service,
  type Tier,
  type UserWithPassword,
} from '../types.js';

export type Hash = Record<string, string>;

/** The fields that are set; a null field is left out of the hash and read back as null. */
function withoutNulls(record: Record<string, string | null>): Hash {
  const hash: Hash = {};
  for (const [field, value] of Object.entries(record)) if (value !== null) hash[field] = value;
  return hash;
}

/** HGETALL answers {} for a missing key. */
export const isPresent = (hash: Hash): boolean => Object.keys(hash).length > 0;

/** A hash a Lua script returned as HGETALL's flat `[field, value, …]` list. */
export function fromPairs(pairs: string[]): Hash {
  const hash: Hash = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) hash[pairs[i]!] = pairs[i + 1]!;
  return hash;
}

/** Field of the organization's limit for a service, -1 meaning unlimited; read by the reserve script. */
const quotaField = (service: Service) => `quota:${service}`;

/** The organization with the limits in force precomputed, so that the reserve script reads them directly. */
export function orgFields(org: Organization): Hash {
  const hash: Hash = {
    id: org.id,
    name: org.name,
    tier: org.tier,
    customQuotas: JSON.stringify(org.customQuotas),
    customPerMinute: JSON.stringify(org.customPerMinute),
    createdAt: org.createdAt,
  };
  for (const service of SERVICES) hash[quotaField(service)] = String(quotaOf(org, service) ?? -1);
  return hash;
}

export const toOrg = (h: Hash): Organization => ({
  id: h.id!,
  name: h.name!,
  tier: h.tier as Tier,
  customQuotas: JSON.parse(h.customQuotas!) as Partial<Record<Service, number>>,
  // Absent on organizations stored before short-window limits.
  customPerMinute: JSON.parse(h.customPerMinute ?? '{}') as PerMinuteLimits,
  createdAt: h.createdAt!,
});

export const userFields = (user: UserWithPassword): Hash => ({ ...user });

export const toUser = (h: Hash): UserWithPassword => ({
  id: h.id!,
  email: h.email!,
  orgId: h.orgId!,
  // A user stored before roles, not yet upgraded (upgrade.ts), may do the least.
  role: (h.role ?? 'member') as Role,
  createdAt: h.createdAt!,
  passwordHash: h.passwordHash!,
});

const list = (field: string | undefined): string[] => (field ? field.split(',') : []);

export const keyFields = (key: ApiKeyRecord): Hash =>
  withoutNulls({
    ...key,
    scopes: key.scopes.join(','),
    allowedOrigins: key.allowedOrigins.join(','),
    allowedIps: key.allowedIps.join(','),
    perMinute: JSON.stringify(key.perMinute),
  });

export const toKey = (h: Hash): ApiKeyRecord => ({
  id: h.id!,
  orgId: h.orgId!,
  name: h.name!,
  hint: h.hint!,
  hash: h.hash!,
  scopes: list(h.scopes) as Service[],
  status: h.status as KeyStatus,
  createdBy: h.createdBy ?? null,
  allowedOrigins: list(h.allowedOrigins),
  allowedIps: list(h.allowedIps),
  expiresAt: h.expiresAt ?? null,
  // Absent on keys stored before short-window limits.
  perMinute: JSON.parse(h.perMinute ?? '{}') as PerMinuteLimits,
  previousHash: h.previousHash ?? null,
  previousHashExpiresAt: h.previousHashExpiresAt ?? null,
  createdAt: h.createdAt!,
  lastUsedAt: h.lastUsedAt ?? null,
  revokedAt: h.revokedAt ?? null,
});

export const invitationFields = (invitation: InvitationRecord): Hash => withoutNulls({ ...invitation });

export const toInvitation = (h: Hash): InvitationRecord => ({
  id: h.id!,
  orgId: h.orgId!,
  hash: h.hash!,
  hint: h.hint!,
  role: (h.role ?? 'member') as Role,
  createdBy: h.createdBy!,
  createdAt: h.createdAt!,
  expiresAt: h.expiresAt!,
  acceptedBy: h.acceptedBy ?? null,
  acceptedAt: h.acceptedAt ?? null,
  revokedAt: h.revokedAt ?? null,
});
