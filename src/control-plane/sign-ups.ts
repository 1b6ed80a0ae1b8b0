/**
 * The sign-up throttle: each sign-up that makes an organization (and with it a fresh Free quota)
 * is counted against the client's address before any work, in one atomic step of the
 * control-plane store, as the sign-in throttle counts failures (./sign-ins.ts): every node of a
 * cluster, and a restarted one, sees the same counts, and a burst of parallel sign-ups is limited
 * exactly as strictly as a sequence. A sign-up that then fails (a 400 or 409) gives its count back.
 *
 * A client address may make 20 organizations per hour (counted from its first sign-up): more than
 * a team behind one NAT signs up for in an hour — its members join by invitation, which is not
 * counted — while farming Free quotas from one address takes days.
 */
import type { SignInAttempt } from './sign-ins.js';

export const SIGN_UP_LIMITS = {
  /** Sign-ups from one client address allowed per window. */
  addressSignUps: 20,
  addressWindowMs: 60 * 60_000,
} as const;

/** Allowed, or refused with the seconds until the address's window ends. */
export type SignUpAttempt = SignInAttempt;

export interface SignUpLimiter {
  /** Refuses when the address has used its sign-ups, else counts this one and allows it. `address` is the client's (see client-address.ts). */
  begin(address: string, nowMs: number): Promise<SignUpAttempt>;
  /** The sign-up `begin` allowed failed: the address gets it back. */
  failed(address: string): Promise<void>;
}
