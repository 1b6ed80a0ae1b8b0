/**
 * ioredis' options for a primary found through Redis Sentinel (the `redis+sentinel://` form of
 * WAYMARK_REDIS_URL, redis-url.ts): it asks the Sentinels on every (re)connection, checks that the
 * server it reaches is a primary, and leaves a primary that a failover replaced.
 */
import { SentinelConnector, type RedisOptions, type SentinelConnectionOptions } from 'ioredis';
import type { SentinelTarget } from './redis-url.js';

/** A reply that only a replica gives: the connection is on a primary that a failover demoted while it stayed up. */
const DEMOTED = /^READONLY\b/;

/**
 * ioredis' Sentinel connector, whose failover detector (connections to the Sentinels, listening for
 * +switch-master) also closes when the connection to the primary closes by itself: ioredis closes it
 * in disconnect() only, and a client ended by QUIT — as BullMQ closes its connections — would leave
 * it open, and the process alive. The next connection starts a new one. Given as the `Connector`
 * option, so that every client made from the options (BullMQ's, duplicates) has it.
 */
class SentinelConnection extends SentinelConnector {
  /** disconnect() ran for the current connection: the detector is closed already (closing it twice leaves timers behind). */
  private closed = false;

  /** ioredis passes the client's options, which are Sentinel's (`sentinelOptions`). */
  constructor(options: unknown) {
    super(options as SentinelConnectionOptions);
  }

  override async connect(eventEmitter: Parameters<SentinelConnector['connect']>[0]): ReturnType<SentinelConnector['connect']> {
    this.closed = false;
    const stream = await super.connect(eventEmitter);
    stream.once('close', () => {
      if (!this.closed) this.disconnect();
    });
    return stream;
  }

  override disconnect(): void {
    this.closed = true;
    super.disconnect();
  }
}

export type SentinelOptions = SentinelTarget &
  Pick<RedisOptions, 'Connector' | 'failoverDetector' | 'reconnectOnError' | 'disconnectTimeout'>;

export function sentinelOptions(target: SentinelTarget): SentinelOptions {
  return {
    ...target,
    Connector: SentinelConnection,
    // Sentinel publishes +switch-master once it has promoted a replica: connections leave the old
    // primary at once. A primary it demotes while it stays up (`SENTINEL FAILOVER`) is told so only
    // at Sentinel's next look at it, seconds later; until then it takes writes that its new primary
    // then wipes out.
    failoverDetector: true,
    // Past that, a write to a demoted primary is refused with READONLY: the connection then
    // reconnects through Sentinel; the command itself fails (1: it is not sent again).
    reconnectOnError: (error) => (DEMOTED.test(error.message) ? 1 : false),
    // How long disconnect() waits for the socket to close before destroying it; one closed already
    // (SentinelConnection's) never says so, and the wait would hold the process that long.
    disconnectTimeout: 100,
  };
}
