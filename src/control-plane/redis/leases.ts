/**
 * A node's quota leases of one organization, service and month: blocks of units granted by Redis
 * (scripts.ts, acquireLease) that reservations take from in memory. Units a request did not use go
 * back to their block; served units are reported to Redis on the ledger's timer (as totals), and a lease is
 * returned (its unserved units given back) once retired or idle. Block sizes follow the pool's
 * rate: about BLOCK_SECONDS of its traffic, between one unit and MAX_BLOCK, or in a burst the units
 * that reservations are waiting for, so that a crowd arriving at once waits for one grant rather
 * than a chain of small ones; Redis shrinks them further as the quota runs out. They also cover
 * LEAD_BLOCKS times the pool's lead, the units it may be asked for before a grant is answered:
 * requests come in bursts, one per open connection in a turn of the event loop, and a grant asked
 * for in a turn is answered after it at best (later on a loaded machine), so a block sized on the
 * rate alone ran out before the next one arrived whenever a quarter second of traffic was less
 * than a turn's or a grant's wait — and about half the reservations then waited on Redis
 * (issue 27), each answered later and on the gateway's slower asynchronous path.
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
/** A block is at least this many leads, so that twice the last lead is left when the next is asked for. */
const LEAD_BLOCKS = 4;
const RATE_WINDOW_MS = 1000;

export interface HeldLease {
  id: string;
  granted: number;
  /** Units taken by reservations and not released: served, or in flight. */
  taken: number;
  /** Reservations taken and not yet settled. */
  inFlight: number;
  /**
   * Units served from the lease, by `<day> <keyId>`, and in all: reports carry these totals rather
   * than what is new since the last one, so that a report sent again is counted once, and one that
   * Redis acknowledged but lost (a failover) is made good by the next.
   */
  served: Map<string, number>;
  servedTotal: number;
  /** The month's total in Redis when the lease was granted, for the rate-limit headers. */
  usedBefore: number;
  /** No longer taken from (the limit changed, or Redis settled it); returned once nothing is in flight. */
  retired: boolean;
  lastTakenMs: number;
}

export class LeasePool {
  readonly leases: HeldLease[] = [];
  /** The grant in flight, shared by the reservations waiting for it; resolves to its failure's error when it fails. */
  acquiring: Promise<unknown> | null = null;
  /** The recall of the leases' untaken units in flight (ledger.ts), shared by the reservations Redis refused meanwhile. */
  recalling: Promise<void> | null = null;
  /** Reservations waiting for a block (ledger.ts); the pool is kept while there are any. */
  waiting = 0;
  /** Units of the reservations awaiting a grant's answer now: a burst's demand, which the next block covers. */
  awaitedUnits = 0;
  /** Redis granted less than asked: the quota is running out, and blocks are not asked for ahead. */
  shrinking = false;
  private windowStartMs = 0;
  private windowUnits = 0;
  private lastWindowUnits = 0;
  /** Units taken so far, to measure what a grant's wait took. */
  private takenUnits = 0;
  /** Units taken in the current turn of the event loop; false until its first take. */
  private turnUnits = 0;
  private turnOpen = false;
  /**
   * The lead in this rate window, and before it (halved at each window, so that it fades over a
   * few seconds): the most units taken in one turn of the event loop, or taken and awaited while a
   * grant was asked for and not yet answered.
   */
  private windowLead = 0;
  private earlierLead = 0;
  private readonly closeTurn = () => {
    this.turnOpen = false;
    this.lead(this.turnUnits);
    this.turnUnits = 0;
  };

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
      const recent = nowMs - this.windowStartMs < 2 * RATE_WINDOW_MS;
      this.lastWindowUnits = recent ? this.windowUnits : 0;
      this.earlierLead = recent ? Math.max(this.windowLead, Math.floor(this.earlierLead / 2)) : 0;
      this.windowStartMs = nowMs;
      this.windowUnits = 0;
      this.windowLead = 0;
    }
    this.windowUnits += units;
    this.takenUnits += units;
    this.turnUnits += units;
    if (!this.turnOpen) {
      this.turnOpen = true;
      setImmediate(this.closeTurn);
    }
  }

  private lead(units: number): void {
    if (units > this.windowLead) this.windowLead = units;
  }

  /** A grant is asked for: the mark its answer measures the lead from. */
  grantAsked(): number {
    return this.takenUnits;
  }

  /** The grant asked for at `mark` is answered: the units taken since, and those still awaiting it, are what its wait took. */
  grantAnswered(mark: number): void {
    this.lead(this.takenUnits - mark + this.awaitedUnits);
  }

  /** Units open in leases still taken from. */
  available(): number {
    let units = 0;
    for (const lease of this.leases) if (!lease.retired) units += lease.granted - lease.taken;
    return units;
  }

  /** The block to ask for: about BLOCK_SECONDS of the recent rate, or the units awaited or LEAD_BLOCKS recent leads when more; at least `units`. */
  blockSize(units: number): number {
    const rate = Math.max(this.lastWindowUnits, this.windowUnits);
    const forRate = rate === 0 ? FIRST_BLOCK : Math.ceil((rate * BLOCK_SECONDS * 1000) / RATE_WINDOW_MS);
    const forLead = LEAD_BLOCKS * Math.max(this.earlierLead, this.windowLead);
    return Math.max(units, Math.min(MAX_BLOCK, Math.max(forRate, this.awaitedUnits, forLead)));
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
    served: new Map(),
    servedTotal: 0,
    usedBefore,
    retired: false,
    lastTakenMs: nowMs,
  };
}

/** A lease's report as sent: the reportLease script's keys and arguments. */
export interface LeaseReport {
  keys: string[];
  args: (string | number)[];
}

/**
 * How long a closed lease's final report is kept to be sent again if the connection drops: longer
 * than a replica lags behind its primary, and than a switchover leaves a node on the old primary.
 */
const CLOSED_KEPT_MS = 10_000;

/**
 * The final reports of the leases this node closed lately, sent again on the next connection to
 * Redis when the one they went over closes: the primary that acknowledged one may have been
 * replaced by a replica that never had it (a Sentinel failover: replication is asynchronous, and in
 * a switchover the old primary takes writes until Sentinel announces the new one). Reports carry
 * totals, so one sent again is counted once. A report is dropped once it is CLOSED_KEPT_MS old and
 * has reached the server of the current connection.
 */
export class ClosedLeases {
  /** Counts the connections: a report is kept while the one it reached is not the current one. */
  private connection = 0;
  private kept: { report: LeaseReport; closedAtMs: number; deliveredOn: number }[] = [];

  /** The connection to Redis closed (ioredis' 'close'): every report kept is to be sent again on the next one. */
  disconnected(): void {
    this.connection++;
  }

  closed(report: LeaseReport, nowMs: number): void {
    this.kept.push({ report, closedAtMs: nowMs, deliveredOn: this.connection });
  }

  /** The reports to send again, each with what to call once Redis has answered it. */
  toResend(nowMs: number): { report: LeaseReport; delivered: () => void }[] {
    this.kept = this.kept.filter((entry) => entry.deliveredOn !== this.connection || nowMs - entry.closedAtMs <= CLOSED_KEPT_MS);
    return this.kept
      .filter((entry) => entry.deliveredOn !== this.connection)
      .map((entry) => ({ report: entry.report, delivered: () => void (entry.deliveredOn = this.connection) }));
  }
}
