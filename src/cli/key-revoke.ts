/** `waymark key revoke`: stops a key, in a running server from its next request. */
import { keyView } from '../control-plane/accounts.js';
import { CliError, type CommandRun } from './command.js';
import { formatInstant } from './output.js';
import { record, REVOKE_CHANGE } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const id = input.required('id');
    const key = await store.revokeKey(org.id, id, new Date().toISOString());
    if (!key) {
      const existing = (await store.listKeys(org.id)).find((k) => k.id === id);
      throw new CliError(
        existing
          ? `key ${id} of ${org.name} was already revoked on ${formatInstant(existing.revokedAt)}`
          : `${org.name} has no key ${JSON.stringify(id)}; see "waymark key list --org ${org.name}"`,
      );
    }
    await record(operatorAudit(store, org.id), { action: 'key.revoked', target: key.id, ...REVOKE_CHANGE });
    return { text: `Revoked key ${JSON.stringify(key.name)} (${key.id}) of ${org.name}.`, json: keyView(key) };
  });
