/**
 * The address of the client a request comes from. Behind a reverse proxy the peer is the proxy,
 * and the client is in X-Forwarded-For; but anyone can send that header, so it is believed only
 * from a peer in WAYMARK_TRUSTED_PROXIES, and only as far as the chain runs through trusted hops.
 */
import { normalizeAddress, type CidrSet } from '../../core/cidr.js';
import type { Request } from './request.js';

/**
 * Each proxy appends the address it received the request from, so the rightmost entries are the
 * ones our own proxies wrote. Walking from the right, the first address that is not a trusted
 * proxy is the client; everything left of it may be made up by that client. A malformed entry
 * stops the walk at the last trusted hop. The answer is canonical text (`127.0.0.1`, not uWS's
 * `0000:…:ffff:7f00:0001`), so one client is always counted under one name.
 */
export function clientAddressResolver(trusted: CidrSet): (req: Request) => string {
  const canonical = (address: string) => normalizeAddress(address) ?? address;
  if (trusted.empty) return (req) => canonical(req.remoteAddress);
  return (req) => {
    let client = req.remoteAddress;
    const forwarded = req.header('x-forwarded-for');
    if (forwarded === undefined || !trusted.contains(client)) return canonical(client);
    const hops = forwarded.split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeAddress(hops[i]!.trim());
      if (hop === null) break;
      client = hop;
      if (!trusted.contains(hop)) break;
    }
    return canonical(client);
  };
}
