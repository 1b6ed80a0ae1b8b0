/**
 * Changing a password (the user, in the dashboard; the operator, with the CLI) and the operator's
 * one-time reset link. A change ends the user's other sessions (the operator's: all of them) and
 * cancels a pending reset link. A reset link (`wmr_` + 43 random base64url characters, stored only
 * as its SHA-256) sets a new password once, within 1 hour, and ends all the user's sessions; a
 * newer link replaces an older one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AccountError, validatePassword } from './accounts.js';
import { hashPassword } from './passwords.js';
import type { ControlStore } from './store.js';
import type { User } from './types.js';

const TOKEN_PREFIX = 'wmr_';
const TOKEN_PATTERN = /^wmr_[A-Za-z0-9_-]{43}$/;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;

const UNUSABLE =
  'this password-reset link is not valid: it may have expired (links last 1 hour), been used already or been replaced by a newer one; ask your operator for a new one';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Sets a user's password, ending every session but `keepSession` (null: all). False when there is no such user. */
export async function setPassword(store: ControlStore, userId: string, password: unknown, keepSession: string | null): Promise<boolean> {
  const passwordHash = await hashPassword(validatePassword(password));
  return store.setPassword(userId, passwordHash, keepSession);
}

/** Makes a user's reset link, replacing an earlier one; the token exists only in the returned value. */
export async function createPasswordReset(store: ControlStore, user: User, now: number): Promise<{ token: string; expiresAt: string }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + PASSWORD_RESET_TTL_MS).toISOString();
  const stored = await store.insertPasswordReset({
    hash: hashToken(token),
    userId: user.id,
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  if (!stored) throw new AccountError(`${user.email} no longer has an account`);
  return { token, expiresAt };
}

/** Sets the new password with a reset link, using the link up; an AccountError when it cannot be used. */
export async function resetPassword(store: ControlStore, token: unknown, password: unknown, now: number): Promise<User> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) throw new AccountError(UNUSABLE);
  const passwordHash = await hashPassword(validatePassword(password));
  const user = await store.usePasswordReset({ hash: hashToken(token), nowIso: new Date(now).toISOString(), passwordHash });
  if (!user) throw new AccountError(UNUSABLE);
  return user;
}
