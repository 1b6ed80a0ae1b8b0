/**
 * Sign-in throttling: after 5 failed attempts for one email or from one address within 15
 * minutes, further attempts are refused until the window has passed.
 */
const MAX_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

interface Failures {
  count: number;
  windowStart: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number) {}

  /** Seconds to wait before another attempt, or 0 when one is allowed. */
  retryAfter(email: string, address: string): number {
    const now = this.now();
    let wait = 0;
    for (const id of [`e:${email}`, `a:${address}`]) {
      const f = this.failures.get(id);
      if (!f) continue;
      if (now - f.windowStart >= WINDOW_MS) this.failures.delete(id);
      else if (f.count >= MAX_FAILURES) wait = Math.max(wait, Math.ceil((f.windowStart + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  failed(email: string, address: string): void {
    const now = this.now();
    if (this.failures.size > MAX_TRACKED) this.forgetExpired(now);
    for (const id of [`e:${email}`, `a:${address}`]) {
      const f = this.failures.get(id);
      if (!f || now - f.windowStart >= WINDOW_MS) this.failures.set(id, { count: 1, windowStart: now });
      else f.count++;
    }
  }

  succeeded(email: string): void {
    this.failures.delete(`e:${email}`);
  }

  /** Bounds memory under a flood of distinct emails or addresses. */
  private forgetExpired(now: number): void {
    for (const [id, f] of this.failures) if (now - f.windowStart >= WINDOW_MS) this.failures.delete(id);
  }
}
