// Waymark dashboard: sign-in, invitations, API keys (with origin, address and expiry restrictions, edits and rolls), usage, billing,
// the team (roles, removing members, one's password; reset links), and the map playground over the same-origin JSON API. What the page offers follows the role's powers (`user.powers`).
// One ES module per area, loaded natively (no build step); this one wires them together.
import { invitationInUrl, openInvitation, openReset, resetInUrl, resumeSession, setUpAuth } from './auth.js';
import { loadAudit } from './audit.js';
import { renderBilling } from './billing.js';
import { hideBanner, setUpConfirm } from './feedback.js';
import { loadKeys, setUpKeys } from './keys.js';
import { loadPlayground, setUpPlayground } from './playground.js';
import { setUpSecrets } from './secrets.js';
import { state } from './state.js';
import { loadTeam, setUpTeam } from './team.js';
import { loadUsage, setUpUsage } from './usage.js';
import { currentView, defineViews, showView } from './views.js';

function onHashChange() {
  const invitation = invitationInUrl();
  if (invitation) return openInvitation(invitation);
  const reset = resetInUrl();
  if (reset) return openReset(reset);
  if (currentView() === state.shownView && state.shownView === 'playground') return; // the map moved
  hideBanner();
  showView();
}

defineViews({ keys: loadKeys, usage: loadUsage, billing: renderBilling, team: loadTeam, audit: loadAudit, playground: loadPlayground });
setUpAuth();
setUpSecrets();
setUpKeys();
setUpUsage();
setUpTeam();
setUpPlayground();
setUpConfirm();
addEventListener('hashchange', onHashChange);
const invitation = invitationInUrl();
const reset = resetInUrl();
if (invitation) openInvitation(invitation);
else if (reset) openReset(reset);
else resumeSession();
