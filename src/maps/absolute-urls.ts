/**
 * Absolute URLs in maps responses (styles, TileJSON): the API base (`https://host/api/v1`) from
 * WAYMARK_PUBLIC_URL when configured, else from the request's Host — or X-Forwarded-Host and
 * X-Forwarded-Proto behind a proxy — and the caller's key, whichever way it was sent.
 */
import { findKey } from '../gateway/credentials.js';
import { ApiError } from '../http/errors.js';
import { publicOriginResolver } from '../http/public-origin.js';
import type { Request } from '../http/request.js';

/** Builds the API base of a request; the configured public URL, when set, wins over headers. */
export function apiBaseResolver(publicUrl: string | undefined): (req: Request) => string {
  const originOf = publicOriginResolver(publicUrl);
  return (req) => {
    const origin = originOf(req);
    if (origin === null) {
      throw new ApiError(400, 'the Host (or X-Forwarded-Host) header must name the host this API is reached at; or set WAYMARK_PUBLIC_URL on the server');
    }
    return `${origin}/api/v1`;
  };
}

/**
 * The key the caller authenticated with. Only called behind the gateway, which has already checked
 * it is a well-formed key (letters and digits, so it needs no escaping in a URL or JSON).
 */
export function callerKey(req: Request): string {
  const key = findKey(req);
  if (key === null) throw new Error('maps route reached without an API key');
  return key;
}
