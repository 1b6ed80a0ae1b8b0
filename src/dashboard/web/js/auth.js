// Signing in, up (a new organization) and out, joining an organization with an invitation link, and setting a new password
// with an operator's reset link.
import { api } from './api.js';
import { $ } from './dom.js';
import { guarded, hideBanner, onSubmit, SESSION_ENDED, showBanner } from './feedback.js';
import { formatTime } from './format.js';
import { forgetKeyValues } from './playground.js';
import { clearSecrets } from './secrets.js';
import { state } from './state.js';
import { renderAccount, showView } from './views.js';

const AUTH_FORMS = ['signin', 'signup', 'join', 'reset'];
const AUTH_TITLES = { signin: 'Sign in to Waymark', signup: 'Create your Waymark account', reset: 'Choose a new password' };

async function signedIn(data) {
  // The plan table names the tiers (top bar, usage, billing); it is the same for everyone, so once per page.
  state.plans ??= (await api('GET', '/plans')).plans;
  state.session = data;
  if (invitationInUrl() || resetInUrl()) forgetInvitationUrl();
  renderAccount();
  $('#auth-view').hidden = true;
  $('#app-view').hidden = false;
  $('#account').hidden = false;
  showView();
}

/** Takes the dashboard and every secret it showed off the page. */
function leaveDashboard() {
  state.session = null;
  for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close();
  $('#app-view').hidden = true;
  $('#account').hidden = true;
  clearSecrets();
  forgetKeyValues();
}

function signedOut(message) {
  leaveDashboard();
  $('#auth-view').hidden = false;
  if (message) showBanner(message, 'info');
  else hideBanner();
  showAuthForm('signin');
}

/** Shows the dashboard when the browser has a session, else the sign-in form. */
export async function resumeSession() {
  try {
    await signedIn(await api('GET', '/me'));
  } catch (e) {
    signedOut(e.status === 401 ? '' : e.message);
  }
}

/** Shows one of the account forms (`signin`, `signup`, `join` or `reset`); the tabs are only for the first two. */
function showAuthForm(which, title = AUTH_TITLES[which]) {
  for (const name of AUTH_FORMS) $(`#${name}-form`).hidden = name !== which;
  $('#auth-tabs').hidden = which === 'join' || which === 'reset';
  $('#tab-signin').setAttribute('aria-selected', String(which === 'signin'));
  $('#tab-signup').setAttribute('aria-selected', String(which === 'signup'));
  $('#auth-title').textContent = title;
  $(`#${which}-form input`).focus();
}

/** Wires an account form that signs the person in; `body` makes the request body from the form. */
function onAccountForm(form, path, body) {
  onSubmit(form, async () => {
    const data = await api('POST', path, body(form));
    form.reset();
    hideBanner();
    await signedIn(data);
  });
}

export function setUpAuth() {
  $('#tab-signin').addEventListener('click', () => showAuthForm('signin'));
  $('#tab-signup').addEventListener('click', () => showAuthForm('signup'));
  onAccountForm($('#signin-form'), '/signin', (form) => ({ email: form.email.value, password: form.password.value }));
  onAccountForm($('#signup-form'), '/signup', (form) => {
    const organization = form.organization.value.trim();
    return { email: form.email.value, password: form.password.value, ...(organization ? { organization } : {}) };
  });
  onAccountForm($('#join-form'), '/signup', (form) => ({
    email: form.email.value,
    password: form.password.value,
    invitation: state.pendingInvitation,
  }));
  onAccountForm($('#reset-form'), '/password/reset', (form) => ({ token: state.pendingReset, password: form.password.value }));
  $('#leave-invitation').addEventListener('click', (event) => {
    event.preventDefault();
    state.pendingInvitation = null;
    forgetInvitationUrl();
    resumeSession();
  });

  $('#sign-out').addEventListener('click', () =>
    guarded(async () => {
      await api('POST', '/signout');
      signedOut('You have signed out.');
    }),
  );
  addEventListener(SESSION_ENDED, () => signedOut('Your session has ended. Please sign in again.'));
}

/** The invitation token of a `#invitation=wmi_…` link, or null. */
export function invitationInUrl() {
  return new URLSearchParams(location.hash.slice(1)).get('invitation');
}

/** The token of a password-reset link (`#reset=wmr_…`, printed by `waymark user reset-password`), or null. */
export function resetInUrl() {
  return new URLSearchParams(location.hash.slice(1)).get('reset');
}

/** Opens a reset link: the form for the new password (the server says whether the link still works). */
export function openReset(token) {
  leaveDashboard();
  state.pendingReset = token;
  hideBanner();
  $('#auth-view').hidden = false;
  showAuthForm('reset');
}

/** Takes the invitation or reset token out of the address bar (and so out of the history). */
function forgetInvitationUrl() {
  history.replaceState(null, '', location.pathname + location.search);
}

/** Opens an invitation link: the join form for its organization, or why the link cannot be used. */
export async function openInvitation(token) {
  leaveDashboard();
  state.pendingInvitation = null;
  $('#auth-view').hidden = true;
  try {
    const { organization, expiresAt } = await api('POST', '/invitations/preview', { invitation: token });
    state.pendingInvitation = token;
    $('#join-org').textContent = organization.name;
    $('#join-expires').textContent = formatTime(expiresAt);
    $('#join-submit').textContent = `Join ${organization.name}`;
    hideBanner();
    $('#auth-view').hidden = false;
    showAuthForm('join', `Join ${organization.name}`);
  } catch (e) {
    // The link is of no use any more: say why, and offer signing in or up on one's own.
    forgetInvitationUrl();
    $('#auth-view').hidden = false;
    showAuthForm('signup');
    showBanner(e.message, 'error');
  }
}
