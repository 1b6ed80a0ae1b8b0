/** `waymark key update`: a key's name, scopes and restrictions, applied by running servers from their next request. */
import { keyChanges, keyView } from '../control-plane/accounts.js';
import { CliError, UsageError, type CommandRun } from './command.js';
import { clearable, keyRestrictionsText } from './key-restrictions.js';
import { auditedKey, changedFields, record } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const id = input.required('id');
    const changes = keyChanges(
      {
        name: input.flag('name'),
        scopes: input.flag('scopes'),
        allowedOrigins: clearable(input.flag('allowed-origins')),
        allowedIps: clearable(input.flag('allowed-ips')),
        expiresAt: clearable(input.flag('expires')),
        perMinute: clearable(input.flag('per-minute')),
      },
      Date.now(),
    );
    if (Object.keys(changes).length === 0)
      throw new UsageError('nothing to change: give --name, --scopes, --allowed-origins, --allowed-ips, --expires or --per-minute');
    const old = (await store.listKeys(org.id)).find((k) => k.id === id);
    const key = old && (await store.updateKey(org.id, id, changes));
    if (!key) throw new CliError(`${org.name} has no active key ${JSON.stringify(id)}; see "waymark key list --org ${org.name}"`);
    await record(operatorAudit(store, org.id), {
      action: 'key.updated',
      target: key.id,
      ...changedFields(auditedKey(old), auditedKey(key)),
    });
    return {
      text: `Updated key ${JSON.stringify(key.name)} (${key.id}) of ${org.name}: scopes ${key.scopes.join(', ')}; ${keyRestrictionsText(key)}.`,
      json: keyView(key),
    };
  });
