/**
 * The short-window buckets (short-window.ts) of a single process that owns its store (the embedded
 * SQLite default): in memory, so a request's check is a map look-up and a little arithmetic. A
 * bucket that has refilled is as good as none, so those are dropped when the map grows large.
 */
import { refilled, windowDecision, type ShortWindowLimiter, type WindowBucket, type WindowDecision } from './short-window.js';

interface HeldBucket {
  tokens: number;
  atMs: number;
  /** The limit it was last taken under. */
  perMinute: number;
}

/** Buckets kept before the full ones are dropped: room for every key of a busy server. */
const PRUNE_AT = 100_000;

/** A bucket's tokens with a raise of its limit added (an upgrade serves more at once); a lower limit caps them as they refill. */
const raised = (bucket: WindowBucket, held: HeldBucket) => held.tokens + Math.max(0, bucket.perMinute - held.perMinute);

export class LocalShortWindow implements ShortWindowLimiter {
  private readonly buckets = new Map<string, HeldBucket>();

  constructor(private readonly now: () => number) {}

  take(wanted: readonly WindowBucket[]): WindowDecision {
    const nowMs = this.now();
    const tokens = wanted.map((bucket) => {
      const held = this.buckets.get(bucket.id);
      return held ? refilled(bucket, raised(bucket, held), nowMs - held.atMs) : bucket.perMinute;
    });
    const allowed = tokens.every((t) => t >= 1);
    if (allowed) {
      if (this.buckets.size >= PRUNE_AT) this.prune(wanted, nowMs);
      wanted.forEach((bucket, i) => {
        tokens[i]! -= 1;
        this.buckets.set(bucket.id, { tokens: tokens[i]!, atMs: nowMs, perMinute: bucket.perMinute });
      });
    }
    return windowDecision(wanted, tokens, allowed);
  }

  /** Drops the buckets a minute has refilled for certain (no limit takes longer to fill). */
  private prune(keep: readonly WindowBucket[], nowMs: number): void {
    const kept = new Set(keep.map((bucket) => bucket.id));
    for (const [id, held] of this.buckets) if (!kept.has(id) && nowMs - held.atMs >= 60_000) this.buckets.delete(id);
  }
}
