/**
 * SQLite files this step writes in bulk: the index itself, its staging table, the OSM spills. No
 * journal and no syncs (a failed build deletes them), a page cache from the memory budget, and
 * writes grouped into large transactions.
 */
import Database from 'better-sqlite3';

/** Rows written per transaction: one commit per row would cost more than the rows. */
const ROWS_PER_TRANSACTION = 10_000;

export function scratchDatabase(file: string, cacheKiB: number): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${Math.round(cacheKiB)}`);
  return db;
}

/** Keeps a connection inside one transaction while rows stream in, committing every `ROWS_PER_TRANSACTION`. */
export class BulkWrites {
  private rows = 0;

  constructor(private readonly db: Database.Database) {}

  run(statement: Database.Statement, ...params: unknown[]): Database.RunResult {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    const result = statement.run(...params);
    if (++this.rows % ROWS_PER_TRANSACTION === 0) this.db.exec('COMMIT');
    return result;
  }

  /** Commits what is written so far, e.g. before the rows are read back. */
  commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }
}
