/**
 * The time limit of a control-plane Redis command (WAYMARK_REDIS_COMMAND_TIMEOUT_MS), counted in
 * the time this process could have read the reply. ioredis' own `commandTimeout` is a plain timer,
 * and Node runs due timers before it reads sockets: after a stretch in which the event loop was
 * busy (many requests answered in one go) or the process not run at all (a machine loaded beyond
 * its cores), a reply that arrived meanwhile sits unread while the timer fails its command. That
 * was a 503 for a request Redis had answered, and a quota block granted in Redis but never used.
 */
import { Redis, type Command, type RedisOptions } from 'ioredis';
import { redisClient } from '../../../core/redis.js';
import type { RedisSettings } from '../../../core/redis-settings.js';

/** A command that got no reply in time: Redis reads as down (the request gets a 503). */
export class CommandTimeout extends Error {}

/** A timer this late or later means that this process was stalled rather than Redis slow. */
const STALL_MS = 10;

/**
 * Fails `command` once it has waited `timeoutMs` for its reply. Node counts a new timer from the
 * time its loop last read the clock, which may be long before a command sent late in a busy
 * stretch: a timer that fires before the command's time is set again for the rest. One that fires
 * STALL_MS or more after it gives the time lost back (up to one more timeout in all) with a new
 * timer, so that the loop reads its sockets first; with nothing left to give back, the command
 * fails after one more turn of the loop, which reads them first too. A hung Redis still fails
 * commands within about twice the timeout, however loaded the node.
 */
function watch(command: Command, timeoutMs: number): void {
  let due = performance.now() + timeoutMs;
  let credit = timeoutMs;
  const fail = () => {
    if (!command.isSettled) command.reject(new CommandTimeout(`Command timed out (no reply within ${timeoutMs} ms)`));
  };
  const check = () => {
    if (command.isSettled) return;
    const now = performance.now();
    const lost = now - due;
    if (lost < 0) {
      timer = setTimeout(check, -lost);
    } else if (lost < STALL_MS) {
      fail();
    } else if (lost > credit) {
      setImmediate(fail);
    } else {
      credit -= lost;
      due = now + lost;
      timer = setTimeout(check, lost);
    }
  };
  let timer = setTimeout(check, timeoutMs);
  const clear = () => clearTimeout(timer);
  command.promise.then(clear, clear);
}

/** An ioredis client whose commands each have the time limit above (instead of ioredis' `commandTimeout`). */
class TimedRedis extends Redis {
  /** Set once constructed: the base constructor sends nothing with lazyConnect, and would not be timed. */
  timeoutMs: number | undefined;

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    if (this.timeoutMs !== undefined) watch(command, this.timeoutMs);
    return super.sendCommand(command, stream);
  }
}

/** A client of the settings' Redis (one server or Sentinel's primary) whose commands fail after `timeoutMs` as above. */
export function timedClient(settings: RedisSettings, options: RedisOptions, timeoutMs: number): Redis {
  const client = redisClient(settings, options, TimedRedis);
  client.timeoutMs = timeoutMs;
  return client;
}
