/** The `X-RateLimit-*` headers of a metered response, and the month/day keys they are counted by. */
import { monthBounds, type Clock } from '../clock.js';

/** Reported as both limit and remaining when a quota is unlimited (headers carry integers only). */
export const UNLIMITED = 2_147_483_647;

const UNLIMITED_TEXT = String(UNLIMITED);

export function rateLimitHeaders(limit: number | null, used: number, resetIso: string): Record<string, string> {
  return {
    'X-RateLimit-Limit': limit === null ? UNLIMITED_TEXT : String(limit),
    'X-RateLimit-Remaining': limit === null ? UNLIMITED_TEXT : String(Math.max(0, limit - used)),
    'X-RateLimit-Reset': resetIso,
  };
}

export interface Period {
  /** `YYYY-MM`, the quota period. */
  month: string;
  /** `YYYY-MM-DD`, the usage-reporting bucket. */
  day: string;
  /** ISO instant when the quota resets: the next month's start, UTC. */
  resetIso: string;
  monthStartIso: string;
}

/** Month and day of the clock's time, recomputed only when the UTC day changes. */
export class PeriodTracker {
  private current: Period | undefined;
  private dayStart = 0;
  private dayEnd = 0;

  constructor(private readonly clock: Clock) {}

  /** The period of `now` (default: the clock's time). */
  now(now = this.clock.now()): Period {
    if (this.current && now >= this.dayStart && now < this.dayEnd) return this.current;
    const iso = new Date(now).toISOString();
    const { start, end } = monthBounds(now);
    this.dayStart = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
    this.dayEnd = this.dayStart + 86_400_000;
    this.current = {
      month: iso.slice(0, 7),
      day: iso.slice(0, 10),
      resetIso: new Date(end).toISOString(),
      monthStartIso: new Date(start).toISOString(),
    };
    return this.current;
  }
}
