/** `waymark user reset-password`: prints a one-time link with which the user sets a new password. */
import { setting } from '../../core/config.js';
import { validateEmail } from '../control-plane/accounts.js';
import { createPasswordReset } from '../control-plane/password-changes.js';
import { CliError, type CommandRun } from './command.js';
import { formatInstant } from './output.js';
import { withStore } from './store.js';

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const email = validateEmail(input.required('email'));
    const user = await store.findUserByEmail(email);
    if (!user) throw new CliError(`there is no user ${email}`);
    const { token, expiresAt } = await createPasswordReset(store, user, Date.now());
    // The token travels in the fragment, which browsers never send to a server or in a Referer.
    const path = `/dashboard/#reset=${token}`;
    const publicUrl = setting('publicUrl');
    const url = publicUrl ? `${publicUrl}${path}` : null;
    const where = url ?? `<the dashboard's address>${path} (set WAYMARK_PUBLIC_URL to have the full link printed)`;
    return {
      text: `Send this link to ${email}; it sets a new password once, until ${formatInstant(expiresAt)}, and ends the user's sessions:\n${where}`,
      json: { email, token, path, url, expiresAt },
    };
  });
