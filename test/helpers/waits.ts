/**
 * How long the tests wait on readiness signals (a printed line, a port, a status) before failing.
 * Every wait ends on its signal, so a quiet machine never comes near these; they are for a machine
 * loaded well beyond its cores (load 7–15 on 2 cores: a `waymark serve` took over 20 s to print its
 * banner, a cluster over 10 s to serve again after a Redis restart).
 */
import type { ExecutionContext } from 'ava';

/** One wait: several minutes. */
export const WAIT_CEILING_MS = 5 * 60_000;

/**
 * A test that waits on several signals in turn: it may take longer than AVA's 2-minute inactivity
 * timeout (package.json), which would end it without saying what it waited for; its own waits fail first.
 */
export function patientTest(t: ExecutionContext): void {
  t.timeout(4 * WAIT_CEILING_MS, 'a patient test: one of its waits should have failed with its reason first');
}

/** Polls `probe` every 100 ms until it returns a value other than undefined; throws naming `what` after `ms`. */
export async function within<T>(what: string, probe: () => Promise<T | undefined>, ms = WAIT_CEILING_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
