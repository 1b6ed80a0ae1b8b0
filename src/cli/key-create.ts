/** `waymark key create`: a new API key, whose value is printed this once. */
import { createKey } from '../control-plane/accounts.js';
import type { CommandRun } from './command.js';
import { keyRestrictionsText } from './key-restrictions.js';
import { auditedKey, record } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
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
        perMinute: input.flag('per-minute'),
      },
      Date.now(),
    );
    await record(operatorAudit(store, org.id), { action: 'key.created', target: key.id, after: auditedKey(key) });
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
        perMinute: key.perMinute,
      },
    };
  });
