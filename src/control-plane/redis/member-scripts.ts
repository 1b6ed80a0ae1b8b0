/**
 * The Lua of offboarding (issue 34): removing members, ending a user's sessions, password changes
 * and resets, and keeping invitations within their makers' current roles. Roles travel as comma
 * lists computed in TypeScript (permissions.ts), so that the rules are written once.
 */

/** Helpers prepended to the scripts that need them. */
export const MEMBER_HELPERS = `
local function listed(list, item)
  return string.find(',' .. list .. ',', ',' .. item .. ',', 1, true) ~= nil
end
-- Revokes the pending invitations user_id made whose role is not in the comma list allowed.
local function revoke_invitations(org_invitations, prefix, user_id, allowed, now)
  for _, hash in ipairs(redis.call('LRANGE', org_invitations, 0, -1)) do
    local key = prefix .. hash
    local i = redis.call('HMGET', key, 'createdBy', 'role', 'acceptedAt', 'revokedAt', 'expiresAt')
    if i[1] == user_id and not i[3] and not i[4] and i[5] and i[5] > now and not listed(allowed, i[2] or 'member') then
      redis.call('HSET', key, 'revokedAt', now)
    end
  end
end
-- Ends the user's sessions but the one of hash keep ('' for none).
local function end_sessions(user_sessions, prefix, keep)
  for _, hash in ipairs(redis.call('SMEMBERS', user_sessions)) do
    if hash ~= keep then
      redis.call('DEL', prefix .. hash)
      redis.call('SREM', user_sessions, hash)
    end
  end
end
`;

export const MEMBER_SCRIPTS = {
  /**
   * KEYS user, emails, orgUsers, orgOwners, orgInvitations, userSessions, orgKeys; ARGV org id,
   * user id, removable roles, '1' to revoke the user's keys, now, then the key prefixes of
   * invitations, sessions, password resets and keys, and the user's email field. Answers {'ok',
   * revoked key hashes}, nil when not a member with a removable role, or 'last-owner'.
   */
  removeUser: {
    keys: 7,
    lua: `${MEMBER_HELPERS}
local user = KEYS[1]
local u = redis.call('HMGET', user, 'orgId', 'role', 'resetHash')
if u[1] ~= ARGV[1] or not listed(ARGV[3], u[2] or 'member') then return false end
if u[2] == 'owner' and redis.call('SCARD', KEYS[4]) <= 1 then return 'last-owner' end
revoke_invitations(KEYS[5], ARGV[6], ARGV[2], '', ARGV[5])
local revoked = {}
if ARGV[4] == '1' then
  for _, hash in ipairs(redis.call('LRANGE', KEYS[7], 0, -1)) do
    local key = ARGV[9] .. hash
    local k = redis.call('HMGET', key, 'createdBy', 'status')
    if k[1] == ARGV[2] and k[2] == 'active' then
      redis.call('HINCRBY', key, 'version', 1)
      redis.call('HSET', key, 'status', 'revoked', 'revokedAt', ARGV[5])
      revoked[#revoked + 1] = hash
    end
  end
end
end_sessions(KEYS[6], ARGV[7], '')
if u[3] then redis.call('DEL', ARGV[8] .. u[3]) end
if redis.call('HGET', KEYS[2], ARGV[10]) == ARGV[2] then redis.call('HDEL', KEYS[2], ARGV[10]) end
redis.call('LREM', KEYS[3], 0, ARGV[2])
redis.call('SREM', KEYS[4], ARGV[2])
redis.call('DEL', user)
return {'ok', revoked}`,
  },
  /** KEYS user, userSessions; ARGV password hash, the session hash to keep ('' for none), session and reset key prefixes. 1, or 0 for no such user. */
  setPassword: {
    keys: 2,
    lua: `${MEMBER_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'passwordHash', ARGV[1])
end_sessions(KEYS[2], ARGV[3], ARGV[2])
local reset = redis.call('HGET', KEYS[1], 'resetHash')
if reset then
  redis.call('DEL', ARGV[4] .. reset)
  redis.call('HDEL', KEYS[1], 'resetHash')
end
return 1`,
  },
  /** KEYS user, new reset; ARGV reset key prefix, hash, user id, created, expires, ms until then. Replaces the user's earlier link; 0 for no such user. */
  insertPasswordReset: {
    keys: 2,
    lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local earlier = redis.call('HGET', KEYS[1], 'resetHash')
if earlier then redis.call('DEL', ARGV[1] .. earlier) end
redis.call('HSET', KEYS[2], 'hash', ARGV[2], 'userId', ARGV[3], 'createdAt', ARGV[4], 'expiresAt', ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('HSET', KEYS[1], 'resetHash', ARGV[2])
return 1`,
  },
  /** KEYS reset, user, userSessions; ARGV now, password hash, reset hash, session key prefix. The user's pairs, or nil when the link cannot be used. */
  usePasswordReset: {
    keys: 3,
    lua: `${MEMBER_HELPERS}
local expires = redis.call('HGET', KEYS[1], 'expiresAt')
if not expires or expires <= ARGV[1] or redis.call('HGET', KEYS[2], 'resetHash') ~= ARGV[3] then return false end
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[2], 'resetHash')
redis.call('HSET', KEYS[2], 'passwordHash', ARGV[2])
end_sessions(KEYS[3], ARGV[4], '')
return redis.call('HGETALL', KEYS[2])`,
  },
} as const;
