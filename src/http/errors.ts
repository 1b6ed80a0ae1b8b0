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

/**
 * Whether `error` is a write refused for want of space: SQLite's SQLITE_FULL (a full disk under the
 * control-plane file), or the system's ENOSPC or EDQUOT (a quota). Answered 507, never a bare 500.
 */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}
