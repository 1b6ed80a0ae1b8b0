/**
 * The sign-in throttle, kept in the control-plane store so that every node sees the same counters
 * and a restart forgets nothing. Each attempt is counted as a failure before its password is
 * checked, in one atomic step with the check of the limits, so a burst of parallel attempts is
 * limited exactly as strictly as a sequence; an attempt that proves right is then un-counted.
 *
 * Two limits, the account's strict and the address's loose:
 * - An account (the normalized email, whether or not it exists) may fail 5 times; the 5th failure
 *   locks it for 1 minute, each further failure (possible once a lock has passed) for twice as
 *   long as the one before, up to 15 minutes. Attempts refused while it is locked are not counted
 *   and do not extend the lock. The count is forgotten 24 hours after the last failure, and
 *   cleared by a successful sign-in.
 * - A client address may fail 100 times in 15 minutes (counted from its first failure), so that
 *   guessing across many accounts is slowed too, while one locked account never locks out the
 *   other people behind the same NAT or proxy. A successful sign-in gives its attempt back.
 */

export const SIGN_IN_LIMITS = {
  /** Failures of one account before it is locked. */
  accountFailures: 5,
  /** The lock after the `accountFailures`-th failure; each further one doubles it. */
  firstLockMs: 60_000,
  maxLockMs: 15 * 60_000,
  /** An account's failures are forgotten this long after its last one. */
  forgetMs: 24 * 60 * 60_000,
  /** Failures from one client address allowed per window. */
  addressFailures: 100,
  addressWindowMs: 15 * 60_000,
} as const;

export type SignInAttempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInLimiter {
  /**
   * Called before any password work: refuses when the account is locked or the address has used
   * its failures, else counts this attempt as a failure of both and allows it. `account` is the
   * normalized email (`''` when none was given), `address` the client's (see client-address.ts).
   */
  begin(account: string, address: string, nowMs: number): Promise<SignInAttempt>;
  /** The attempt `begin` allowed was right: clears the account's failures and gives the address its attempt back. */
  succeeded(account: string, address: string, nowMs: number): Promise<void>;
}

/** How long the account is locked after its `failures`-th failure (0: not locked). */
export function lockMs(failures: number): number {
  const { accountFailures, firstLockMs, maxLockMs } = SIGN_IN_LIMITS;
  if (failures < accountFailures) return 0;
  return Math.min(firstLockMs * 2 ** Math.min(failures - accountFailures, 30), maxLockMs);
}

/** The Retry-After of a refusal: whole seconds until `untilMs`, at least 1. */
export const refusal = (untilMs: number, nowMs: number): SignInAttempt => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil((untilMs - nowMs) / 1000)),
});
