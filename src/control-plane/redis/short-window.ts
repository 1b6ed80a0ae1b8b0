/**
 * The short-window buckets (../short-window.ts) across nodes on Redis, exact and without a round
 * trip per request: a node takes a block of a bucket's tokens from Redis in one script call and
 * serves requests from it in memory; requests that find no token wait on one call per bucket. A
 * block goes back when it is used up, or after BLOCK_MS with what was not used. Redis keeps every
 * block out (its tokens and time, by id): a node that finds the bucket empty while blocks are out
 * waits for them to come back rather than refusing, so a burst spread over nodes is served exactly
 * as many requests as the bucket holds. A block of a node that died is waited for GRACE_MS past its
 * time; then its tokens count as spent, whatever other blocks come and go. Redis's clock times every bucket (TIME), so nodes' clocks need
 * not agree.
 */
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { windowDecision, type ShortWindowLimiter, type WindowBucket, type WindowDecision } from '../short-window.js';
import type { ControlKeys } from './keys.js';
import { defineScript, type Script } from './scripts.js';

/** How long a node keeps a block's unused tokens before it gives them back. */
const BLOCK_MS = 500;
/**
 * How long past its time a block is waited for before its tokens count as spent (its node died):
 * long enough for a live node's give-back on a loaded machine, short beside a minute's window.
 */
const GRACE_MS = 5_000;
/** The most tokens one block holds: at tens of thousands of requests a second, a few calls a second. */
const MAX_BLOCK = 1_000;

/**
 * KEYS bucket, its blocks; ARGV requests per minute, tokens needed now, block time, grace (ms),
 * largest block, the new block's id. Refills the bucket by Redis's clock (a raised limit adds its
 * difference at once), settles the blocks out (one whose time and grace have passed counts as
 * spent: its node died), then grants min(tokens, max(needed, an eighth of the tokens), largest
 * block), so blocks shrink to single tokens as the bucket empties. Answers {outcome, granted,
 * tokens left (text: fractional), wait ms}: outcome 1 granted, 2 empty while blocks are out (wait
 * and ask again), 0 empty.
 */
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local size = tonumber(ARGV[1])
local ms_per_token = 60000 / size
local block_ms = tonumber(ARGV[3])
local grace_ms = tonumber(ARGV[4])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'size')
local tokens = tonumber(held[1]) or size
local at = tonumber(held[2]) or now
local before = tonumber(held[3]) or size
if size > before then tokens = tokens + size - before end
if now > at then tokens = tokens + (now - at) / ms_per_token end
if tokens > size then tokens = size end
local out, out_until = 0, 0
local blocks = redis.call('HGETALL', KEYS[2])
for i = 1, #blocks, 2 do
  local granted, untill = string.match(blocks[i + 1], '(%d+):(%d+)')
  untill = tonumber(untill)
  if now > untill + grace_ms then
    redis.call('HDEL', KEYS[2], blocks[i])
  else
    out = out + tonumber(granted)
    if untill > out_until then out_until = untill end
  end
end
local outcome, granted, wait = 0, 0, 0
if tokens >= 1 then
  granted = math.min(math.floor(tokens), math.max(tonumber(ARGV[2]), math.floor(tokens / 8)), tonumber(ARGV[5]))
  tokens = tokens - granted
  redis.call('HSET', KEYS[2], ARGV[6], granted .. ':' .. (now + block_ms))
  outcome = 1
elseif out > 0 then
  outcome = 2
  wait = math.max(out_until - now, 25)
