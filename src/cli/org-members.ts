/** `waymark org members`: an organization's members and their roles. */
import type { Command } from './command.js';
import { formatInstant, formatTable } from './output.js';
import { findOrg, withStore } from './store.js';

export const orgMembers: Command = {
  name: 'org members',
  summary: "Lists an organization's members: id, email, role (owner, admin or member) and when they joined.",
  synopsis: '--org NAME',
  flags: ['org'],
  run: (input) =>
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
    }),
};
