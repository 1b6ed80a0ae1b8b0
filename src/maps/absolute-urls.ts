/**
 * The caller's key in maps responses' absolute URLs (styles, TileJSON), whichever way it was sent;
 * the API base they start with is `apiBaseResolver`'s (src/http/public-origin.ts).
 */
import { findKey } from '../gateway/credentials.js';
import type { Request } from '../http/request.js';

/**
 * The key the caller authenticated with. Only called behind the gateway, which has already checked
 * it is a well-formed key (letters and digits, so it needs no escaping in a URL or JSON).
 */
export function callerKey(req: Request): string {
  const key = findKey(req);
  if (key === null) throw new Error('maps route reached without an API key');
  return key;
}
