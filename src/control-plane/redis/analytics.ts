/**
 * The usage analytics' daily counts in Redis (../analytics.ts): a hash per organization and day,
 * `<key id>|<service>|<endpoint>|<status class>` → count, added to (HINCRBY) by each node's flush.
 */
import { mergeRows, type AnalyticsCounter, type AnalyticsRow, type StatusClass } from '../analytics.js';
import type { Service } from '../types.js';
import { RedisStorePart } from './store-part.js';

/** The UTC days from one to the other, inclusive. */
function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${fromDay}T00:00:00Z`); ms <= Date.parse(`${toDay}T00:00:00Z`); ms += 86_400_000) {
    days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

export class RedisAnalytics extends RedisStorePart {
  /** Writes what the counter holds; what fails to be written is put back for the next flush. */
  async flush(counter: AnalyticsCounter): Promise<void> {
    const rows = counter.drain();
    if (rows.length === 0) return;
    try {
      await this.guarded(async () => {
        const batch = this.client.pipeline();
        for (const r of rows)
          batch.hincrby(this.names.analytics(r.orgId, r.day), `${r.keyId}|${r.service}|${r.endpoint}|${r.status}`, r.count);
        const results = (await batch.exec()) ?? [];
        const failed = results.find(([error]) => error);
        if (failed) throw failed[0];
      });
    } catch (error) {
      counter.restore(rows);
      throw error;
    }
  }

  rows(orgId: string, fromDay: string, toDay: string, counter: AnalyticsCounter): Promise<AnalyticsRow[]> {
    return this.guarded(async () => {
      const days = daysBetween(fromDay, toDay);
      const batch = this.client.pipeline();
      for (const day of days) batch.hgetall(this.names.analytics(orgId, day));
      const results = (await batch.exec()) ?? [];
      const stored: AnalyticsRow[] = [];
      results.forEach(([error, hash], i) => {
        if (error) throw error;
        for (const [field, count] of Object.entries(hash as Record<string, string>)) {
          const [keyId, service, endpoint, status] = field.split('|') as [string, Service, string, StatusClass];
          stored.push({ orgId, keyId, service, endpoint, status, day: days[i]!, count: Number(count) });
        }
      });
      return mergeRows([...stored, ...counter.pendingOf(orgId, fromDay, toDay)]);
    });
  }
}
