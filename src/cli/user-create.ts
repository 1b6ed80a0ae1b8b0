/** `waymark user create`: a user, and its organization when new. */
import { addUser } from '../control-plane/accounts.js';
import { TIER_LABELS } from '../control-plane/tiers.js';
import type { Command } from './command.js';
import { organizationJson, withStore } from './store.js';

export const userCreate: Command = {
  name: 'user create',
  summary:
    'Creates a user who can sign in to the dashboard. The user joins the organization --org as a member (or --role), ' +
    'or, when the organization is new (Free tier), becomes its owner; without --org, the organization is named after the email.',
  synopsis: '--email E --password P [--org NAME] [--role owner|admin|member]',
  flags: ['email', 'password', 'org', 'role'],
  run: (input) =>
    withStore(
      input.dataDir,
      async (store) => {
        const { user, org } = await addUser(store, {
          email: input.required('email'),
          password: input.required('password'),
          organization: input.flag('org'),
          role: input.flag('role'),
        });
        return {
          text: `Created user ${user.email} (${user.id}), ${user.role} of organization ${org.name} (${org.id}, ${TIER_LABELS[org.tier]} tier).`,
          json: { user, organization: organizationJson(org) },
        };
      },
      { create: true },
    ),
};
