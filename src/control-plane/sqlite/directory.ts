/**
 * The in-memory directory of keys and organizations over the SQLite file. Every key and
 * organization write stamps the row with a new revision; `sync()` asks SQLite's `data_version`
 * whether another connection committed (or this one wrote), and only then loads the rows whose
 * revision is newer than the last one seen. The store calls it after its own writes, when another
 * process announces a write, and on a slow timer; never per request.
 */
import type Database from 'better-sqlite3';
import { KeyIndex } from '../key-index.js';
import type { Directory } from '../store.js';
import type { ApiKeyRecord, Organization } from '../types.js';
import { toKey, toOrg, type KeyRow, type OrgRow } from './rows.js';

export class SqliteDirectory implements Directory {
  private readonly keys = new KeyIndex();
  private readonly orgs = new Map<string, Organization>();
  private revision = -1;
  private dataVersion = -1;
  private ownWrite = true;
  private readonly orgsSince: Database.Statement<[number], OrgRow>;
  private readonly keysSince: Database.Statement<[number], KeyRow>;
  private readonly currentRevision: Database.Statement<[], { value: string }>;
  private readonly dataVersionNow: Database.Statement<[], number>;

  constructor(db: Database.Database) {
    this.dataVersionNow = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.orgsSince = db.prepare('SELECT * FROM organizations WHERE rev > ?');
    this.keysSince = db.prepare('SELECT * FROM api_keys WHERE rev > ?');
    this.currentRevision = db.prepare("SELECT value FROM meta WHERE key = 'revision'");
    this.sync();
  }

  /** Marks that this process wrote a key or organization, so the next sync loads it. */
  noteOwnWrite(): void {
    this.ownWrite = true;
  }

  sync(): void {
    const dataVersion = this.dataVersionNow.get()!;
    if (dataVersion === this.dataVersion && !this.ownWrite) return;
    this.dataVersion = dataVersion;
    this.ownWrite = false;
    const revision = Number(this.currentRevision.get()?.value ?? 0);
    if (revision === this.revision) return;
    for (const row of this.orgsSince.all(this.revision)) this.orgs.set(row.id, toOrg(row));
    for (const row of this.keysSince.all(this.revision)) this.keys.put(toKey(row));
    this.revision = revision;
  }

  /** The file is always at hand. */
  unavailable(): null {
    return null;
  }

  /** Active and revoked keys alike, so that a revoked key gets its own message. */
  keyByHash(hash: string): ApiKeyRecord | undefined {
    return this.keys.byValueHash(hash);
  }

  org(id: string): Organization | undefined {
    return this.orgs.get(id);
  }
}
