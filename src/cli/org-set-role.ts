/** `waymark org set-role`: a member's role; an organization keeps at least one owner. */
import { parseRole, validateEmail } from '../control-plane/accounts.js';
import { CliError, type CommandRun } from './command.js';
import { record } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const email = validateEmail(input.required('email'));
    const role = parseRole(input.required('role'));
    const user = await store.findUserByEmail(email);
    const member = user && user.orgId === org.id ? await store.setRole(org.id, user.id, role) : null;
    if (!member) throw new CliError(`${email} is not a member of ${org.name}; see "waymark org members --org ${org.name}"`);
    if (user!.role !== member.role) {
      const change = { action: 'member.role_changed', target: member.id, before: { email, role: user!.role } } as const;
      await record(operatorAudit(store, org.id), { ...change, after: { email, role: member.role } });
    }
    return { text: `${member.email} is now ${role === 'member' ? 'a' : 'an'} ${role} of ${org.name}.`, json: member };
  });
