/**
 * The human-readable form of the logs, for a terminal: one line per event, `HH:MM:SS LEVEL message
 * key=value…` (as pino-pretty prints them), and per request `HH:MM:SS GET /path 200 1.2 ms` (as
 * morgan's `dev` format does). An error's stack follows its line, indented.
 */

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in its own way or not at all. */
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** `14:05:09`, local time, as a terminal user reads the clock. */
const clock = (time: number) => new Date(time).toTimeString().slice(0, 8);

/** A word as is when it reads unambiguously and holds no control character (which a terminal would obey), else as JSON. */
const word = (value: string): string => (/^[^\s"=\p{Cc}]+$/u.test(value) ? value : JSON.stringify(value));

const fieldValue = (value: unknown): string => (typeof value === 'string' ? word(value) : (JSON.stringify(value) ?? String(value)));

/** One event, given as the JSON line pino writes, in the text form (with its newline). */
export function eventText(jsonLine: string): string {
  const event = JSON.parse(jsonLine) as Record<string, unknown>;
  const level = LEVEL_NAMES[event.level as number] ?? String(event.level);
  let stack = '';
  const fields = Object.entries(event)
    .filter(([name]) => !OWN_FIELDS.has(name))
    .map(([name, value]) => {
      // pino's error serializer: {type, message, stack}; the message inline, the stack after.
      if (name === 'err' && value !== null && typeof value === 'object' && 'message' in value) {
        const { message, stack: trace } = value as { message: unknown; stack?: unknown };
        if (typeof trace === 'string') stack = `\n${trace.replace(/^/gm, '    ')}`;
        return `err=${fieldValue(message)}`;
      }
      return `${name}=${fieldValue(value)}`;
    });
  return `${[clock(event.time as number), level.padEnd(5), event.msg ?? '', ...fields].join(' ')}${stack}\n`;
}

/** One answered request in the text form (with its newline). */
export const requestText = (time: number, method: string, path: string, status: number, ms: number): string =>
  `${clock(time)} ${method} ${word(path)} ${status} ${ms.toFixed(1)} ms\n`;
