/** `waymark org members`: an organization's members and their roles. */
import type { CommandRun } from './command.js';
import { formatInstant, formatTable } from './output.js';
import { findOrg, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const members = await store.listUsers(org.id);
    return {
      text: formatTable(
        ['ID', 'EMAIL', 'ROLE', 'JOINED'],
        members.map((m) => [m.id, m.email, m.role, formatInstant(m.createdAt)]),
      ),
      json: members,
    };
  });
