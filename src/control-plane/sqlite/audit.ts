/** The audit log in the SQLite file: rows inserted, never updated or deleted; each entry whole as JSON. */
import type Database from 'better-sqlite3';
import type { AuditEntry } from '../types.js';

export function appendAudit(db: Database.Database, entry: AuditEntry): void {
  db.prepare('INSERT INTO audit_log (id, org_id, at, entry) VALUES (?, ?, ?, ?)').run(
    entry.id,
    entry.orgId,
    entry.at,
    JSON.stringify(entry),
  );
}

/** Newest first; entries of one instant in the order they were written, latest first. */
export function listAudit(db: Database.Database, orgId: string, limit: number): AuditEntry[] {
  return db
    .prepare<[string, number], { entry: string }>('SELECT entry FROM audit_log WHERE org_id = ? ORDER BY at DESC, rowid DESC LIMIT ?')
    .all(orgId, limit)
    .map((row) => JSON.parse(row.entry) as AuditEntry);
}
