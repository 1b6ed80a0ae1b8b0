/**
 * Account operations shared by the dashboard and the CLI: sign-up, credential checks, roles and
 * keys, with the validation messages both show.
 */
import { AccountError } from './account-error.js';
import { parsePerMinute } from './short-window.js';
import { parseAllowedIps, parseAllowedOrigins, parseExpiry, parseGrace } from './key-restrictions.js';
import { generateKey, hashKey, keyHint } from './keys.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { newId } from './ids.js';
import { mixedScripts } from './name-scripts.js';
import { OrgNameTaken, StoreConflict, type ControlStore } from './store.js';
import {
  ROLES,
  SERVICES,
  TIERS,
  type ApiKeyRecord,
  type KeyChanges,
  type Organization,
  type Role,
  type Service,
  type Tier,
  type User,
} from './types.js';

export { AccountError };

/** Half of a UTF-16 pair without its other half: JSON can carry one, SQLite cannot store it. */
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL = /\p{Cc}/u;
/** Control and format characters (zero-width spaces, direction marks): invisible in a name. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
/** RFC 5321's limit on a forward path, less its angle brackets. */
const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;
const MAX_NAME_LENGTH = 100;

function cleanName(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AccountError(`${what} is required`);
  const name = value.trim();
  if (name.length > MAX_NAME_LENGTH) throw new AccountError(`${what} must be at most ${MAX_NAME_LENGTH} characters`);
  if (CONTROL.test(name)) throw new AccountError(`${what} must not contain control characters`);
  if (LONE_SURROGATE.test(name)) throw new AccountError(`${what} must be valid Unicode text`);
  return name;
}

/**
 * An organization name as shown in invitations: NFKC-normalized, so full-width and other
 * compatibility look-alikes fold into the plain letters (and then meet the case-insensitive
 * uniqueness check), and without invisible characters.
 */
export function cleanOrgName(value: unknown): string {
  const name = cleanName(typeof value === 'string' ? value.normalize('NFKC') : value, 'organization');
  if (INVISIBLE.test(name)) throw new AccountError('organization must not contain invisible (format or control) characters');
  return name;
}

export function validateEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim() : '';
  if (!EMAIL.test(email) || CONTROL.test(email) || LONE_SURROGATE.test(email) || email.length > MAX_EMAIL_LENGTH) {
    throw new AccountError(`a valid email address is required (at most ${MAX_EMAIL_LENGTH} characters, no control characters)`);
  }
  return email.toLowerCase();
}

export function validatePassword(value: unknown): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH) {
    throw new AccountError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (value.length > MAX_PASSWORD_LENGTH) throw new AccountError(`the password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  return value;
}

/** Parses scopes from a list or a comma-separated string; absent means all three. */
export function parseScopes(value: unknown): Service[] {
  if (value === undefined || value === null) return [...SERVICES];
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (!Array.isArray(list) || list.length === 0) throw new AccountError(`scopes must be a non-empty list of ${SERVICES.join(', ')}`);
  const scopes = new Set<Service>();
  for (const scope of list) {
    if (!SERVICES.includes(scope as Service)) {
      throw new AccountError(`unknown scope ${JSON.stringify(scope)}; scopes are ${SERVICES.join(', ')}`);
    }
    scopes.add(scope as Service);
  }
  return SERVICES.filter((s) => scopes.has(s));
}

export function parseRole(value: unknown): Role {
  if (!ROLES.includes(value as Role)) throw new AccountError(`unknown role ${JSON.stringify(value)}; roles are ${ROLES.join(', ')}`);
  return value as Role;
}

export function parseTier(value: unknown): Tier {
  const tier = typeof value === 'string' ? value.toLowerCase() : value;
  if (!TIERS.includes(tier as Tier)) throw new AccountError(`unknown tier ${JSON.stringify(value)}; tiers are ${TIERS.join(', ')}`);
  return tier as Tier;
}

/** A new user's validated email and hashed password; a conflict when the email is taken. */
export async function newCredentials(
  store: ControlStore,
  input: { email: unknown; password: unknown },
): Promise<{ email: string; passwordHash: string }> {
  const email = validateEmail(input.email);
  const password = validatePassword(input.password);
  // Checked before hashing, which is slow by design; the store checks again when it inserts.
  if (await store.findUserByEmail(email)) throw new StoreConflict(`a user with the email ${email} already exists`);
  return { email, passwordHash: await hashPassword(password) };
}

/** The organization name asked for, or the email when none is given. */
const orgNameOf = (organization: unknown, email: string): string =>
  organization === undefined || organization === null || organization === '' ? email : cleanOrgName(organization);

/**
 * Refuses a new organization's name that is not written in one script (name-scripts.ts), so that
 * it cannot pass for another's; an email taken as the name is checked per side of its `@`.
 */
function checkNewOrgName(name: string, email: string): void {
  for (const part of name === email ? email.split('@') : [name]) {
    const mixed = mixedScripts(part);
    if (mixed) {
      throw new AccountError(
        `the organization name ${JSON.stringify(part)} ${mixed}: write it in one script (Latin may go with one other, but not Cyrillic or Greek), so that it cannot pass for another organization's`,
      );
    }
  }
}

/**
 * Dashboard sign-up: a user and always a new organization (named after the email when no name is
 * given). A taken name is a conflict: joining an existing organization takes an invitation.
 */
