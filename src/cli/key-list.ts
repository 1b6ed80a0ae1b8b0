/** `waymark key list`: an organization's keys, without their values. */
import { keyView } from '../control-plane/accounts.js';
import type { CommandRun } from './command.js';
import { keyRestrictionsText } from './key-restrictions.js';
import { formatInstant, formatTable } from './output.js';
import { findOrg, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const keys = await store.listKeys(org.id);
    const text =
      keys.length === 0
        ? `${org.name} has no API keys; create one with "waymark key create --org ${org.name} --name NAME".`
        : formatTable(
            ['ID', 'NAME', 'HINT', 'SCOPES', 'STATUS', 'RESTRICTIONS', 'CREATED', 'LAST USED'],
            keys.map((k) => [
              k.id,
              k.name,
              k.hint,
              k.scopes.join(','),
              k.status,
              keyRestrictionsText(k),
              formatInstant(k.createdAt),
              formatInstant(k.lastUsedAt),
            ]),
          );
    return { text, json: keys.map(keyView) };
  });
