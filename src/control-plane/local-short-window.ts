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
    const held: HeldBucket[] = [];
    const tokens: number[] = [];
    let allowed = true;
    for (const bucket of wanted) {
      let bucketHeld = this.buckets.get(bucket.id);
      if (!bucketHeld) {
        if (this.buckets.size >= PRUNE_AT) this.prune(wanted, nowMs);
        bucketHeld = { tokens: bucket.perMinute, atMs: nowMs, perMinute: bucket.perMinute };
        this.buckets.set(bucket.id, bucketHeld);
      }
      const now = refilled(bucket, raised(bucket, bucketHeld), nowMs - bucketHeld.atMs);
      if (now < 1) allowed = false;
      held.push(bucketHeld);
      tokens.push(now);
    }
    for (let i = 0; i < wanted.length; i++) {
      const bucketHeld = held[i]!;
      if (allowed) tokens[i]! -= 1;
      // Stored as of now, whether taken or not: refilling from here gives the same tokens.
      bucketHeld.tokens = tokens[i]!;
      bucketHeld.atMs = nowMs;
      bucketHeld.perMinute = wanted[i]!.perMinute;
    }
    return windowDecision(wanted, tokens, allowed);
  }

  /** Drops the buckets a minute has refilled for certain (no limit takes longer to fill). */
  private prune(keep: readonly WindowBucket[], nowMs: number): void {
    const kept = new Set(keep.map((bucket) => bucket.id));
    for (const [id, held] of this.buckets) if (!kept.has(id) && nowMs - held.atMs >= 60_000) this.buckets.delete(id);
  }
}
