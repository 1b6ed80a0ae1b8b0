/**
 * Finds the API key a request carries: the `key` query parameter, `Authorization: Bearer`, or
 * `X-API-Key`. Several methods may carry the same key; different keys are a 400.
 */
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The key the request carries, or null when it carries none. */
export function findKey(req: Request): string | null {
  const found: { method: string; value: string }[] = [];
  if (req.rawQuery) {
    for (const value of req.queryAll('key')) found.push({ method: 'the key query parameter', value });
  }
  // A header sent several times arrives joined with ", "; keys contain no commas.
  const authorization = req.header('authorization');
  if (authorization !== undefined) {
    for (const part of authorization.split(',')) {
      const bearer = BEARER.exec(part.trim());
      if (!bearer) {
        throw new ApiError(401, 'the Authorization header must read "Bearer <API key>"');
      }
      found.push({ method: 'the Authorization header', value: bearer[1]! });
    }
  }
  const header = req.header('x-api-key');
  if (header !== undefined) {
    for (const part of header.split(',')) found.push({ method: 'the X-API-Key header', value: part.trim() });
  }

  if (found.length === 0) return null;
  const first = found[0]!;
  const other = found.find((f) => f.value !== first.value);
  if (other) {
    const methods = first.method === other.method ? `${first.method} more than once` : `${first.method} and ${other.method}`;
    throw new ApiError(400, `different API keys were sent in ${methods}; send one key`);
  }
  return first.value;
}
