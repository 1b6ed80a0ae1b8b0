/**
 * The Lua scripts behind every multi-record write and the quota reservation: Redis runs each
 * script alone, so their checks and writes are atomic across all nodes. Records travel as JSON
 * objects of string fields (see records.ts).
 */
import type { Redis } from 'ioredis';
import { MEMBER_HELPERS, MEMBER_SCRIPTS } from './member-scripts.js';

/** Helpers prepended to the scripts that need them. */
export const HSET_JSON = `
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

/**
 * Quota leases (ledger.ts). A month-usage hash holds per service the units served (`<service>`),
 * the units out on leases (`leased:<service>`) and the units of expired leases never reported
 * (`lost:<service>`: a dead node may have served them, so they stay counted). The quota compares
 * the sum of the three. A lease is a hash (its month-usage key, service, units granted and
 * reported) and a member of the leases sorted set, scored by when it expires (Redis' clock).
 */
// Negations are written `0 - x`: Lua's -0 would reach HINCRBY as "-0", which it refuses.
const LEASE_HELPERS = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function month_total(usage, service)
  local counts = redis.call('HMGET', usage, service, 'leased:' .. service, 'lost:' .. service)
  return tonumber(counts[1] or '0') + tonumber(counts[2] or '0') + tonumber(counts[3] or '0')
end
-- A settled lease's hash stays a day, marked, so that a late or repeated report is recognized.
local function close_lease(lease, how)
  redis.call('HSET', lease, 'closed', how)
  redis.call('PEXPIRE', lease, 86400000)
end
local function settle_expired(leases, prefix, now)
  local expired = redis.call('ZRANGEBYSCORE', leases, '-inf', now, 'LIMIT', 0, 50)
  for _, id in ipairs(expired) do
    local lease = redis.call('HMGET', prefix .. id, 'usage', 'service', 'granted', 'reported')
    if lease[1] then
      local unreported = tonumber(lease[3]) - tonumber(lease[4])
      redis.call('HINCRBY', lease[1], 'leased:' .. lease[2], 0 - unreported)
      redis.call('HINCRBY', lease[1], 'lost:' .. lease[2], unreported)
      close_lease(prefix .. id, 'expired')
    end
    redis.call('ZREM', leases, id)
  end
  return #expired
end
`;

