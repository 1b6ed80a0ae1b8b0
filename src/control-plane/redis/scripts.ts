/**
 * The Lua scripts behind every multi-record write and the quota reservation: Redis runs each
 * script alone, so their checks and writes are atomic across all nodes. Records travel as JSON
 * objects of string fields (see records.ts).
 */
import type { Redis } from 'ioredis';

/** Helpers prepended to the scripts that need them. */
const HSET_JSON = `
local function hset_json(key, json)
  local flat = {}
  for field, value in pairs(cjson.decode(json)) do
    flat[#flat + 1] = field
    flat[#flat + 1] = value
  end
  redis.call('HSET', key, unpack(flat))
end
`;

/**
 * Writes a user whose email the caller checked is free: record, email index, organization's member
 * list, and its owners when the user is one.
 */
const ADD_USER = `${HSET_JSON}
local function add_user(emails, user_key, org_users, org_owners, email, user_id, user_json)
  redis.call('HSET', emails, email, user_id)
  hset_json(user_key, user_json)
  redis.call('RPUSH', org_users, user_id)
  if cjson.decode(user_json).role == 'owner' then redis.call('SADD', org_owners, user_id) end
end
`;

/**
 * Returns false unless KEYS[1] is an active key with the id ARGV[2] of the organization ARGV[1];
 * else counts the write that follows in the key's `version`, which reservations compare.
 */
const ACTIVE_KEY_CHECK = `
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[2]
  or redis.call('HGET', KEYS[1], 'orgId') ~= ARGV[1]
  or redis.call('HGET', KEYS[1], 'status') ~= 'active' then
  return false
end
redis.call('HINCRBY', KEYS[1], 'version', 1)
`;

