/** `waymark key roll`: a key's new value, printed this once; the old one works on through a grace period. */
import { keyView, rollKey } from '../control-plane/accounts.js';
import { CliError, type CommandRun } from './command.js';
import { formatInstant } from './output.js';
import { record, rollChange } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const id = input.required('id');
    const rolled = await rollKey(store, org.id, id, input.flag('grace'), Date.now());
    if (!rolled) throw new CliError(`${org.name} has no active key ${JSON.stringify(id)}; see "waymark key list --org ${org.name}"`);
    const { key, value } = rolled;
    await record(operatorAudit(store, org.id), { action: 'key.rolled', target: key.id, ...rollChange(key) });
    const old =
      key.previousHashExpiresAt === null
        ? 'The old value no longer works.'
        : `The old value works until ${formatInstant(key.previousHashExpiresAt)}.`;
    return {
      text: [
        `Rolled key ${JSON.stringify(key.name)} (${key.id}) of ${org.name}; its new value:`,
        value,
        `Copy it now: it cannot be shown again. ${old}`,
      ].join('\n'),
      json: { ...keyView(key), value },
    };
  });
