/**
 * The sign-in throttle (../sign-ins.ts) in Redis: one Lua script checks the limits and counts the
 * attempt, atomically across every node. Both counters are hashes that expire (PEXPIRE, relative,
 * so a node's clock need not agree with Redis's): an account's a day after its last failure, an
 * address's with its window, so Redis holds only live counters.
 */
import type { Redis } from 'ioredis';
import { refusal, SIGN_IN_LIMITS, type SignInAttempt, type SignInLimiter } from '../sign-ins.js';
import type { ControlKeys } from './keys.js';
import { defineScript, type Script } from './scripts.js';

/**
 * KEYS account, address; ARGV now, account failures, first lock, max lock, forget after, address
 * failures, address window (ms). Answers {1, 0} when allowed (and counted), {0, until} when refused.
 * The lock is as lockMs() in ../sign-ins.ts computes it.
 */
const BEGIN = `
local now = tonumber(ARGV[1])
local account = redis.call('HMGET', KEYS[1], 'failures', 'lockedUntil', 'lastFailure')
local failures = tonumber(account[1]) or 0
local locked_until = tonumber(account[2]) or 0
if failures > 0 and now - tonumber(account[3]) >= tonumber(ARGV[5]) then
  failures = 0
  locked_until = 0
end
if locked_until > now then return {0, locked_until} end
local address = redis.call('HMGET', KEYS[2], 'windowStart', 'failures')
local window = tonumber(ARGV[7])
local window_start = tonumber(address[1]) or now
local used = tonumber(address[2]) or 0
if window_start + window <= now then
  window_start = now
  used = 0
end
if used >= tonumber(ARGV[6]) then return {0, window_start + window} end
failures = failures + 1
locked_until = 0
local handful = tonumber(ARGV[2])
if failures >= handful then
  locked_until = now + math.min(tonumber(ARGV[3]) * 2 ^ math.min(failures - handful, 30), tonumber(ARGV[4]))
end
redis.call('HSET', KEYS[1], 'failures', failures, 'lockedUntil', locked_until, 'lastFailure', now)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('HSET', KEYS[2], 'windowStart', window_start, 'failures', used + 1)
redis.call('PEXPIRE', KEYS[2], window_start + window - now)
return {1, 0}`;

/** KEYS account, address. Forgets the account's failures; gives the address its attempt back, if its window still runs. */
const SUCCEEDED = `
redis.call('DEL', KEYS[1])
if (tonumber(redis.call('HGET', KEYS[2], 'failures')) or 0) > 0 then
  redis.call('HINCRBY', KEYS[2], 'failures', -1)
end
return 1`;

export class RedisSignIns implements SignInLimiter {
  private readonly beginScript: Script;
  private readonly succeededScript: Script;

  constructor(
    client: Redis,
    private readonly names: ControlKeys,
    storeError: (error: unknown) => Error,
  ) {
    this.beginScript = defineScript(client, 'signInBegin', 2, BEGIN, storeError);
    this.succeededScript = defineScript(client, 'signInSucceeded', 2, SUCCEEDED, storeError);
  }

  async begin(account: string, address: string, nowMs: number): Promise<SignInAttempt> {
    const { accountFailures, firstLockMs, maxLockMs, forgetMs, addressFailures, addressWindowMs } = SIGN_IN_LIMITS;
    const [allowed, until] = (await this.beginScript(
      this.names.signInAccount(account),
      this.names.signInAddress(address),
      nowMs,
      accountFailures,
      firstLockMs,
      maxLockMs,
      forgetMs,
      addressFailures,
      addressWindowMs,
    )) as [number, number];
    return allowed === 1 ? { allowed: true } : refusal(until, nowMs);
  }

  async succeeded(account: string, address: string): Promise<void> {
    await this.succeededScript(this.names.signInAccount(account), this.names.signInAddress(address));
  }
}
