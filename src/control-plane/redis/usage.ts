/** Reading usage reports out of the day-usage hashes. */
import { dayKey } from '../../clock.js';
import { usageByDay, usageByKey } from '../store-views.js';
import type { DailyUsage, KeyUsage, Service } from '../types.js';
import type { RedisLedger } from './ledger.js';
import type { Hash } from './records.js';
import { RedisStorePart, type RedisContext } from './store-part.js';

/** Every UTC day from `fromDay` to `toDay` inclusive (`YYYY-MM-DD`). */
export function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${fromDay}T00:00:00Z`); ms <= Date.parse(`${toDay}T00:00:00Z`); ms += 86_400_000) {
    days.push(dayKey(ms));
  }
  return days;
}

export interface UsageRow {
  day: string;
  service: Service;
  /** '' for usage not tied to a key. */
  keyId: string;
  count: number;
}

/**
 * The rows of the days' hashes (fields `<service>|<keyId>`), in SQLite's usage_daily order
 * (service, day, key) so that reports list keys in the same order. Fields that releases brought
 * back to zero are left out.
 */
export function summarizeDays(days: readonly { day: string; usage: Hash }[]): UsageRow[] {
  const rows: UsageRow[] = [];
  for (const { day, usage } of days) {
    for (const [field, value] of Object.entries(usage)) {
      const count = Number(value);
      const separator = field.indexOf('|');
      if (count > 0) rows.push({ day, service: field.slice(0, separator) as Service, keyId: field.slice(separator + 1), count });
    }
  }
  return rows.sort((a, b) => a.service.localeCompare(b.service) || a.day.localeCompare(b.day) || a.keyId.localeCompare(b.keyId));
}

export class RedisUsageReports extends RedisStorePart {
  constructor(
    context: RedisContext,
    /** Reports this node's served units before a report is read. */
    private readonly ledger: RedisLedger,
  ) {
    super(context);
  }

  /** The day-usage hashes of the range, oldest first; this node's served units are reported first (other nodes' lag by up to a second). */
  private usageDays(orgId: string, fromDay: string, toDay: string): Promise<{ day: string; usage: Hash }[]> {
    return this.guarded(async () => {
      await this.ledger.flush();
      return Promise.all(
        daysBetween(fromDay, toDay).map(async (day) => ({ day, usage: await this.client.hgetall(this.names.dayUsage(orgId, day)) })),
      );
    });
  }

  async usageByKey(orgId: string, fromDay: string, toDay: string): Promise<KeyUsage[]> {
    return usageByKey(summarizeDays(await this.usageDays(orgId, fromDay, toDay)));
  }

  async usageByDay(orgId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    return usageByDay(summarizeDays(await this.usageDays(orgId, fromDay, toDay)));
  }
}