const SCRIPTS = {
  /**
   * KEYS emails, orgNames, orgs, org, user, orgUsers, orgOwners, orgSkeletons; ARGV email,
   * lower-cased name, org id, user id, org JSON, user JSON, the name's skeleton.
   */
  createUserWithOrg: {
    keys: 8,
    lua: `${ADD_USER}
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'org-name-taken' end
if redis.call('HEXISTS', KEYS[8], ARGV[7]) == 1 then return 'org-name-look-alike' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'email-taken' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[8], ARGV[7], ARGV[3])
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
   * KEYS invitation, emails, org, user, orgUsers, orgOwners, inviter; ARGV now, org id (as the
   * caller read it), email, user id, user JSON without its role, the roles that may make an
   * invitation of its role (as the caller read it). The invitation must still be of that
   * organization, pending and unexpired, and its maker still a member of it with one of those
   * roles; the user gets the invitation's role. Answers {status, org pairs, role}.
   */
  acceptInvitation: {
    keys: 7,
    lua: `${ADD_USER}${MEMBER_HELPERS}
local invitation = KEYS[1]
local inviter = redis.call('HMGET', KEYS[7], 'orgId', 'role')
if redis.call('HGET', invitation, 'orgId') ~= ARGV[2]
  or redis.call('HEXISTS', invitation, 'acceptedAt') == 1
  or redis.call('HEXISTS', invitation, 'revokedAt') == 1
  or redis.call('HGET', invitation, 'expiresAt') <= ARGV[1]
  or redis.call('EXISTS', KEYS[3]) == 0
  or inviter[1] ~= ARGV[2] or not listed(ARGV[6], inviter[2] or 'member') then
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
   * KEYS user, orgOwners, orgInvitations; ARGV org id, user id, role, the invitation roles the new
   * role may grant, now, the invitation key prefix. The user's pairs; nil when not a member of the
   * organization; 'last-owner' when the change would leave it without an owner. The member's
   * pending invitations for other roles are revoked.
   */
  setRole: {
    keys: 3,
    lua: `${MEMBER_HELPERS}
if redis.call('HGET', KEYS[1], 'orgId') ~= ARGV[1] then return false end
if redis.call('HGET', KEYS[1], 'role') == 'owner' and ARGV[3] ~= 'owner' and redis.call('SCARD', KEYS[2]) <= 1 then
  return 'last-owner'
end
revoke_invitations(KEYS[3], ARGV[6], ARGV[2], ARGV[4], ARGV[5])
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
   * KEYS org; ARGV the custom quotas and per-minute limits (JSON, a newline between) the new fields
   * were computed from ('' when they replace both), org JSON. Compare-and-set: 'changed' when
   * another writer changed the custom limits since.
   */
  setTier: {
    keys: 1,
    lua: `${HSET_JSON}
local current = redis.call('HGET', KEYS[1], 'customQuotas')
if not current then return 'no-org' end
local per_minute = redis.call('HGET', KEYS[1], 'customPerMinute') or '{}'
if ARGV[1] ~= '' and current .. '\\n' .. per_minute ~= ARGV[1] then return 'changed' end
hset_json(KEYS[1], ARGV[2])
return 'ok'`,
  },
  /**
   * Grants a quota lease. KEYS key, org, month usage, leases (sorted set), the new lease; ARGV
   * service, units wanted, units at least, the caller's limit (-1: unlimited; used when the
   * organization has no record), the key's version the caller knows, the lease id, the lease TTL
   * in ms, the prefix of lease keys. Settles expired leases first (see LEASE_HELPERS). Grants
   * min(wanted, max(at least, a quarter of what remains)), so blocks shrink to single units as
   * the quota runs out, or nothing when fewer than `at least` remain. Answers {outcome, used,
   * limit, stale, granted}: outcome 1 granted, 0 over the limit, 2 the key is not active; used
   * is the month's total (served, leased and lost) before the grant; stale as the key's version
   * differs from the caller's (it re-reads the key and checks again before it serves). A refusal
   * adds the units out on leases, some of which the nodes holding them may not have taken
   * (ledger.ts recalls them).
   */
  acquireLease: {
    keys: 5,
    lua: `${LEASE_HELPERS}
local now = now_ms()
settle_expired(KEYS[4], ARGV[8], now)
local service = ARGV[1]
local used = month_total(KEYS[3], service)
local limit = tonumber(redis.call('HGET', KEYS[2], 'quota:' .. service) or ARGV[4])
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'active' then return {2, used, limit, 0, 0} end
local stale = (not status or (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[5]) and 1 or 0
local granted = tonumber(ARGV[2])
if limit >= 0 then
  local remaining = limit - used
  granted = math.min(granted, math.max(tonumber(ARGV[3]), math.floor(remaining / 4)))
  if granted > remaining then return {0, used, limit, stale, 0, tonumber(redis.call('HGET', KEYS[3], 'leased:' .. service) or '0')} end
end
redis.call('HINCRBY', KEYS[3], 'leased:' .. service, granted)
redis.call('HSET', KEYS[5], 'usage', KEYS[3], 'service', service, 'granted', granted, 'reported', 0)
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[7]), ARGV[6])
return {1, used, limit, stale, granted}`,
  },
  /**
   * Reports the units served from a lease. KEYS lease, leases, month usage; ARGV lease id, TTL in
   * ms, service, units served from the lease so far, the units the node still holds of it (what it
   * was granted less what it gives back unserved), then triples of day-usage key, field, units
   * served so far from the lease on that day with that key. Totals, not differences: the lease's
   * hash keeps what it has counted (`reported`, and per day and key), and only what is beyond it is
   * counted, so a report sent again changes nothing and one lost in a failover is made good by the
   * next. A lease whose units are all served or given back is closed; another is renewed (its TTL
   * starts again). Answers 1, or 0 when the lease is settled: it had lapsed, and its unreported
   * units were counted as lost, so those served or given back now leave lost (served ones for
   * used) and the month's total does not grow; or Redis has no record of it — its grant was lost
   * when a primary failed before its replica had it — so what it served is counted as used, never
   * having been counted as leased.
   */
  reportLease: {
    keys: 3,
    lua: `${LEASE_HELPERS}
local lease = KEYS[1]
local service = ARGV[3]
local total = tonumber(ARGV[4])
local state = redis.call('HMGET', lease, 'granted', 'reported', 'closed')
if not state[1] then
  state = {'0', '0', 'unknown'}
  redis.call('HSET', lease, 'granted', 0, 'reported', 0, 'closed', 'unknown')
  redis.call('PEXPIRE', lease, 86400000)
end
local closed = state[3]
if closed == 'returned' then return 1 end
for i = 6, #ARGV, 3 do
  local field = 'day ' .. ARGV[i] .. ' ' .. ARGV[i + 1]
  local counted = tonumber(redis.call('HGET', lease, field) or '0')
  local units = tonumber(ARGV[i + 2])
  if units > counted then
    redis.call('HINCRBY', ARGV[i], ARGV[i + 1], units - counted)
    redis.call('HSET', lease, field, units)
  end
end
local served = math.max(0, total - tonumber(state[2]))
if served > 0 then
  redis.call('HINCRBY', KEYS[3], service, served)
  redis.call('HSET', lease, 'reported', total)
end
local granted = tonumber(state[1])
local given_back = math.max(0, granted - tonumber(ARGV[5]))
if given_back > 0 then
  granted = granted - given_back
  redis.call('HSET', lease, 'granted', granted)
end
if closed then
  if closed == 'expired' then
    local lost = tonumber(redis.call('HGET', KEYS[3], 'lost:' .. service) or '0')
    redis.call('HINCRBY', KEYS[3], 'lost:' .. service, 0 - math.min(lost, served + given_back))
  end
  return 0
end
redis.call('HINCRBY', KEYS[3], 'leased:' .. service, 0 - (served + given_back))
if granted <= math.max(total, tonumber(state[2])) then
  close_lease(lease, 'returned')
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], 'XX', now_ms() + tonumber(ARGV[2]), ARGV[1])
end
return 1`,
  },
  /** Settles expired leases: KEYS leases; ARGV the prefix of lease keys. Answers how many. */
  settleExpiredLeases: {
    keys: 1,
    lua: `${LEASE_HELPERS}
