/** `waymark org remove-member`: takes a member out of an organization, ending its sessions at once. */
import { validateEmail } from '../control-plane/accounts.js';
import { removeMember } from '../control-plane/members.js';
import { CliError, type CommandRun } from './command.js';
import { record } from '../control-plane/audit.js';
import { findOrg, operatorAudit, withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const email = validateEmail(input.required('email'));
    const user = await store.findUserByEmail(email);
    const removal =
      user && user.orgId === org.id ? await removeMember(store, null, org.id, user.id, input.isSet('revoke-keys'), Date.now()) : null;
    if (!removal) throw new CliError(`${email} is not a member of ${org.name}; see "waymark org members --org ${org.name}"`);
    const removed = { email: removal.user.email, role: removal.user.role, revokedKeys: removal.revokedKeys.map((key) => key.id) };
    await record(operatorAudit(store, org.id), { action: 'member.removed', target: removal.user.id, before: removed });
    const keys = removal.revokedKeys.length;
    const keyNote = input.isSet('revoke-keys')
      ? `; ${keys} key${keys === 1 ? '' : 's'} it created revoked`
      : '; the keys it created stay active (--revoke-keys revokes them)';
    return {
      text: `Removed ${email} from ${org.name}: its sessions have ended${keyNote}.`,
      json: { member: removal.user, revokedKeys: removal.revokedKeys.map((key) => key.id) },
    };
  });
