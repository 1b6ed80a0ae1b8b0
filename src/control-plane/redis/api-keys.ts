/**
 * API keys in the Redis store. Each write of a key counts its record's `version` up (the quota
 * grant compares it with the directory's, ledger.ts), and is announced to every node's directory.
 */
import type { KeyRoll } from '../store.js';
import { withPendingUse } from '../store-views.js';
import type { ApiKeyRecord, KeyChanges } from '../types.js';
import { RedisKeyInserts } from './key-inserts.js';
import type { RedisLedger } from './ledger.js';
import { fromPairs, isPresent, keyFields, toKey } from './records.js';
import { RedisStorePart, type RedisContext } from './store-part.js';

/** A key record of no consequence, to convert the fields of a partial change with `keyFields`. */
const BLANK_KEY: ApiKeyRecord = toKey({ id: '', orgId: '', name: '', hint: '', hash: '', scopes: '', status: 'active', createdAt: '' });

/** The `version` field of a new key's hash; each later write of the key counts up from it. */
const FIRST_VERSION = '1';

export class RedisApiKeys extends RedisStorePart {
  private readonly keyInserts: RedisKeyInserts;

  constructor(
    context: RedisContext,
    /** Holds the last-use times not yet written, which listings show. */
    private readonly ledger: RedisLedger,
  ) {
    super(context);
    this.keyInserts = new RedisKeyInserts(this.client, this.names);
  }

  insertKey(key: ApiKeyRecord): Promise<void> {
    return this.guarded(async () => {
      await this.keyInserts.insert(key, FIRST_VERSION, new Date(this.now()).toISOString());
      this.directory.putKey(key, FIRST_VERSION);
      await this.announce(`key ${key.hash}`);
    });
  }

  listKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return this.guarded(async () => {
      const hashes = await this.client.lrange(this.names.orgKeys(orgId), 0, -1);
      const records = await Promise.all(hashes.map((hash) => this.client.hgetall(this.names.key(hash))));
      return withPendingUse(records.filter(isPresent).map(toKey), this.ledger.pendingKeyUses());
    });
  }

  revokeKey(orgId: string, keyId: string, atIso: string): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(keyId, (hash) => this.scripts.revokeKey([this.names.key(hash)], [orgId, keyId, atIso]));
  }

  /** Runs a key script on the active key `keyId` of the organization; the key it wrote, or null. */
  private writeActiveKey(keyId: string, write: (hash: string) => Promise<unknown>): Promise<ApiKeyRecord | null> {
    return this.guarded(async () => {
      const hash = await this.client.hget(this.names.keyIds, keyId);
      if (!hash) return null;
      const pairs = (await write(hash)) as string[] | null;
      if (!pairs) return null;
      const fields = fromPairs(pairs);
      const key = toKey(fields);
      this.directory.putKey(key, fields.version!);
      await this.announce(`key ${key.hash}`);
      return key;
    });
  }

  updateKey(orgId: string, keyId: string, changes: KeyChanges): Promise<ApiKeyRecord | null> {
    return this.writeActiveKey(keyId, (hash) => {
      const fields = keyFields({ ...BLANK_KEY, ...changes });
      const set: Record<string, string> = {};
      const removed: string[] = [];
      for (const field of Object.keys(changes)) {
        if (fields[field] === undefined) removed.push(field);
        else set[field] = fields[field];
      }
      return this.scripts.updateKey([this.names.key(hash)], [orgId, keyId, JSON.stringify(set), JSON.stringify(removed)]);
    });
  }

  rollKey(orgId: string, keyId: string, roll: KeyRoll): Promise<ApiKeyRecord | null> {
    const n = this.names;
    return this.writeActiveKey(keyId, (hash) =>
      this.scripts.rollKey(
        [n.key(hash), n.key(roll.hash), n.keyIds, n.keys, n.orgKeys(orgId)],
        [orgId, keyId, hash, roll.hash, roll.hint, roll.previousHashExpiresAt ?? ''],
      ),
    );
  }
}