const SCRIPTS = {
  /** KEYS emails, orgNames, orgs, org, user, orgUsers, orgOwners; ARGV email, lower-cased name, org id, user id, org JSON, user JSON. */
  createUserWithOrg: {
    keys: 7,
    lua: `${ADD_USER}
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'org-name-taken' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'email-taken' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
hset_json(KEYS[4], ARGV[5])
add_user(KEYS[1], KEYS[5], KEYS[6], KEYS[7], ARGV[1], ARGV[4], ARGV[6])
return 'ok'`,
  },
  /** KEYS emails, org, user, orgUsers, orgOwners; ARGV email, user id, user JSON. Answers {status, org pairs}. */
  createUserInOrg: {
    keys: 5,
    lua: `${ADD_USER}
if redis.call('EXISTS', KEYS[2]) == 0 then return {'no-org'} end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return {'email-taken'} end
add_user(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2], ARGV[3])
return {'ok', redis.call('HGETALL', KEYS[2])}`,
  },
  /**
   * KEYS invitation, emails, org, user, orgUsers, orgOwners; ARGV now, org id (as the caller read
   * it), email, user id, user JSON without its role. The invitation must still be of that
   * organization, pending and unexpired; the user gets the invitation's role. Answers {status,
   * org pairs, role}.
   */
  acceptInvitation: {
    keys: 6,
    lua: `${ADD_USER}
local invitation = KEYS[1]
if redis.call('HGET', invitation, 'orgId') ~= ARGV[2]
  or redis.call('HEXISTS', invitation, 'acceptedAt') == 1
  or redis.call('HEXISTS', invitation, 'revokedAt') == 1
  or redis.call('HGET', invitation, 'expiresAt') <= ARGV[1]
  or redis.call('EXISTS', KEYS[3]) == 0 then
  return {'unusable'}
end
if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then return {'email-taken'} end
local user = cjson.decode(ARGV[5])
user.role = redis.call('HGET', invitation, 'role') or 'member'
add_user(KEYS[2], KEYS[4], KEYS[5], KEYS[6], ARGV[3], ARGV[4], cjson.encode(user))
redis.call('HSET', invitation, 'acceptedBy', ARGV[4], 'acceptedAt', ARGV[1])
return {'ok', redis.call('HGETALL', KEYS[3]), user.role}`,
  },
  /** KEYS key; ARGV org id, key id, at. The revoked key's pairs, or nil when not an active key of the organization. */
  revokeKey: {
    keys: 1,
    lua: `${ACTIVE_KEY_CHECK}
redis.call('HSET', KEYS[1], 'status', 'revoked', 'revokedAt', ARGV[3])
return redis.call('HGETALL', KEYS[1])`,
  },
  /**
   * KEYS key; ARGV org id, key id, JSON of the fields to set, JSON list of the fields to remove
   * (set to null). The edited key's pairs, or nil when not an active key of the organization.
   */
  updateKey: {
    keys: 1,
    lua: `${HSET_JSON}${ACTIVE_KEY_CHECK}
if ARGV[3] ~= '{}' then hset_json(KEYS[1], ARGV[3]) end
local removed = cjson.decode(ARGV[4])
if #removed > 0 then redis.call('HDEL', KEYS[1], unpack(removed)) end
return redis.call('HGETALL', KEYS[1])`,
  },
  /**
   * KEYS key (current hash), key (new hash), keyIds, keys, orgKeys; ARGV org id, key id, current
   * hash, new hash, new hint, until when the current value keeps working ('' for not at all). The
   * record moves to the new hash; the rolled key's pairs, or nil when not an active key.
   */
  rollKey: {
    keys: 5,
    lua: `${ACTIVE_KEY_CHECK}
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[2], 'hash', ARGV[4], 'hint', ARGV[5])
if ARGV[6] == '' then
  redis.call('HDEL', KEYS[2], 'previousHash', 'previousHashExpiresAt')
else
  redis.call('HSET', KEYS[2], 'previousHash', ARGV[3], 'previousHashExpiresAt', ARGV[6])
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4])
redis.call('SREM', KEYS[4], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[4])
local position = redis.call('LPOS', KEYS[5], ARGV[3])
if position then redis.call('LSET', KEYS[5], position, ARGV[4]) end
return redis.call('HGETALL', KEYS[2])`,
  },
  /**
   * KEYS user, orgOwners; ARGV org id, user id, role. The user's pairs; nil when not a member of
   * the organization; 'last-owner' when the change would leave it without an owner.
   */
  setRole: {
    keys: 2,
    lua: `
if redis.call('HGET', KEYS[1], 'orgId') ~= ARGV[1] then return false end
if redis.call('HGET', KEYS[1], 'role') == 'owner' and ARGV[3] ~= 'owner' and redis.call('SCARD', KEYS[2]) <= 1 then
  return 'last-owner'
end
redis.call('HSET', KEYS[1], 'role', ARGV[3])
if ARGV[3] == 'owner' then redis.call('SADD', KEYS[2], ARGV[2]) else redis.call('SREM', KEYS[2], ARGV[2]) end
return redis.call('HGETALL', KEYS[1])`,
  },
  /** KEYS invitation; ARGV org id, invitation id, at. The revoked invitation's pairs, or nil when not pending. */
  revokeInvitation: {
    keys: 1,
    lua: `
local invitation = KEYS[1]
if redis.call('HGET', invitation, 'id') ~= ARGV[2]
  or redis.call('HGET', invitation, 'orgId') ~= ARGV[1]
  or redis.call('HEXISTS', invitation, 'acceptedAt') == 1
  or redis.call('HEXISTS', invitation, 'revokedAt') == 1
  or redis.call('HGET', invitation, 'expiresAt') <= ARGV[3] then
  return false
end
redis.call('HSET', invitation, 'revokedAt', ARGV[3])
return redis.call('HGETALL', invitation)`,
  },
  /**
   * KEYS org; ARGV the custom quotas JSON the new fields were computed from ('' when they replace
   * it), org JSON. Compare-and-set: 'changed' when another writer changed the custom quotas since.
   */
  setTier: {
    keys: 1,
    lua: `${HSET_JSON}
local current = redis.call('HGET', KEYS[1], 'customQuotas')
if not current then return 'no-org' end
if ARGV[1] ~= '' and current ~= ARGV[1] then return 'changed' end
hset_json(KEYS[1], ARGV[2])
return 'ok'`,
  },
  /**
   * KEYS key, org, month usage, day usage; ARGV service, units, day field, the caller's limit (-1:
   * unlimited; used when the organization has no record), the key's version the caller knows.
   * Answers {outcome, used, limit, stale}: outcome 1 granted (and counted), 0 over the limit, 2 the
   * key is not active; stale 1 when the key was written since the caller's version (edited, or
   * rolled to a new hash, which leaves no record under the old one): the caller re-reads it and
   * checks again before it serves, so an edit applies on every node from the next request.
   */
  reserve: {
    keys: 4,
    lua: `
local used = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
local limit = tonumber(redis.call('HGET', KEYS[2], 'quota:' .. ARGV[1]) or ARGV[4])
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'active' then return {2, used, limit, 0} end
local stale = (not status or (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[5]) and 1 or 0
local units = tonumber(ARGV[2])
if limit >= 0 and used + units > limit then return {0, used, limit, stale} end
redis.call('HINCRBY', KEYS[3], ARGV[1], units)
redis.call('HINCRBY', KEYS[4], ARGV[3], units)
return {1, used, limit, stale}`,
  },
} as const;

type ScriptName = keyof typeof SCRIPTS;
export type Scripts = Record<ScriptName, (keys: string[], args: (string | number)[]) => Promise<unknown>>;

/** Registers the scripts on the connection (EVALSHA, loaded on first use) and returns callers for them. */
export function defineScripts(client: Redis): Scripts {
  const scripts = {} as Scripts;
  for (const [name, { keys, lua }] of Object.entries(SCRIPTS) as [ScriptName, { keys: number; lua: string }][]) {
    client.defineCommand(`waymark_${name}`, { numberOfKeys: keys, lua });
    const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[`waymark_${name}`]!;
    scripts[name] = (keyNames, args) => command.call(client, ...keyNames, ...args);
  }
  return scripts;
}