export async function signUp(
  store: ControlStore,
  input: { email: unknown; password: unknown; organization?: unknown },
): Promise<{ user: User; org: Organization }> {
  const email = validateEmail(input.email);
  const orgName = orgNameOf(input.organization, email);
  checkNewOrgName(orgName, email);
  const credentials = await newCredentials(store, input);
  try {
    return await store.createUserWithOrg({ ...credentials, orgName });
  } catch (error) {
    if (!(error instanceof OrgNameTaken)) throw error;
    throw new StoreConflict(`${error.message}; choose another name, or ask one of its members for an invitation link to join it`);
  }
}

/**
 * The operator's way to add a user (`waymark user create`): joins the organization if it exists
 * (as a member unless `role` says otherwise), else creates it with the user as its owner.
 */
export async function addUser(
  store: ControlStore,
  input: { email: unknown; password: unknown; organization?: unknown; role?: unknown },
): Promise<{ user: User; org: Organization }> {
  const role = input.role === undefined ? undefined : parseRole(input.role);
  const email = validateEmail(input.email);
  const orgName = orgNameOf(input.organization, email);
  const org = await store.findOrgByName(orgName);
  if (!org) checkNewOrgName(orgName, email);
  if (!org && role !== undefined && role !== 'owner') {
    throw new AccountError(`there is no organization ${JSON.stringify(orgName)}; a new organization's first user is its owner`);
  }
  const credentials = await newCredentials(store, input);
  return org
    ? store.createUserInOrg({ ...credentials, orgId: org.id, role: role ?? 'member' })
    : store.createUserWithOrg({ ...credentials, orgName });
}

/** Verified in place of a missing user's hash (made once, on first need), so that an unknown email costs what a wrong password does. */
let dummyPasswordHash: Promise<string> | undefined;

/** The user whose credentials these are, or null. */
export async function checkCredentials(store: ControlStore, email: unknown, password: unknown): Promise<User | null> {
  if (typeof email !== 'string' || typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return null;
  const user = await store.findUserByEmail(email.trim().toLowerCase());
  // The answer's timing must not tell which emails have an account.
  const hash = user?.passwordHash ?? (await (dummyPasswordHash ??= hashPassword('the password of no account')));
  if (!(await verifyPassword(password, hash)) || !user) return null;
  const { passwordHash: _, ...rest } = user;
  return rest;
}

/** What a key is made or edited with, as the dashboard's JSON or the CLI's flags give it. */
export interface KeyInput {
  name?: unknown;
  scopes?: unknown;
  allowedOrigins?: unknown;
  allowedIps?: unknown;
  expiresAt?: unknown;
  /** Requests per minute by service (`parsePerMinute`); null lifts the key's own limits. */
  perMinute?: unknown;
}

/** The checked changes of a key edit; fields left out (undefined) stay as they are. */
export function keyChanges(input: KeyInput, now: number): KeyChanges {
  const changes: KeyChanges = {};
  if (input.name !== undefined) changes.name = cleanName(input.name, 'a key name');
  if (input.scopes !== undefined) changes.scopes = parseScopes(input.scopes);
  if (input.allowedOrigins !== undefined)
    changes.allowedOrigins = input.allowedOrigins === null ? [] : parseAllowedOrigins(input.allowedOrigins);
  if (input.allowedIps !== undefined) changes.allowedIps = input.allowedIps === null ? [] : parseAllowedIps(input.allowedIps);
  if (input.expiresAt !== undefined) changes.expiresAt = parseExpiry(input.expiresAt, now);
  if (input.perMinute !== undefined) changes.perMinute = input.perMinute === null ? {} : parsePerMinute(input.perMinute);
  return changes;
}

/**
 * Creates a key (`createdBy`: the dashboard member who makes it, null for the operator); the
 * returned value is the only time the full key exists outside the caller.
 */
export async function createKey(
  store: ControlStore,
  orgId: string,
  input: KeyInput,
  now: number,
  createdBy: string | null = null,
): Promise<{ key: ApiKeyRecord; value: string }> {
  const changes = keyChanges({ ...input, name: input.name ?? null }, now);
  const value = generateKey();
  const key: ApiKeyRecord = {
    id: newId('key'),
    orgId,
    name: changes.name!,
    hint: keyHint(value),
    hash: hashKey(value),
    scopes: changes.scopes ?? [...SERVICES],
    status: 'active',
    createdBy,
    allowedOrigins: changes.allowedOrigins ?? [],
    allowedIps: changes.allowedIps ?? [],
    expiresAt: changes.expiresAt ?? null,
    perMinute: changes.perMinute ?? {},
    previousHash: null,
    previousHashExpiresAt: null,
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.insertKey(key);
  return { key, value };
}

/**
 * Gives an active key a new value; the old one keeps working for the grace period (`grace` as
 * `parseGrace` reads it; 24 h when absent, 0 for not at all). Null when there is no such key.
 */
export async function rollKey(
  store: ControlStore,
  orgId: string,
  keyId: string,
  grace: unknown,
  now: number,
): Promise<{ key: ApiKeyRecord; value: string } | null> {
  const graceMs = parseGrace(grace);
  const value = generateKey();
  const previousHashExpiresAt = graceMs === 0 ? null : new Date(now + graceMs).toISOString();
  const key = await store.rollKey(orgId, keyId, { hash: hashKey(value), hint: keyHint(value), previousHashExpiresAt });
  return key && { key, value };
}

/** The public view of a key record: everything but its hashes. */
export function keyView({ hash: _, previousHash: __, ...view }: ApiKeyRecord): Omit<ApiKeyRecord, 'hash' | 'previousHash'> {
  return view;
}