return settle_expired(KEYS[1], ARGV[1], now_ms())`,
  },
  ...MEMBER_SCRIPTS,
} as const;

type ScriptName = keyof typeof SCRIPTS;
export type Scripts = Record<ScriptName, (keys: string[], args: (string | number)[]) => Promise<unknown>>;

/** A caller of one script: the names of its keys first, then its arguments. */
export type Script = (...keysThenArgs: (string | number)[]) => Promise<unknown>;

/**
 * Registers `lua` on the connection as the command `waymark_<name>` (EVALSHA, loaded on first use)
 * and returns its caller; with `storeError`, the caller's failures become the store's errors.
 */
export function defineScript(
  client: Redis,
  name: string,
  numberOfKeys: number,
  lua: string,
  storeError?: (error: unknown) => Error,
): Script {
  client.defineCommand(`waymark_${name}`, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, Script>)[`waymark_${name}`]!.bind(client);
  if (!storeError) return command;
  return async (...keysThenArgs) => {
    try {
      return await command(...keysThenArgs);
    } catch (error) {
      throw storeError(error);
    }
  };
}

/** Registers the scripts on the connection and returns callers for them. */
export function defineScripts(client: Redis): Scripts {
  const scripts = {} as Scripts;
  for (const [name, { keys, lua }] of Object.entries(SCRIPTS) as [ScriptName, { keys: number; lua: string }][]) {
    const command = defineScript(client, name, keys, lua);
    scripts[name] = (keyNames, args) => command(...keyNames, ...args);
  }
  return scripts;
}
