/** Sign-ups that make an organization, counted per client address (control-plane/sign-ups.ts): 429 past the limit. */
import type { ControlStore } from '../../control-plane/store.js';
import { ApiError } from '../../http/errors.js';

/** Runs `signUp` if the address has sign-ups left, counting it; a sign-up that fails gives it back. */
export async function throttledSignUp<T>(store: ControlStore, address: string, nowMs: number, signUp: () => Promise<T>): Promise<T> {
  const attempt = await store.signUps.begin(address, nowMs);
  if (!attempt.allowed) {
    const wait = attempt.retryAfterSeconds;
    throw new ApiError(
      429,
      `too many sign-ups from your address; try again in ${wait} seconds, or ask for an invitation to an existing organization`,
      {
        'Retry-After': String(wait),
      },
    );
  }
  try {
    return await signUp();
  } catch (error) {
    await store.signUps.failed(address);
    throw error;
  }
}