end
local ttl = math.ceil((size - tokens) * ms_per_token) + block_ms + grace_ms
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now, 'size', size)
redis.call('PEXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end
return {outcome, granted, tostring(tokens), wait}`;

/**
 * KEYS bucket, its blocks; ARGV requests per minute, the block's id ('' for a single token given
 * back), the tokens not used. Ends a block; its unused tokens go back to the bucket.
 */
const GIVE_BACK = `
if ARGV[2] ~= '' then redis.call('HDEL', KEYS[2], ARGV[2]) end
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
if not tokens then return 0 end
redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[1]), tokens + tonumber(ARGV[3]))))
return 1`;

const GRANTED = 1;
const WAIT = 2;

/** One request's take: whether it got its token, and the bucket's tokens after it (as this node knows them). */
interface Taken {
  ok: boolean;
  tokens: number;
}

interface Waiter {
  resolve(taken: Taken): void;
  reject(error: unknown): void;
}

interface Block {
  id: string;
  granted: number;
  held: number;
  timer: NodeJS.Timeout | null;
}

/** What this node holds of one bucket. */
interface NodeBucket {
  bucket: WindowBucket;
  block: Block | null;
  /** Requests waiting for a token, in arrival order; one script call at a time serves them. */
  waiters: Waiter[];
  asking: boolean;
  /** Redis's tokens after this node's last call (for the headers). */
  left: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RedisShortWindow implements ShortWindowLimiter {
  private readonly takeScript: Script;
  private readonly giveBackScript: Script;
  private readonly held = new Map<string, NodeBucket>();
  private readonly returns = new Set<Promise<unknown>>();

  constructor(
    client: Redis,
    private readonly names: ControlKeys,
    storeError: (error: unknown) => Error,
  ) {
    this.takeScript = defineScript(client, 'windowTake', 2, TAKE, storeError);
    this.giveBackScript = defineScript(client, 'windowGiveBack', 2, GIVE_BACK, storeError);
  }

  take(buckets: readonly WindowBucket[]): WindowDecision | Promise<WindowDecision> {
    const tokens: number[] = [];
    // One bucket after the other; a refusal gives back what the earlier ones gave.
    const step = (i: number): WindowDecision | Promise<WindowDecision> => {
      if (i === buckets.length) return windowDecision(buckets, tokens, true);
      const next = (taken: Taken): WindowDecision | Promise<WindowDecision> => {
        if (taken.ok) {
          tokens.push(taken.tokens);
          return step(i + 1);
        }
        for (let j = 0; j < i; j++) this.giveBack(buckets[j]!);
        const known = buckets.map((bucket, j) => (j < i ? tokens[j]! + 1 : j === i ? taken.tokens : this.estimate(bucket)));
        return windowDecision(buckets, known, false);
      };
      const taken = this.takeOne(buckets[i]!);
      return taken instanceof Promise ? taken.then(next) : next(taken);
    };
    return step(0);
  }

  /** Gives back every block's unused tokens; the store calls it as it closes. */
  async close(): Promise<void> {
    for (const held of this.held.values()) this.endBlock(held);
    await Promise.allSettled(this.returns);
  }

  private nodeBucket(bucket: WindowBucket): NodeBucket {
    let held = this.held.get(bucket.id);
    if (!held) {
      held = { bucket, block: null, waiters: [], asking: false, left: bucket.perMinute };
      this.held.set(bucket.id, held);
    }
    held.bucket = bucket; // the limit may have changed
    return held;
  }

  private estimate(bucket: WindowBucket): number {
    const held = this.held.get(bucket.id);
    return held ? (held.block?.held ?? 0) + held.left : bucket.perMinute;
  }

  private takeOne(bucket: WindowBucket): Taken | Promise<Taken> {
    const held = this.nodeBucket(bucket);
    const block = held.block;
    if (block && block.held > 0 && held.waiters.length === 0) return this.fromBlock(held, block);
    return new Promise<Taken>((resolve, reject) => {
      held.waiters.push({ resolve, reject });
      if (!held.asking) void this.serveWaiters(held);
    });
  }

  private fromBlock(held: NodeBucket, block: Block): Taken {
    block.held -= 1;
    const taken = { ok: true, tokens: block.held + held.left };
    if (block.held === 0) this.endBlock(held);
    return taken;
  }

  /** Asks Redis for blocks until every waiting request has a token or a refusal. */
  private async serveWaiters(held: NodeBucket): Promise<void> {
    held.asking = true;
    try {
      while (held.waiters.length > 0) {
        const { bucket } = held;
        const need = Math.min(held.waiters.length, MAX_BLOCK);
        const id = randomBytes(6).toString('hex');
        const keys = this.keysOf(bucket);
        const reply = (await this.takeScript(...keys, bucket.perMinute, need, BLOCK_MS, GRACE_MS, MAX_BLOCK, id)) as [
          number,
          number,
          string,
          number,
        ];
        const [outcome, granted, left, waitMs] = reply;
        held.left = Number(left);
        if (outcome === GRANTED) {
          this.endBlock(held);
          const block: Block = { id, granted, held: granted, timer: null };
          held.block = block;
          while (block.held > 0 && held.waiters.length > 0) held.waiters.shift()!.resolve(this.fromBlock(held, block));
          if (block.held > 0) block.timer = setTimeout(() => this.endBlock(held), BLOCK_MS);
        } else if (outcome === WAIT) {
          await pause(waitMs);
        } else {
          for (const waiter of held.waiters.splice(0)) waiter.resolve({ ok: false, tokens: held.left });
        }
      }
    } catch (error) {
      for (const waiter of held.waiters.splice(0)) waiter.reject(error);
    } finally {
      held.asking = false;
      if (!held.block) this.held.delete(held.bucket.id);
    }
  }

  /** Gives a block back to Redis with its unused tokens. */
  private endBlock(held: NodeBucket): void {
    const block = held.block;
    if (!block) return;
    held.block = null;
    if (block.timer) clearTimeout(block.timer);
    this.send(held.bucket, block.id, block.held);
    if (!held.asking) this.held.delete(held.bucket.id);
  }

  /** A token taken for a request that another bucket then refused. */
  private giveBack(bucket: WindowBucket): void {
    const block = this.held.get(bucket.id)?.block;
    if (block) block.held += 1;
    else this.send(bucket, '', 1);
  }

  private keysOf(bucket: WindowBucket): [string, string] {
    return [this.names.windowBucket(bucket.id), this.names.windowBlocks(bucket.id)];
  }

  /** Ends block `blockId` ('' for a token taken outside any block) with `unused` tokens back. */
  private send(bucket: WindowBucket, blockId: string, unused: number): void {
    // A return that fails leaves its block out until GRACE_MS has passed, as if this node had died.
    const sent = this.giveBackScript(...this.keysOf(bucket), bucket.perMinute, blockId, unused).catch(() => undefined);
    this.returns.add(sent);
    void sent.finally(() => this.returns.delete(sent));
  }
}
