/**
 * Structured JSON logs on stdout: pino for events, and a hand-built access-log line per request
 * (same shape as pino's, with `reqId`), both through one buffered line writer, because serializing
 * an object through pino on every request costs more than the rest of a cheap request.
 */
import pino, { type Logger } from 'pino';
import { setting } from '../../core/config.js';
import { LineWriter } from './line-writer.js';

export type { Logger };

const PINO_INFO = 30;

export interface Logging {
  logger: Logger;
  /** One line per answered request; a no-op when the level is above `info`. */
  access(reqId: string, method: string, path: string, route: string, status: number, ms: number): void;
}

export function createLogging(level = setting('logLevel')): Logging {
  const destination = new LineWriter(1);
  const logger = pino({ level, base: { service: 'waymark' } }, destination);
  if (!logger.isLevelEnabled('info')) return { logger, access: () => {} };
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
