/**
 * API keys in the SQLite store. Each write of a key stamps its row with `nextRevision`, for the
 * directories to pick up; functions that write run inside the caller's transaction (SqliteStore
 * wraps them, and announces the write).
 */
import type Database from 'better-sqlite3';
import { KeyLimitReached, StoreConflict, type KeyRoll } from '../store.js';
import { withPendingUse } from '../store-views.js';
import { TIER_ACTIVE_KEYS } from '../tiers.js';
import type { ApiKeyRecord, KeyChanges, Tier } from '../types.js';
import { listColumn, toKey, type KeyRow } from './rows.js';

/** Refuses a new key of an organization at its tier's active-key limit. Call in the key's (immediate) transaction. */
function checkKeyRoom(db: Database.Database, orgId: string, nowIso: string): void {
  const org = db.prepare<[string], { tier: Tier }>('SELECT tier FROM organizations WHERE id = ?').get(orgId);
  if (!org) throw new StoreConflict(`no organization ${orgId}`);
  const { n } = db
    .prepare<[string, string], { n: number }>(
      "SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND status = 'active' AND (expires_at IS NULL OR expires_at > ?)",
    )
    .get(orgId, nowIso)!;
  if (n >= TIER_ACTIVE_KEYS[org.tier]) throw new KeyLimitReached(org.tier);
}

/** Call in an immediate transaction: the count and the insert then hold the file's write lock, so no other process inserts between them. */
export function insertKey(db: Database.Database, key: ApiKeyRecord, nowIso: string, nextRevision: () => number): void {
  checkKeyRoom(db, key.orgId, nowIso);
  db.prepare(
    `INSERT INTO api_keys (id, org_id, name, hint, hash, scopes, status, created_by, allowed_origins, allowed_ips, expires_at,
             per_minute, previous_hash, previous_hash_expires_at, created_at, last_used_at, revoked_at, rev)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    key.id,
    key.orgId,
    key.name,
    key.hint,
    key.hash,
    listColumn(key.scopes),
    key.status,
    key.createdBy,
    listColumn(key.allowedOrigins),
    listColumn(key.allowedIps),
    key.expiresAt,
    JSON.stringify(key.perMinute),
    key.previousHash,
    key.previousHashExpiresAt,
    key.createdAt,
    key.lastUsedAt,
    key.revokedAt,
    nextRevision(),
  );
}

/** The organization's keys, oldest first, with the last-use times the ledger still buffers (`pendingUse`). */
export function listKeys(db: Database.Database, orgId: string, pendingUse: ReadonlyMap<string, number>): ApiKeyRecord[] {
  const rows = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at, rowid').all(orgId);
  return withPendingUse(rows.map(toKey), pendingUse);
}

export function revokeKey(
  db: Database.Database,
  orgId: string,
  keyId: string,
  atIso: string,
  nextRevision: () => number,
): ApiKeyRecord | null {
  const row = db
    .prepare<[string, number, string, string], KeyRow>(
      "UPDATE api_keys SET status = 'revoked', revoked_at = ?, rev = ? WHERE id = ? AND org_id = ? AND status = 'active' RETURNING *",
    )
    .get(atIso, nextRevision(), keyId, orgId);
  return row ? toKey(row) : null;
}

/** What an UPDATE of a key sets: `column = ?` assignments, and their values in order. */
export interface KeyAssignments {
  assignments: string;
  values: (string | null)[];
}

export function changeAssignments(changes: KeyChanges): KeyAssignments {
  const columns: [string, string | null][] = [];
  if (changes.name !== undefined) columns.push(['name', changes.name]);
  if (changes.scopes !== undefined) columns.push(['scopes', listColumn(changes.scopes)]);
  if (changes.allowedOrigins !== undefined) columns.push(['allowed_origins', listColumn(changes.allowedOrigins)]);
  if (changes.allowedIps !== undefined) columns.push(['allowed_ips', listColumn(changes.allowedIps)]);
  if (changes.expiresAt !== undefined) columns.push(['expires_at', changes.expiresAt]);
  if (changes.perMinute !== undefined) columns.push(['per_minute', JSON.stringify(changes.perMinute)]);
  // Nothing to change still answers whether the key exists.
  const assignments = columns.length === 0 ? 'name = name' : columns.map(([column]) => `${column} = ?`).join(', ');
  return { assignments, values: columns.map(([, value]) => value) };
}

export function rollAssignments(roll: KeyRoll): KeyAssignments {
  return {
    assignments: 'previous_hash = CASE WHEN ? IS NULL THEN NULL ELSE hash END, previous_hash_expires_at = ?, hash = ?, hint = ?',
    values: [roll.previousHashExpiresAt, roll.previousHashExpiresAt, roll.hash, roll.hint],
  };
}

/** Updates an active key of the organization in one statement; the updated key, or null. */
export function writeActiveKey(
  db: Database.Database,
  orgId: string,
  keyId: string,
  { assignments, values }: KeyAssignments,
  nextRevision: () => number,
): ApiKeyRecord | null {
  const row = db
    .prepare<(string | number | null)[], KeyRow>(
      `UPDATE api_keys SET ${assignments}, rev = ? WHERE id = ? AND org_id = ? AND status = 'active' RETURNING *`,
    )
    .get(...values, nextRevision(), keyId, orgId);
  return row ? toKey(row) : null;
}
