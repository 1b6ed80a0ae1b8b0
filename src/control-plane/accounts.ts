/**
 * Account operations shared by the dashboard and the CLI: sign-up, credential checks and key
 * creation, with the validation messages both show.
 */
import { generateKey, hashKey, keyHint } from './keys.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { newId } from './ids.js';
import { OrgNameTaken, StoreConflict, type ControlStore } from './store.js';
import { SERVICES, TIERS, type ApiKeyRecord, type Organization, type Service, type Tier, type User } from './types.js';

/** A request to change accounts that is invalid as given; its message says what to fix. */
export class AccountError extends Error {}

/** Half of a UTF-16 pair without its other half: JSON can carry one, SQLite cannot store it. */
const LONE_SURROGATE = /\p{Cs}/u;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;
const MAX_NAME_LENGTH = 100;

function cleanName(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AccountError(`${what} is required`);
  const name = value.trim();
  if (name.length > MAX_NAME_LENGTH) throw new AccountError(`${what} must be at most ${MAX_NAME_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new AccountError(`${what} must not contain control characters`);
  if (LONE_SURROGATE.test(name)) throw new AccountError(`${what} must be valid Unicode text`);
  return name;
}

export function validateEmail(value: unknown): string {
  if (typeof value !== 'string' || !EMAIL.test(value.trim()) || LONE_SURROGATE.test(value)) throw new AccountError('a valid email address is required');
  return value.trim().toLowerCase();
}

function validatePassword(value: unknown): string {
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
  organization === undefined || organization === null || organization === '' ? email : cleanName(organization, 'organization');

/**
 * Dashboard sign-up: a user and always a new organization (named after the email when no name is
 * given). A taken name is a conflict: joining an existing organization takes an invitation.
 */
export async function signUp(
  store: ControlStore,
  input: { email: unknown; password: unknown; organization?: unknown },
): Promise<{ user: User; org: Organization }> {
  const credentials = await newCredentials(store, input);
  const orgName = orgNameOf(input.organization, credentials.email);
  try {
    return await store.createUserWithOrg({ ...credentials, orgName });
  } catch (error) {
    if (!(error instanceof OrgNameTaken)) throw error;
    throw new StoreConflict(`${error.message}; choose another name, or ask one of its members for an invitation link to join it`);
  }
}

/** The operator's way to add a user (`waymark user create`): joins the organization if it exists, else creates it. */
export async function addUser(
  store: ControlStore,
  input: { email: unknown; password: unknown; organization?: unknown },
): Promise<{ user: User; org: Organization }> {
  const credentials = await newCredentials(store, input);
  const orgName = orgNameOf(input.organization, credentials.email);
  const org = await store.findOrgByName(orgName);
  return org ? store.createUserInOrg({ ...credentials, orgId: org.id }) : store.createUserWithOrg({ ...credentials, orgName });
}

/** The user whose credentials these are, or null. */
export async function checkCredentials(store: ControlStore, email: unknown, password: unknown): Promise<User | null> {
  if (typeof email !== 'string' || typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return null;
  const user = await store.findUserByEmail(email.trim().toLowerCase());
  if (!user || !(await verifyPassword(password, user.passwordHash))) return null;
  const { passwordHash: _, ...rest } = user;
  return rest;
}

/** Creates a key; the returned value is the only time the full key exists outside the caller. */
export async function createKey(
  store: ControlStore,
  orgId: string,
  input: { name: unknown; scopes?: unknown },
  now: number,
): Promise<{ key: ApiKeyRecord; value: string }> {
  const name = cleanName(input.name, 'a key name');
  const scopes = parseScopes(input.scopes);
  const value = generateKey();
  const key: ApiKeyRecord = {
    id: newId('key'),
    orgId,
    name,
    hint: keyHint(value),
    hash: hashKey(value),
    scopes,
    status: 'active',
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.insertKey(key);
  return { key, value };
}

/** The public view of a key record: everything but its hash. */
export function keyView({ hash: _, ...view }: ApiKeyRecord): Omit<ApiKeyRecord, 'hash'> {
  return view;
}
