/** `waymark key create`: a new API key, whose value is printed this once. */
import { createKey } from '../control-plane/accounts.js';
import type { Command } from './command.js';
import { keyRestrictionsText, RESTRICTION_FLAGS } from './key-restrictions.js';
import { findOrg, withStore } from './store.js';

export const keyCreate: Command = {
  name: 'key create',
  summary:
    'Creates an API key for an organization and prints its value, which is not stored and never shown again. Scopes default to all three services. ' +
    'A key for a web page can be restricted to origins (https://app.example.com, https://*.example.com), client addresses (CIDRs) and an expiry.',
  synopsis: '--org NAME --name N [--scopes maps,geocoding,routing] [--allowed-origins LIST] [--allowed-ips LIST] [--expires ISO]',
  flags: ['org', 'name', 'scopes', ...RESTRICTION_FLAGS],
  run: (input) =>
    withStore(input.dataDir, async (store) => {
      const org = await findOrg(store, input.required('org'));
      const { key, value } = await createKey(
        store,
        org.id,
        {
          name: input.required('name'),
          scopes: input.flag('scopes'),
          allowedOrigins: input.flag('allowed-origins'),
          allowedIps: input.flag('allowed-ips'),
          expiresAt: input.flag('expires'),
        },
        Date.now(),
      );
      return {
        text: [
          `Created key ${JSON.stringify(key.name)} (${key.id}) for ${org.name}, scopes ${key.scopes.join(', ')}; ${keyRestrictionsText(key)}:`,
          value,
          'Copy it now: the value is not stored and cannot be shown again.',
        ].join('\n'),
        json: {
          id: key.id,
          value,
          name: key.name,
          scopes: key.scopes,
          allowedOrigins: key.allowedOrigins,
          allowedIps: key.allowedIps,
          expiresAt: key.expiresAt,
        },
      };
    }),
};
