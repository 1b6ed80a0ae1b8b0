/** Structured JSON logs (pino). Request-scoped lines carry `reqId`. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level = process.env.WAYMARK_LOG_LEVEL ?? 'info'): Logger {
  // Buffered asynchronous writes keep logging off the request's critical path.
  return pino({ level, base: { service: 'waymark' } }, pino.destination({ sync: false, minLength: 4096 }));
}
