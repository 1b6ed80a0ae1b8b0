/**
 * The uniform error body of every route: `{statusCode, error, message}`, plus a machine-readable
 * `code` where a client needs one to tell failures of one status apart (routing: `NoSegment`, `NoRoute`).
 */
import { STATUS_CODES } from 'node:http';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly code?: string,
  ) {
    super(message);
  }
}

export function errorBody(statusCode: number, message: string, code?: string): string {
  return JSON.stringify({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(code === undefined ? {} : { code }) });
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);

/** Redis refusing writes for want of room: past `maxmemory` (OOM), or unable to persist to its disk (MISCONF). */
const REDIS_FULL: readonly [RegExp, string][] = [
  [/^OOM /, 'the control-plane Redis is out of memory (maxmemory)'],
  [/^MISCONF /, 'the control-plane Redis cannot write to its disk'],
];

/**
 * Why `error` is a write refused for want of room, or null when it is not: SQLite's SQLITE_FULL
 * (a full disk under the control-plane file), the system's ENOSPC or EDQUOT (a quota), or Redis's
 * OOM and MISCONF replies (also inside a transaction, whose EXECABORT lists them). Answered 507,
 * never a bare 500.
 */
export function storageFull(error: unknown): string | null {
  const { code, name, message, previousErrors } = (error ?? {}) as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    previousErrors?: { message?: unknown }[];
  };
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return "the server's disk is full";
  if (name !== 'ReplyError') return null;
  const replies = [message, ...(Array.isArray(previousErrors) ? previousErrors.map((previous) => previous.message) : [])];
  for (const [pattern, reason] of REDIS_FULL) {
    if (replies.some((reply) => typeof reply === 'string' && pattern.test(reply))) return reason;
  }
  return null;
}
