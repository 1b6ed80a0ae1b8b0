/**
 * Usage analytics: every metered request whose key is known, counted per key, service, endpoint,
 * status class and UTC day, whatever it was answered (a 200, a 400, a 429 of a limit or the quota,
 * a 5xx). Counted in memory on the request path (one map entry per combination) and written by the
 * store's periodic flush, as usage is; reports add what is not yet written, so they are real-time.
 */
import type { Service } from './types.js';

export const STATUS_CLASSES = ['2xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** 2xx and 304 (answered) as `2xx`; 429 apart from the other 4xx. */
export const statusClass = (status: number): StatusClass => (status < 400 ? '2xx' : status === 429 ? '429' : status < 500 ? '4xx' : '5xx');

export interface AnalyticsRow {
  orgId: string;
  keyId: string;
  service: Service;
  /** The route, relative to `/api/v1` (e.g. `/geocoding/search`). */
  endpoint: string;
  status: StatusClass;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
}

const rowId = (row: Omit<AnalyticsRow, 'count'>) => `${row.orgId}|${row.keyId}|${row.service}|${row.endpoint}|${row.status}|${row.day}`;

const CLASS_INDEX: Record<StatusClass, number> = { '2xx': 0, '4xx': 1, '429': 2, '5xx': 3 };

/** One key's counts at one endpoint on one day, a row per status class. */
interface Slot {
  day: string;
  rows: AnalyticsRow[];
}

/**
 * Counts by key id, then endpoint (both strings the server holds, whose hashes are kept): a
 * request's count is two map look-ups and an increment, where one composite string key would be
 * built and hashed anew every time (about 0.7 µs).
 */
export class AnalyticsCounter {
  private byKey = new Map<string, Map<string, Slot>>();
  /** Rows of days gone by, still to be written. */
  private earlier: AnalyticsRow[] = [];

  count(orgId: string, keyId: string, service: Service, endpoint: string, status: number, day: string): void {
    this.add(orgId, keyId, service, endpoint, statusClass(status), day, 1);
  }

  private add(orgId: string, keyId: string, service: Service, endpoint: string, status: StatusClass, day: string, n: number): void {
    let endpoints = this.byKey.get(keyId);
    if (!endpoints) {
      endpoints = new Map();
      this.byKey.set(keyId, endpoints);
    }
    let slot = endpoints.get(endpoint);
    if (slot?.day !== day) {
      if (slot) this.earlier.push(...slot.rows);
      slot = { day, rows: STATUS_CLASSES.map((s) => ({ orgId, keyId, service, endpoint, status: s, day, count: 0 })) };
      endpoints.set(endpoint, slot);
    }
    slot.rows[CLASS_INDEX[status]]!.count += n;
  }

  private rows(): AnalyticsRow[] {
    const rows = this.earlier.filter((row) => row.count > 0);
    for (const endpoints of this.byKey.values()) {
      for (const slot of endpoints.values()) for (const row of slot.rows) if (row.count > 0) rows.push(row);
    }
    return rows;
  }

  /** Counts not yet written, of one organization between two days inclusive. */
  pendingOf(orgId: string, fromDay: string, toDay: string): AnalyticsRow[] {
    return this.rows().filter((row) => row.orgId === orgId && row.day >= fromDay && row.day <= toDay);
  }

  /** Hands the counts to the writer and starts afresh. */
  drain(): AnalyticsRow[] {
    const rows = this.rows();
    this.byKey = new Map();
    this.earlier = [];
    return rows;
  }

  /** Puts back counts whose write failed, for the next flush. */
  restore(rows: readonly AnalyticsRow[]): void {
    for (const r of rows) this.add(r.orgId, r.keyId, r.service, r.endpoint, r.status, r.day, r.count);
  }
}

/** Rows of the same organization, key, service, endpoint, status and day added up (written ones and pending ones). */
export function mergeRows(rows: readonly AnalyticsRow[]): AnalyticsRow[] {
  const merged = new Map<string, AnalyticsRow>();
  for (const row of rows) {
    const id = rowId(row);
    const known = merged.get(id);
    if (known) known.count += row.count;
    else merged.set(id, { ...row });
  }
  return [...merged.values()];
}
