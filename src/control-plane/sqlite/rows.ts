/** Conversions between SQLite rows and control-plane records. */
import type {
  ApiKeyRecord,
  InvitationRecord,
  KeyStatus,
  Organization,
  PerMinuteLimits,
  Role,
  Service,
  Tier,
  UserWithPassword,
} from '../types.js';

/** A list column: its items joined by commas (none of them holds one); '' for none. */
export const listColumn = (items: readonly string[]): string => items.join(',');
const fromListColumn = (column: string): string[] => column.split(',').filter(Boolean);

export interface OrgRow {
  id: string;
  name: string;
  tier: string;
  custom_quotas: string;
  custom_per_minute: string;
  created_at: string;
  rev: number;
}

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  org_id: string;
  role: string;
  created_at: string;
}

export const toUser = (row: UserRow): UserWithPassword => ({
  id: row.id,
  email: row.email,
  orgId: row.org_id,
  role: row.role as Role,
  createdAt: row.created_at,
  passwordHash: row.password_hash,
});

export interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  hint: string;
  hash: string;
  scopes: string;
  status: string;
  created_by: string | null;
  allowed_origins: string;
  allowed_ips: string;
  expires_at: string | null;
  per_minute: string;
  previous_hash: string | null;
  previous_hash_expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  rev: number;
}

export function toOrg(row: OrgRow): Organization {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier as Tier,
    customQuotas: JSON.parse(row.custom_quotas) as Partial<Record<Service, number>>,
    customPerMinute: JSON.parse(row.custom_per_minute) as PerMinuteLimits,
    createdAt: row.created_at,
  };
}

export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    hint: row.hint,
    hash: row.hash,
    scopes: fromListColumn(row.scopes) as Service[],
    status: row.status as KeyStatus,
    createdBy: row.created_by,
    allowedOrigins: fromListColumn(row.allowed_origins),
    allowedIps: fromListColumn(row.allowed_ips),
    expiresAt: row.expires_at,
    perMinute: JSON.parse(row.per_minute) as PerMinuteLimits,
    previousHash: row.previous_hash,
    previousHashExpiresAt: row.previous_hash_expires_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export interface InvitationRow {
  id: string;
  org_id: string;
  hash: string;
  hint: string;
  role: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_at: string | null;
  revoked_at: string | null;
}

export function toInvitation(row: InvitationRow): InvitationRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    hash: row.hash,
    hint: row.hint,
    role: row.role as Role,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedBy: row.accepted_by,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
  };
}
