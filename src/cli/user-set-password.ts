/** `waymark user set-password`: an operator sets a user's password, ending all of the user's sessions. */
import { validateEmail } from '../control-plane/accounts.js';
import { setPassword } from '../control-plane/password-changes.js';
import { CliError, type CommandRun } from './command.js';
import { withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const email = validateEmail(input.required('email'));
    const user = await store.findUserByEmail(email);
    if (!user || !(await setPassword(store, user.id, input.required('password'), null))) throw new CliError(`there is no user ${email}`);
    return { text: `Set the password of ${email}; its sessions have ended.`, json: { id: user.id, email } };
  });
