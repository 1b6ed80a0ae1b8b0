/** The restriction flags `key create` and `key update` share, and how the CLI words a key's restrictions. */
import { perMinuteText } from '../control-plane/short-window.js';
import type { ApiKeyRecord } from '../control-plane/types.js';
import { formatInstant } from './output.js';

export const RESTRICTION_FLAGS = ['allowed-origins', 'allowed-ips', 'expires', 'per-minute'] as const;

/** A flag of `key update` that may say `none`: null clears the restriction, undefined leaves it. */
export const clearable = (value: string | undefined): string | null | undefined => (value === 'none' ? null : value);

/** E.g. `any origin, addresses 10.0.0.0/8, expires 2027-01-31 00:00 UTC, at most maps 30/min`. */
export function keyRestrictionsText(key: ApiKeyRecord): string {
  return [
    key.allowedOrigins.length === 0 ? 'any origin' : `origins ${key.allowedOrigins.join(', ')}`,
    key.allowedIps.length === 0 ? 'any address' : `addresses ${key.allowedIps.join(', ')}`,
    key.expiresAt === null ? 'no expiry' : `expires ${formatInstant(key.expiresAt)}`,
    // A key without limits of its own has its organization's, as every key had before there were any.
    ...(Object.keys(key.perMinute).length === 0 ? [] : [`at most ${perMinuteText(key.perMinute)}`]),
  ].join(', ');
}
