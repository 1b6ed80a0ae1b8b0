/**
 * Usage in the SQLite store: the daily counts (usage_daily) the quota ledger starts from and
 * writes to on each flush, and the usage reports, which add what the ledger still buffers.
 */
import type Database from 'better-sqlite3';
import { monthBounds, monthKey } from '../../clock.js';
import { LocalLedger } from '../local-ledger.js';
import type { UsageCount } from '../store-views.js';
import type { Service, UsageIncrement } from '../types.js';

function lastDayOfMonth(month: string): string {
  const { end } = monthBounds(Date.parse(`${month}-01T00:00:00Z`));
  return new Date(end - 86_400_000).toISOString().slice(0, 10);
}

function monthTotals(db: Database.Database, month: string): { orgId: string; service: Service; month: string; used: number }[] {
  const rows = db
    .prepare<[string, string], { org_id: string; service: Service; n: number }>(
      'SELECT org_id, service, SUM(count) AS n FROM usage_daily WHERE day BETWEEN ? AND ? GROUP BY org_id, service',
    )
    .all(`${month}-01`, lastDayOfMonth(month));
  return rows.map((r) => ({ orgId: r.org_id, service: r.service, month, used: r.n }));
}

/** The ledger over the file's recorded usage, with the current month (at `nowMs`) loaded. */
export function newLedger(db: Database.Database, nowMs: number): LocalLedger {
  const monthUsed = db.prepare<[string, string, string, string], { n: number | null }>(
    'SELECT SUM(count) AS n FROM usage_daily WHERE org_id = ? AND service = ? AND day BETWEEN ? AND ?',
  );
  const ledger = new LocalLedger((orgId, service, month) => monthUsed.get(orgId, service, `${month}-01`, lastDayOfMonth(month))?.n ?? 0);
  ledger.preload(monthTotals(db, monthKey(nowMs)));
  return ledger;
}

/** Recorded usage between two days, plus what the ledger buffers and has not written yet. */
export function usageRows(db: Database.Database, ledger: LocalLedger, orgId: string, fromDay: string, toDay: string): UsageCount[] {
  const rows: UsageCount[] = db
    .prepare<[string, string, string], { key_id: string; service: Service; day: string; count: number }>(
      'SELECT key_id, service, day, count FROM usage_daily WHERE org_id = ? AND day BETWEEN ? AND ?',
    )
    .all(orgId, fromDay, toDay)
    .map((r) => ({ keyId: r.key_id || null, service: r.service, day: r.day, count: r.count }));
  for (const u of ledger.pending().usage) {
    if (u.orgId === orgId && u.day >= fromDay && u.day <= toDay) rows.push(u);
  }
  return rows;
}

/** Adds recorded usage directly (imports of history, test fixtures); the ledger is not told. */
export function recordUsage(db: Database.Database, increments: readonly UsageIncrement[]): void {
  const upsert = db.prepare(
    `INSERT INTO usage_daily (org_id, service, day, key_id, count) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_id, service, day, key_id) DO UPDATE SET count = count + excluded.count`,
  );
  db.transaction(() => {
    for (const u of increments) upsert.run(u.orgId, u.service, u.day, u.keyId ?? '', u.count);
  })();
}

/** Writes the ledger's buffered usage and last-use times in one transaction; on failure the ledger keeps them. */
export function flush(db: Database.Database, ledger: LocalLedger): void {
  const { usage, keyUse } = ledger.drain();
  if (usage.length === 0 && keyUse.size === 0) return;
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  try {
    db.transaction(() => {
      recordUsage(db, usage);
      for (const [keyId, at] of keyUse) touch.run(new Date(at).toISOString(), keyId);
    })();
  } catch (error) {
    ledger.restore(usage, keyUse);
    throw error;
  }
}
