/**
 * A new key in Redis, within its organization's active-key limit (TIER_ACTIVE_KEYS): one Lua
 * script counts the organization's active keys and writes the key, atomically across every node,
 * so a burst of creations through several nodes stops exactly at the limit.
 */
import type { Redis } from 'ioredis';
import { KeyLimitReached, StoreConflict } from '../store.js';
import { TIER_ACTIVE_KEYS } from '../tiers.js';
import type { ApiKeyRecord, Tier } from '../types.js';
import type { ControlKeys } from './keys.js';
import { keyFields } from './records.js';
import { defineScript, HSET_JSON, type Script } from './scripts.js';

/**
 * KEYS key, keyIds, keys, orgKeys, org; ARGV key JSON, key id, key hash, the key records' name
 * prefix, JSON of the active-key limit by tier, now (ISO). Answers {'ok'}, {'no-org'} or {'limit', tier}.
 * A key counts while active and unexpired (ISO instants compare as strings).
 */
const INSERT = `${HSET_JSON}
local tier = redis.call('HGET', KEYS[5], 'tier')
if not tier then return {'no-org'} end
local limit = cjson.decode(ARGV[5])[tier]
local active = 0
for _, hash in ipairs(redis.call('LRANGE', KEYS[4], 0, -1)) do
  local key = redis.call('HMGET', ARGV[4] .. hash, 'status', 'expiresAt')
  if key[1] == 'active' and (not key[2] or key[2] > ARGV[6]) then active = active + 1 end
end
if active >= limit then return {'limit', tier} end
hset_json(KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[3])
return {'ok'}`;

export class RedisKeyInserts {
  private readonly script: Script;

  constructor(
    client: Redis,
    private readonly names: ControlKeys,
  ) {
    this.script = defineScript(client, 'insertKeyWithinLimit', 5, INSERT);
  }

  /** Writes the key's record (with its first `version`) and indexes; KeyLimitReached or StoreConflict (no organization) instead. */
  async insert(key: ApiKeyRecord, version: string, nowIso: string): Promise<void> {
    const n = this.names;
    const [outcome, tier] = (await this.script(
      n.key(key.hash),
      n.keyIds,
      n.keys,
      n.orgKeys(key.orgId),
      n.org(key.orgId),
      JSON.stringify({ ...keyFields(key), version }),
      key.id,
      key.hash,
      n.key(''),
      JSON.stringify(TIER_ACTIVE_KEYS),
      nowIso,
    )) as [string, string?];
    if (outcome === 'no-org') throw new StoreConflict(`no organization ${key.orgId}`);
    if (outcome === 'limit') throw new KeyLimitReached(tier as Tier);
  }
}
