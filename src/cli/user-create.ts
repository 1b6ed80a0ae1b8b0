/** `waymark user create`: a user, and its organization when new. */
import { addUser } from '../control-plane/accounts.js';
import { TIER_LABELS } from '../control-plane/tiers.js';
import type { CommandRun } from './command.js';
import { record } from '../control-plane/audit.js';
import { operatorAudit, organizationJson, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(
    input.dataDir,
    async (store) => {
      const { user, org } = await addUser(store, {
        email: input.required('email'),
        password: input.required('password'),
        organization: input.flag('org'),
        role: input.flag('role'),
      });
      await record(operatorAudit(store, org.id), {
        action: 'member.joined',
        target: user.id,
        after: { email: user.email, role: user.role },
      });
      return {
        text: `Created user ${user.email} (${user.id}), ${user.role} of organization ${org.name} (${org.id}, ${TIER_LABELS[org.tier]} tier).`,
        json: { user, organization: organizationJson(org) },
      };
    },
    { create: true },
  );
