/**
 * Quota ledger for a single process that owns its store (the embedded SQLite default).
 * Counters live in memory, so reserving a unit is a map look-up. Committed units are buffered
 * and written by the store's periodic flush; a crash loses at most one flush interval of counts.
 */
import type { QuotaLedger, Reservation, ReserveRequest } from './store.js';
import type { Service, UsageIncrement } from './types.js';

interface Counter {
  orgId: string;
  service: Service;
  used: number;
  reserved: number;
}

/** A reservation carries its counter, key and day, so settling it needs no look-up. */
interface LocalReservation extends Reservation {
  counter: Counter;
  units: number;
  keyId: string;
  day: string;
}

/** Reads the units already recorded for a month, once per (org, service, month) in this process. */
export type MonthLoader = (orgId: string, service: Service, month: string) => number;

export class LocalLedger implements QuotaLedger {
  private readonly counters = new Map<string, Counter>();
  private pendingUsage = new Map<string, UsageIncrement>();
  private pendingKeyUse = new Map<string, number>();

  constructor(private readonly loadMonth: MonthLoader) {}

  private counter(orgId: string, service: Service, month: string): Counter {
    const id = `${orgId}|${service}|${month}`;
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { orgId, service, used: this.loadMonth(orgId, service, month), reserved: 0 };
      this.counters.set(id, counter);
    }
    return counter;
  }

  /** Seeds counters for a month in one pass, so the first requests after start do no I/O. */
  preload(totals: Iterable<{ orgId: string; service: Service; month: string; used: number }>): void {
    for (const t of totals) {
      this.counters.set(`${t.orgId}|${t.service}|${t.month}`, { orgId: t.orgId, service: t.service, used: t.used, reserved: 0 });
    }
  }

  reserve({ org, key, service, month, day, limit, units }: ReserveRequest): LocalReservation {
    const counter = this.counter(org.id, service, month);
    const used = counter.used + counter.reserved;
    const granted = limit === null || used + units <= limit;
    if (granted) counter.reserved += units;
    return { granted, used, limit, counter, units, keyId: key.id, day };
  }

  commit(reservation: Reservation): void {
    const { counter, units, keyId, day } = reservation as LocalReservation;
    counter.reserved -= units;
    counter.used += units;
    const id = `${counter.orgId}|${counter.service}|${day}|${keyId}`;
    const pending = this.pendingUsage.get(id);
    if (pending) pending.count += units;
    else this.pendingUsage.set(id, { orgId: counter.orgId, keyId, service: counter.service, day, count: units });
  }

  release(reservation: Reservation): void {
    const { granted, counter, units } = reservation as LocalReservation;
    if (granted) counter.reserved -= units;
  }

  used(orgId: string, service: Service, month: string): number {
    return this.counter(orgId, service, month).used;
  }

  touchKey(keyId: string, atMs: number): void {
    this.pendingKeyUse.set(keyId, atMs);
  }

  /** Usage committed but not yet written; read by reports so they are real-time. */
  pending(): { usage: Iterable<UsageIncrement>; keyUse: ReadonlyMap<string, number> } {
    return { usage: this.pendingUsage.values(), keyUse: this.pendingKeyUse };
  }

  /** Hands the buffered writes to the caller and starts a new buffer. */
  drain(): { usage: UsageIncrement[]; keyUse: Map<string, number> } {
    const drained = { usage: [...this.pendingUsage.values()], keyUse: this.pendingKeyUse };
    this.pendingUsage = new Map();
    this.pendingKeyUse = new Map();
    return drained;
  }

  /** Puts back writes that failed, so they are retried on the next flush. */
  restore(usage: UsageIncrement[], keyUse: Map<string, number>): void {
    for (const u of usage) {
      const id = `${u.orgId}|${u.service}|${u.day}|${u.keyId ?? ''}`;
      const pending = this.pendingUsage.get(id);
      if (pending) pending.count += u.count;
      else this.pendingUsage.set(id, { ...u });
    }
    for (const [keyId, at] of keyUse) if (!this.pendingKeyUse.has(keyId)) this.pendingKeyUse.set(keyId, at);
  }
}
