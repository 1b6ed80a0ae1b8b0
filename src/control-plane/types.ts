/** Domain records of the control plane: organizations, users, sessions, API keys and usage. */

export const SERVICES = ['maps', 'geocoding', 'routing'] as const;
export type Service = (typeof SERVICES)[number];

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** Per-service monthly limits; `null` means unlimited. */
export type Quotas = Record<Service, number | null>;

/** Requests per minute by service (short-window.ts); a service left out has no limit of its own. */
export type PerMinuteLimits = Partial<Record<Service, number>>;

export interface Organization {
  id: string;
  name: string;
  tier: Tier;
  /** Operator-set limits (Enterprise); a service missing here uses the tier default. */
  customQuotas: Partial<Record<Service, number>>;
  /** Operator-set requests per minute (Enterprise); other tiers have their tier's. */
  customPerMinute: PerMinuteLimits;
  createdAt: string;
}

/**
 * What a member may do in its organization, each role including the ones after it: an owner sets
 * the plan and the members' roles; an admin manages every key and the invitations, and removes
 * members up to its own role; a member sees usage and manages the keys it created itself.
 */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface User {
  id: string;
  email: string;
  orgId: string;
  role: Role;
  createdAt: string;
}

export interface UserWithPassword extends User {
  passwordHash: string;
}

export type KeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  /** Non-secret display form, e.g. `wmk_AbCd…wxyz`. */
  hint: string;
  /** Hex SHA-256 of the full key value; the value itself is never stored. */
  hash: string;
  scopes: Service[];
  status: KeyStatus;
  /** Id of the member who made it in the dashboard; null when made by the operator (CLI). */
  createdBy: string | null;
  /** Web origins allowed to use it (`https://app.example.com`, `https://*.example.com`); empty: any. */
  allowedOrigins: string[];
  /** Client addresses allowed to use it, as IPv4/IPv6 CIDRs; empty: any. */
  allowedIps: string[];
  /** The instant it stops working; null: never. */
  expiresAt: string | null;
  /** Its own requests per minute, below its organization's; empty: only the organization's. */
  perMinute: PerMinuteLimits;
  /** Hash of the value it had before its last roll, still accepted until `previousHashExpiresAt`. */
  previousHash: string | null;
  previousHashExpiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** What an edit of a key may change; an absent field stays as it is. */
export type KeyChanges = Partial<Pick<ApiKeyRecord, 'name' | 'scopes' | 'allowedOrigins' | 'allowedIps' | 'expiresAt' | 'perMinute'>>;

/**
 * A single-use invitation into an organization, made by one of its members. Only the SHA-256 of
 * its token is stored; the token itself is shown once, inside the invitation link.
 */
export interface InvitationRecord {
  id: string;
  orgId: string;
  /** Hex SHA-256 of the token. */
  hash: string;
  /** Non-secret display form of the token, e.g. `wmi_AbCd…wxyz`. */
  hint: string;
  /** The role the person who accepts it gets. */
  role: Role;
  /** Id of the member who made it. */
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  /** Id of the user who signed up with it. */
  acceptedBy: string | null;
  acceptedAt: string | null;
  revokedAt: string | null;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface SessionRecord {
  /** Hex SHA-256 of the cookie value. */
  hash: string;
  userId: string;
  expiresAt: string;
}

/**
 * A one-time password-reset link an operator made (`waymark user reset-password`). Only the
 * SHA-256 of its token is stored; a user has at most one, a newer one replacing it.
 */
export interface PasswordResetRecord {
  /** Hex SHA-256 of the token. */
  hash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** One batched usage increment: requests that succeeded for (org, key, service) on a UTC day. */
export interface UsageIncrement {
  orgId: string;
  keyId: string | null;
  service: Service;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
}

export interface DailyUsage {
  day: string;
  service: Service;
  count: number;
}

export interface KeyUsage {
  keyId: string;
  used: Record<Service, number>;
}

/** What the audit log records: every change to keys, members, roles, invitations and the plan. */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.updated',
  'key.rolled',
  'key.revoked',
  'member.invited',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'plan.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made a change: a member signed in to the dashboard, or the operator with the CLI on the server's disk. */
export type AuditActor = { kind: 'user'; id: string; email: string } | { kind: 'operator' };

/**
 * One entry of an organization's append-only audit log: who changed what, when, from where, and
 * the changed fields' values before and after (never a key value, a hash or a token).
 */
export interface AuditEntry {
  id: string;
  orgId: string;
  at: string;
  actor: AuditActor;
  /** The client's address (dashboard); null for the CLI. */
  address: string | null;
  action: AuditAction;
  /** The key, member, invitation or organization changed. */
  target: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
