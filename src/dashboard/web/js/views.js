// The signed-in page: the account in the top bar, and the view the URL hash names in the sidebar.
import { api } from './api.js';
import { $ } from './dom.js';
import { guarded } from './feedback.js';
import { tierLabel } from './format.js';
import { clearSecrets } from './secrets.js';
import { can, state } from './state.js';

/** Each view's loader by name; app.js fills it, since the areas import this module (to show a view or the account). */
const loaders = new Map();

export function defineViews(views) {
  for (const [name, load] of Object.entries(views)) loaders.set(name, load);
}

/** The view is the first part of the hash; the playground keeps its map position after it (`#playground&map=…`). */
export function currentView() {
  const name = location.hash.slice(1).split('&')[0];
  return loaders.has(name) ? name : 'keys';
}

/** Shows the view named by the URL hash (`#keys`, `#usage`, `#billing`, `#team`, `#audit`, `#playground`) and loads its data. */
export function showView() {
  if (!state.session) return;
  const name = currentView();
  state.shownView = name;
  for (const view of loaders.keys()) $(`#${view}-view`).hidden = view !== name;
  for (const link of document.querySelectorAll('.sidebar a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  clearSecrets();
  guarded(async () => {
    await refreshAccount();
    await loaders.get(name)();
  });
}

export function renderAccount() {
  const { user, organization } = state.session;
  $('#account-org').textContent = organization.name;
  $('#account').dataset.role = user.role;
  $('#account-org').hidden = organization.name === user.email;
  $('#account-tier').textContent = tierLabel(organization.tier);
  $('#account-tier').dataset.tier = organization.tier;
  $('#account-email').textContent = user.email;
  $('#audit-link').hidden = !can('audit');
}

/** Re-reads the member and the organization: an owner may have changed the role, an operator the tier or quotas. */
async function refreshAccount() {
  const { user, organization } = await api('GET', '/me');
  state.session.user = user;
  state.session.organization = organization;
  renderAccount();
}
