/** The uniform error body of every route: `{statusCode, error, message}`. */
import { STATUS_CODES } from 'node:http';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(statusCode: number, message: string): string {
  return JSON.stringify({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message });
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);
