/** `waymark org set-role`: a member's role; an organization keeps at least one owner. */
import { parseRole, validateEmail } from '../control-plane/accounts.js';
import { CliError, type CommandRun } from './command.js';
import { findOrg, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const email = validateEmail(input.required('email'));
    const role = parseRole(input.required('role'));
    const user = await store.findUserByEmail(email);
    const member = user && user.orgId === org.id ? await store.setRole(org.id, user.id, role) : null;
    if (!member) throw new CliError(`${email} is not a member of ${org.name}; see "waymark org members --org ${org.name}"`);
    return { text: `${member.email} is now ${role === 'member' ? 'a' : 'an'} ${role} of ${org.name}.`, json: member };
  });
