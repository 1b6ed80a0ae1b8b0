/**
 * A node's quota leases of one organization, service and month: blocks of units granted by Redis
 * (scripts.ts, acquireLease) that reservations take from in memory. Units a request did not use go
 * back to their block; served units are reported to Redis on the ledger's timer, and a lease is
 * returned (its unserved units given back) once retired or idle. Block sizes follow the pool's
 * rate: about BLOCK_SECONDS of its traffic, between one unit and MAX_BLOCK, or in a burst the units
 * that reservations are waiting for, so that a crowd arriving at once waits for one grant rather
 * than a chain of small ones; Redis shrinks them further as the quota runs out.
 */
import type { Service } from '../types.js';

/** A block is sized to last about this long at the pool's current rate. */
const BLOCK_SECONDS = 0.25;
/** The largest block: bounds what a node that dies holds until its leases expire. */
export const MAX_BLOCK = 5000;
/** The first block of a pool, before it has a rate. */
const FIRST_BLOCK = 16;
/** The next block is asked for once the current one has less than this share of it left. */
const REFILL_SHARE = 0.5;
const RATE_WINDOW_MS = 1000;

export interface HeldLease {
  id: string;
  granted: number;
  /** Units taken by reservations and not released: served, or in flight. */
  taken: number;
  /** Reservations taken and not yet settled. */
  inFlight: number;
  /** Served units not yet reported, by `<day> <keyId>`. */
  unreported: Map<string, number>;
  unreportedTotal: number;
  /** The month's total in Redis when the lease was granted, for the rate-limit headers. */
  usedBefore: number;
  /** No longer taken from (the limit changed, or Redis settled it); returned once nothing is in flight. */
  retired: boolean;
  lastTakenMs: number;
  /** Reports sent so far: the sequence number that lets Redis ignore a repeated one. */
  reports: number;
}

export class LeasePool {
  readonly leases: HeldLease[] = [];
  /** The grant in flight, shared by the reservations waiting for it. */
  acquiring: Promise<unknown> | null = null;
  /** Reservations waiting for a block (ledger.ts); the pool is kept while there are any. */
  waiting = 0;
  /** Units of the reservations awaiting a grant's answer now: a burst's demand, which the next block covers. */
  awaitedUnits = 0;
  /** Redis granted less than asked: the quota is running out, and blocks are not asked for ahead. */
  shrinking = false;
  private windowStartMs = 0;
  private windowUnits = 0;
  private lastWindowUnits = 0;

  constructor(
    readonly orgId: string,
    readonly service: Service,
    readonly month: string,
    /** The limit the leases were granted under, as the caller's directory knew it. */
    public limit: number | null,
  ) {}

  /** A lease with `units` left, or undefined. */
  usable(units: number): HeldLease | undefined {
    return this.leases.find((lease) => !lease.retired && lease.granted - lease.taken >= units);
  }

  take(lease: HeldLease, units: number, nowMs: number): void {
    lease.taken += units;
    lease.inFlight++;
    lease.lastTakenMs = nowMs;
    if (nowMs - this.windowStartMs >= RATE_WINDOW_MS) {
      this.lastWindowUnits = nowMs - this.windowStartMs < 2 * RATE_WINDOW_MS ? this.windowUnits : 0;
      this.windowStartMs = nowMs;
      this.windowUnits = 0;
    }
    this.windowUnits += units;
  }

  /** Units open in leases still taken from. */
  available(): number {
    let units = 0;
    for (const lease of this.leases) if (!lease.retired) units += lease.granted - lease.taken;
    return units;
  }

  /** The block to ask for: about BLOCK_SECONDS of the recent rate, or the units awaited when more; at least `units`. */
  blockSize(units: number): number {
    const rate = Math.max(this.lastWindowUnits, this.windowUnits);
    const forRate = rate === 0 ? FIRST_BLOCK : Math.ceil((rate * BLOCK_SECONDS * 1000) / RATE_WINDOW_MS);
    return Math.max(units, Math.min(MAX_BLOCK, Math.max(forRate, this.awaitedUnits)));
  }

  /** True when what is left is below the refill share of the next block, unless the quota is running out. */
  wantsRefill(): boolean {
    return !this.shrinking && this.acquiring === null && this.available() < this.blockSize(1) * REFILL_SHARE;
  }

  retireAll(): void {
    for (const lease of this.leases) lease.retired = true;
  }

  remove(lease: HeldLease): void {
    this.leases.splice(this.leases.indexOf(lease), 1);
  }
}

export function newLease(id: string, granted: number, usedBefore: number, nowMs: number): HeldLease {
  return {
    id,
    granted,
    taken: 0,
    inFlight: 0,
    unreported: new Map(),
    unreportedTotal: 0,
    usedBefore,
    retired: false,
    lastTakenMs: nowMs,
    reports: 0,
  };
}
