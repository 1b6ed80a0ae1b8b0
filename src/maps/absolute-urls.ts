/**
 * Absolute URLs in maps responses (styles, TileJSON): the API base (`https://host/api/v1`) from
 * WAYMARK_PUBLIC_URL when configured, else from the request's Host — or X-Forwarded-Host and
 * X-Forwarded-Proto behind a proxy — and the caller's key, whichever way it was sent.
 */
import { findKey } from '../gateway/credentials.js';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first of a comma-joined header's values (proxies append theirs). */
function firstValue(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const comma = header.indexOf(',');
  return (comma < 0 ? header : header.slice(0, comma)).trim();
}

/** Builds the API base of a request; the configured public URL, when set, wins over headers. */
export function apiBaseResolver(publicUrl: string | undefined): (req: Request) => string {
  if (publicUrl) {
    // Through URL, so the base is normalized and carries no character that needs escaping in JSON.
    const configured = `${new URL(publicUrl).href.replace(/\/+$/, '')}/api/v1`;
    return () => configured;
  }
  return (req) => {
    const host = firstValue(req.header('x-forwarded-host')) || req.header('host');
    if (!host || !HOST.test(host)) {
      throw new ApiError(400, 'the Host (or X-Forwarded-Host) header must name the host this API is reached at; or set WAYMARK_PUBLIC_URL on the server');
    }
    const proto = firstValue(req.header('x-forwarded-proto'))?.toLowerCase();
    return `${proto === 'https' ? 'https' : 'http'}://${host}/api/v1`;
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
