/** The usage analytics' daily counts in the SQLite file (../analytics.ts), added to by each flush. */
import type Database from 'better-sqlite3';
import type { AnalyticsRow, StatusClass } from '../analytics.js';
import type { Service } from '../types.js';

export function addAnalytics(db: Database.Database, rows: readonly AnalyticsRow[]): void {
  const add = db.prepare(
    `INSERT INTO analytics_daily (org_id, day, key_id, service, endpoint, status, count) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (org_id, day, key_id, service, endpoint, status) DO UPDATE SET count = count + excluded.count`,
  );
  for (const r of rows) add.run(r.orgId, r.day, r.keyId, r.service, r.endpoint, r.status, r.count);
}

interface Row {
  day: string;
  key_id: string;
  service: string;
  endpoint: string;
  status: string;
  count: number;
}

export function analyticsRows(db: Database.Database, orgId: string, fromDay: string, toDay: string): AnalyticsRow[] {
  return db
    .prepare<[string, string, string], Row>(
      'SELECT day, key_id, service, endpoint, status, count FROM analytics_daily WHERE org_id = ? AND day BETWEEN ? AND ?',
    )
    .all(orgId, fromDay, toDay)
    .map((r) => ({
      orgId,
      keyId: r.key_id,
      service: r.service as Service,
      endpoint: r.endpoint,
      status: r.status as StatusClass,
      day: r.day,
      count: r.count,
    }));
}
