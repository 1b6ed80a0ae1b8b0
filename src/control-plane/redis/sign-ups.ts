/**
 * The sign-up throttle (../sign-ups.ts) in Redis: one Lua script checks the address's window and
 * counts the sign-up, atomically across every node. The counter is a hash that expires with its
 * window (PEXPIRE, relative, so a node's clock need not agree with Redis's).
 */
import type { Redis } from 'ioredis';
import { refusal } from '../sign-ins.js';
import { SIGN_UP_LIMITS, type SignUpAttempt, type SignUpLimiter } from '../sign-ups.js';
import type { ControlKeys } from './keys.js';
import { defineScript, type Script } from './scripts.js';

/** KEYS address; ARGV now, sign-ups allowed, window (ms). Answers {1, 0} when allowed (and counted), {0, until} when refused. */
const BEGIN = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[3])
local address = redis.call('HMGET', KEYS[1], 'windowStart', 'signUps')
local window_start = tonumber(address[1]) or now
local used = tonumber(address[2]) or 0
if window_start + window <= now then
  window_start = now
  used = 0
end
if used >= tonumber(ARGV[2]) then return {0, window_start + window} end
redis.call('HSET', KEYS[1], 'windowStart', window_start, 'signUps', used + 1)
redis.call('PEXPIRE', KEYS[1], window_start + window - now)
return {1, 0}`;

/** KEYS address. Gives the address a sign-up back, if its window still runs. */
const FAILED = `
if (tonumber(redis.call('HGET', KEYS[1], 'signUps')) or 0) > 0 then
  redis.call('HINCRBY', KEYS[1], 'signUps', -1)
end
return 1`;

export class RedisSignUps implements SignUpLimiter {
  private readonly beginScript: Script;
  private readonly failedScript: Script;

  constructor(
    client: Redis,
    private readonly names: ControlKeys,
    storeError: (error: unknown) => Error,
  ) {
    this.beginScript = defineScript(client, 'signUpBegin', 1, BEGIN, storeError);
    this.failedScript = defineScript(client, 'signUpFailed', 1, FAILED, storeError);
  }

  async begin(address: string, nowMs: number): Promise<SignUpAttempt> {
    const { addressSignUps, addressWindowMs } = SIGN_UP_LIMITS;
    const [allowed, until] = (await this.beginScript(this.names.signUpAddress(address), nowMs, addressSignUps, addressWindowMs)) as [
      number,
      number,
    ];
    return allowed === 1 ? { allowed: true } : refusal(until, nowMs);
  }

  async failed(address: string): Promise<void> {
    await this.failedScript(this.names.signUpAddress(address));
  }
}
