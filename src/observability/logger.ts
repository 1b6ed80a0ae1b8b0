/**
 * Logs on stdout: pino for events, and a hand-built access-log line per request, both through one
 * buffered line writer, because serializing an object through pino on every request costs more
 * than the rest of a cheap request. JSON lines (the access line the same shape as pino's, with
 * `reqId`) for a log collector; on a terminal, one human-readable line each (text-lines.ts).
 * WAYMARK_LOG_FORMAT (text or json) overrides what stdout being a terminal decides.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { setting } from '../../core/config.js';
import { LineWriter } from './line-writer.js';
import { eventText, requestText } from './text-lines.js';

export type { Logger };

const PINO_INFO = 30;

export type LogFormat = 'text' | 'json';

export interface Logging {
  logger: Logger;
  /** One line per answered request; a no-op when the level is above `info`. */
  access(reqId: string, method: string, path: string, route: string, status: number, ms: number): void;
}

/** The format of this process's logs: WAYMARK_LOG_FORMAT, else text when stdout is a terminal. */
export const logFormat = (): LogFormat => setting('logFormat') ?? (process.stdout.isTTY ? 'text' : 'json');

export function createLogging(level = setting('logLevel'), format = logFormat()): Logging {
  const destination = new LineWriter(1);
  const text = format === 'text';
  const events: DestinationStream = text ? { write: (line) => destination.write(eventText(line)) } : destination;
  const logger = pino({ level, base: { service: 'waymark' } }, events);
  if (!logger.isLevelEnabled('info')) return { logger, access: () => {} };
  if (text)
    return {
      logger,
      access: (_reqId, method, path, _route, status, ms) => destination.write(requestText(Date.now(), method, path, status, ms)),
    };
  return {
    logger,
    access(reqId, method, path, route, status, ms) {
      destination.write(
        `{"level":${PINO_INFO},"time":${Date.now()},"service":"waymark","reqId":"${reqId}","method":"${method}","path":${JSON.stringify(path)},"route":"${route}","status":${status},"ms":${ms.toFixed(3)},"msg":"request"}\n`,
      );
    },
  };
}

/** Logging that writes nothing (tests, benchmarks of other parts). */
export function silentLogging(): Logging {
  return { logger: pino({ level: 'silent' }), access: () => {} };
}
