/**
 * The origin clients reach this server at (`https://maps.example.com`), and the API base under it
 * (`https://maps.example.com/api/v1`), for absolute links in responses: WAYMARK_PUBLIC_URL when
 * configured, else the request's Host — or X-Forwarded-Host and X-Forwarded-Proto behind a proxy
 * (present only from a peer in WAYMARK_TRUSTED_PROXIES: src/http/forwarded.ts drops them otherwise).
 */
import { ApiError } from './errors.js';
import type { Request } from './request.js';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first of a comma-joined header's values (proxies append theirs). */
function firstValue(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const comma = header.indexOf(',');
  return (comma < 0 ? header : header.slice(0, comma)).trim();
}

/** Builds the origin of a request, or null when its headers name no valid host; the configured public URL wins. */
export function publicOriginResolver(publicUrl: string | undefined): (req: Request) => string | null {
  if (publicUrl) {
    // Through URL, so the origin is normalized and carries no character that needs escaping in JSON.
    const configured = new URL(publicUrl).href.replace(/\/+$/, '');
    return () => configured;
  }
  return (req) => {
    const host = firstValue(req.header('x-forwarded-host')) || req.header('host');
    if (!host || !HOST.test(host)) return null;
    const proto = firstValue(req.header('x-forwarded-proto'))?.toLowerCase();
    return `${proto === 'https' ? 'https' : 'http'}://${host}`;
  };
}

/** Builds the API base of a request (styles, TileJSON, geocoding's links); the configured public URL, when set, wins over headers. */
export function apiBaseResolver(publicUrl: string | undefined): (req: Request) => string {
  const originOf = publicOriginResolver(publicUrl);
  return (req) => {
    const origin = originOf(req);
    if (origin === null) {
      throw new ApiError(
        400,
        'the Host (or, from a trusted proxy, X-Forwarded-Host) header must name the host this API is reached at; or set WAYMARK_PUBLIC_URL on the server',
      );
    }
    return `${origin}/api/v1`;
  };
}
