/**
 * The X-Forwarded-* headers (For, Host, Proto) say whom a reverse proxy serves and at which host
 * and scheme; but anyone can send them, so they are believed only from a peer in
 * WAYMARK_TRUSTED_PROXIES. From any other peer they are dropped before a route sees the request,
 * so every reader (the client's address, absolute URLs, the dashboard's same-origin check) follows
 * one rule.
 */
import type { CidrSet } from '../../core/cidr.js';
import type { Request } from './request.js';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'] as const;

/** Builds the filter: it deletes the X-Forwarded-* headers of a request unless its peer is a trusted proxy. */
export function untrustedForwardingDropper(trusted: CidrSet): (req: Request) => void {
  return (req) => {
    const { headers } = req;
    if (!FORWARDED.some((name) => headers.has(name))) return;
    if (!trusted.empty && trusted.contains(req.remoteAddress)) return;
    for (const name of FORWARDED) headers.delete(name);
  };
}
