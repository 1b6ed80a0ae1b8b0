// Waymark dashboard: sign-in, invitations, API keys (with origin, address and expiry restrictions, edits and rolls), usage, billing,
// the team and its roles, and the map playground over the same-origin JSON API. What the page offers follows the role's powers (`user.powers`).

const API = '/dashboard/api';
const SERVICES = ['maps', 'geocoding', 'routing'];
const SERVICE_LABELS = { maps: 'Maps', geocoding: 'Geocoding', routing: 'Routing' };
const TIER_LABELS = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };
const STATUS_LABELS = { active: 'Active', revoked: 'Revoked', pending: 'Pending', accepted: 'Accepted', expired: 'Expired' };
const VIEWS = ['keys', 'usage', 'billing', 'team', 'playground'];
/** The roles, most powerful first; what each may do comes from the server (`user.powers`). */
const ROLES = ['owner', 'admin', 'member'];
const ROLE_LABELS = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const withArticle = (role) => `${role === 'member' ? 'a' : 'an'} ${role}`;
const DAY_MS = 86_400_000;

const PLANS = [
  {
    tier: 'free',
    price: '$0',
    period: 'per month',
    quotas: { maps: 10_000, geocoding: 5_000, routing: 5_000 },
    blurb: 'For trying Waymark out and small projects.',
  },
  {
    tier: 'pro',
    price: '$49',
    period: 'per month',
    quotas: { maps: 500_000, geocoding: 100_000, routing: 100_000 },
    blurb: 'For production apps with real traffic.',
  },
  {
    tier: 'enterprise',
    price: 'Custom',
    period: 'pricing',
    quotas: null,
    blurb: 'Custom quotas and service-level terms, arranged with your Waymark operator.',
  },
];

/** The signed-in session: `{ user, organization, csrfToken }`, or null. */
let session = null;

// ---------------------------------------------------------------- helpers

const $ = (selector, root = document) => root.querySelector(selector);

/** Creates an element with attributes (`text` sets its text) and children. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

const formatNumber = (n) => n.toLocaleString('en-US');
const formatLimit = (limit) => (limit === null ? 'unlimited' : formatNumber(limit));

/** `2026-11-15T12:03:00.000Z` → `2026-11-15 12:03` (the tables say the times are UTC). */
const formatTime = (iso) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : 'Never');

/** What the signed-in member's role allows (`plan`, `roles`, `invitations`, `allKeys`), as the server says. */
const can = (power) => Boolean(session?.user.powers?.[power]);

const pad2 = (n) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's time zone (`2027-01-31T13:00`); '' for none. */
function localInputValue(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant in UTC; null when empty. */
function isoFromLocalInput(value) {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error('Enter the expiry as a date and a time.');
  return d.toISOString();
}

/** Origins or addresses typed one per line or comma-separated. */
const listFromText = (text) => text.split(/[\s,]+/).filter(Boolean);

const monthName = (iso) => new Date(iso).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the dashboard API; rejects with the server's `message` on an error status. */
async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && session) headers['X-CSRF-Token'] = session.csrfToken;
  let res;
  try {
    res = await fetch(API + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'Cannot reach the Waymark server. Check your connection and try again.');
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data?.message ?? `The server answered ${res.status}.`);
  return data;
}

/** Shows a message in the page banner; errors stay until the next message. */
function showBanner(message, kind = 'info') {
  const banner = $('#banner');
  banner.textContent = message;
  banner.className = `banner ${kind}`;
  banner.hidden = false;
}

function hideBanner() {
  $('#banner').hidden = true;
}

/** After a successful action no earlier error stays on screen: neither in a form nor in the banner. */
function clearErrors() {
  for (const error of document.querySelectorAll('.form-error')) error.textContent = '';
  if ($('#banner').classList.contains('error')) hideBanner();
}

/** Runs a form submission: disables its button and shows any API error inside the form. */
async function submitting(form, action) {
  const button = $('button[type="submit"]', form);
  const error = $('.form-error', form);
  error.textContent = '';
  button.disabled = true;
  try {
    await action();
    clearErrors();
  } catch (e) {
    if (e.status === 401 && session) return signedOut('Your session has ended. Please sign in again.');
    error.textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

/** Runs a view action, reporting API errors in the banner. */
async function guarded(action) {
  try {
    await action();
    clearErrors();
  } catch (e) {
    if (e.status === 401 && session) signedOut('Your session has ended. Please sign in again.');
    else showBanner(e.message, 'error');
  }
}

/** Shows a secret (a new key's value, an invitation link) once in its `.secret` card, with a copy button; `id` is what it belongs to. */
function showSecret(card, value, id) {
  card.dataset.for = id;
  $('.secret-value', card).textContent = value;
  $('.copy-status', card).textContent = '';
  card.hidden = false;
  $('.copy-secret', card).focus();
}

/** Forgets a secret so it is not left in the page. */
function clearSecret(card) {
  $('.secret-value', card).textContent = '';
  card.hidden = true;
}

function clearSecrets() {
  for (const card of document.querySelectorAll('.secret')) clearSecret(card);
}

/** Takes a revoked key's value or invitation's link off the page. */
function clearSecretOf(id) {
  for (const card of document.querySelectorAll('.secret')) if (card.dataset.for === id) clearSecret(card);
}

async function copySecret(card) {
  const value = $('.secret-value', card);
  const status = $('.copy-status', card);
  try {
    await navigator.clipboard.writeText(value.textContent);
    status.textContent = 'Copied to the clipboard.';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(value);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status.textContent = 'It is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}

function setUpSecrets() {
  for (const card of document.querySelectorAll('.secret')) {
    $('.copy-secret', card).addEventListener('click', () => copySecret(card));
    $('.dismiss-secret', card).addEventListener('click', () => clearSecret(card));
  }
}

/** What the confirmation dialog runs when its danger button is chosen. */
let confirmedAction = null;

/** Asks, in the confirmation dialog, before an action that cannot be undone. `message` is text and elements. */
function confirmDanger({ title, message, confirmLabel }, action) {
  confirmedAction = action;
  $('#confirm-title').textContent = title;
  $('#confirm-message').replaceChildren(...message);
  $('#confirm-button').textContent = confirmLabel;
  const dialog = $('#confirm-dialog');
  dialog.returnValue = '';
  dialog.showModal();
  $('button[value="cancel"]', dialog).focus();
}

function onConfirmDialogClosed() {
  const action = confirmedAction;
  confirmedAction = null;
  if (action && $('#confirm-dialog').returnValue === 'confirm') guarded(action);
}

/** A small Revoke button for a table row. */
function revokeButton(label, onClick) {
  const button = el('button', { type: 'button', class: 'button danger small', 'aria-label': label, text: 'Revoke' });
  button.addEventListener('click', onClick);
  return button;
}

/** A status pill: active, revoked, pending, accepted or expired; `title` says since when. */
function statusBadge(status, title = null) {
  return el('span', { class: `status ${status}`, title, text: STATUS_LABELS[status] });
}

// ---------------------------------------------------------------- session

const AUTH_FORMS = ['signin', 'signup', 'join'];
const AUTH_TITLES = { signin: 'Sign in to Waymark', signup: 'Create your Waymark account' };

/** The invitation token the join form accepts (from a `#invitation=…` link), or null. */
let pendingInvitation = null;

function signedIn(data) {
  session = data;
  if (invitationInUrl()) forgetInvitationUrl();
  renderAccount();
  $('#auth-view').hidden = true;
  $('#app-view').hidden = false;
  $('#account').hidden = false;
  showView();
}

/** Takes the dashboard and every secret it showed off the page. */
function leaveDashboard() {
  session = null;
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
async function resumeSession() {
  try {
    signedIn(await api('GET', '/me'));
  } catch (e) {
    signedOut(e.status === 401 ? '' : e.message);
  }
}

function renderAccount() {
  $('#account-org').textContent = session.organization.name;
  $('#account').dataset.role = session.user.role;
  $('#account-org').hidden = session.organization.name === session.user.email;
  $('#account-tier').textContent = TIER_LABELS[session.organization.tier];
  $('#account-tier').dataset.tier = session.organization.tier;
  $('#account-email').textContent = session.user.email;
}

/** Shows one of the account forms (`signin`, `signup` or `join`); the tabs are only for the first two. */
function showAuthForm(which, title = AUTH_TITLES[which]) {
  for (const name of AUTH_FORMS) $(`#${name}-form`).hidden = name !== which;
  $('#auth-tabs').hidden = which === 'join';
  $('#tab-signin').setAttribute('aria-selected', String(which === 'signin'));
  $('#tab-signup').setAttribute('aria-selected', String(which === 'signup'));
  $('#auth-title').textContent = title;
  $(`#${which}-form input[name="email"]`).focus();
}

/** Wires an account form that signs the person in; `body` makes the request body from the form. */
function onAccountForm(form, path, body) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitting(form, async () => {
      const data = await api('POST', path, body(form));
      form.reset();
      hideBanner();
      signedIn(data);
    });
  });
}

function setUpAuth() {
  $('#tab-signin').addEventListener('click', () => showAuthForm('signin'));
  $('#tab-signup').addEventListener('click', () => showAuthForm('signup'));
  onAccountForm($('#signin-form'), '/signin', (form) => ({ email: form.email.value, password: form.password.value }));
  onAccountForm($('#signup-form'), '/signup', (form) => {
    const organization = form.organization.value.trim();
    return { email: form.email.value, password: form.password.value, ...(organization ? { organization } : {}) };
  });
  onAccountForm($('#join-form'), '/signup', (form) => ({ email: form.email.value, password: form.password.value, invitation: pendingInvitation }));
  $('#leave-invitation').addEventListener('click', (event) => {
    event.preventDefault();
    pendingInvitation = null;
    forgetInvitationUrl();
    resumeSession();
  });

  $('#sign-out').addEventListener('click', () =>
    guarded(async () => {
      await api('POST', '/signout');
      signedOut('You have signed out.');
    }),
  );
}

// ---------------------------------------------------------------- invitation links

/** The invitation token of a `#invitation=wmi_…` link, or null. */
function invitationInUrl() {
  return new URLSearchParams(location.hash.slice(1)).get('invitation');
}

/** Takes the invitation token out of the address bar (and so out of the history). */
function forgetInvitationUrl() {
  history.replaceState(null, '', location.pathname + location.search);
}

/** Opens an invitation link: the join form for its organization, or why the link cannot be used. */
async function openInvitation(token) {
  leaveDashboard();
  pendingInvitation = null;
  $('#auth-view').hidden = true;
  try {
    const { organization, expiresAt } = await api('POST', '/invitations/preview', { invitation: token });
    pendingInvitation = token;
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

// ---------------------------------------------------------------- routing

/** The view is the first part of the hash; the playground keeps its map position after it (`#playground&map=…`). */
function currentView() {
  const name = location.hash.slice(1).split('&')[0];
  return VIEWS.includes(name) ? name : 'keys';
}

const VIEW_LOADERS = { keys: loadKeys, usage: loadUsage, billing: renderBilling, team: loadTeam, playground: loadPlayground };

/** The view on screen. */
let shownView = null;

/** Shows the view named by the URL hash (`#keys`, `#usage`, `#billing`, `#team`, `#playground`) and loads its data. */
function showView() {
  if (!session) return;
  const name = currentView();
  shownView = name;
  for (const view of VIEWS) $(`#${view}-view`).hidden = view !== name;
  for (const link of document.querySelectorAll('.sidebar a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  clearSecrets();
  guarded(async () => {
    await refreshAccount();
    await VIEW_LOADERS[name]();
  });
}

function onHashChange() {
  const invitation = invitationInUrl();
  if (invitation) return openInvitation(invitation);
  if (currentView() === shownView && shownView === 'playground') return; // the map moved
  hideBanner();
  showView();
}

/** Re-reads the member and the organization: an owner may have changed the role, an operator the tier or quotas. */
async function refreshAccount() {
  const { user, organization } = await api('GET', '/me');
  session.user = user;
  session.organization = organization;
  renderAccount();
}

// ---------------------------------------------------------------- API keys

// The server lists keys oldest first (in creation order, also within one millisecond).
const newestFirst = (keys) => [...keys].reverse();

async function loadKeys() {
  // Admins and owners see every key: each says who made it.
  const [{ keys }, team] = await Promise.all([api('GET', '/keys'), can('allKeys') ? api('GET', '/members') : null]);
  keyMakers = new Map((team?.members ?? []).map((member) => [member.id, member.email]));
  const scope = $('#keys-scope');
  scope.textContent = can('allKeys') ? '' : `You see and manage the keys you created. As ${withArticle(session.user.role)}, ask an admin or owner of the organization about its other keys.`;
  scope.hidden = can('allKeys');
  renderKeys(keys);
}

function scopeChips(scopes) {
  return el('span', { class: 'chips' }, ...scopes.map((s) => el('span', { class: `chip ${s}`, text: SERVICE_LABELS[s] })));
}

function keyStatusBadge(key) {
  return statusBadge(key.status, key.revokedAt ? `Revoked ${formatTime(key.revokedAt)} UTC` : null);
}

const isPast = (iso) => iso !== null && Date.parse(iso) <= Date.now();

/** A key's origins, addresses, expiry and, after a roll, until when its previous value works. */
function keyRestrictions(key) {
  const list = (items, anything) => (items.length ? items.map((item) => el('code', { text: item })) : [el('span', { class: 'muted', text: anything })]);
  const item = (kind, label, ...content) => el('li', { 'data-restriction': kind }, el('span', { class: 'restriction-label', text: label }), ' ', ...content);
  const expiry = key.expiresAt === null ? el('span', { class: 'muted', text: 'Never' }) : `${isPast(key.expiresAt) ? 'Expired' : ''} ${formatTime(key.expiresAt)} UTC`.trim();
  const items = [
    item('origins', 'Origins', ...list(key.allowedOrigins, 'Any origin')),
    item('ips', 'IPs', ...list(key.allowedIps, 'Any IP')),
    item('expires', 'Expires', expiry),
  ];
  if (key.status === 'active' && key.previousHashExpiresAt && !isPast(key.previousHashExpiresAt)) {
    items.push(item('previous', 'Previous value', `works until ${formatTime(key.previousHashExpiresAt)} UTC`));
  }
  return el('ul', { class: 'restriction-list' }, ...items);
}

/** A time in a table cell that may wrap between the date and the time of day, never inside either. */
function timeCell(iso) {
  const [day, time] = formatTime(iso).split(' ');
  return el('td', { class: 'time' }, el('span', { text: day }), ...(time ? [' ', el('span', { text: time })] : []));
}

function keyActions(key) {
  if (key.status !== 'active') return '';
  const edit = el('button', { type: 'button', class: 'button secondary small', 'aria-label': `Edit key ${key.name}`, text: 'Edit' });
  edit.addEventListener('click', () => openEditKey(key));
  const roll = el('button', { type: 'button', class: 'button secondary small', 'aria-label': `Roll key ${key.name}`, text: 'Roll' });
  roll.addEventListener('click', () => openRollKey(key));
  return el('div', { class: 'row-actions' }, edit, roll, revokeButton(`Revoke key ${key.name}`, () => confirmRevokeKey(key)));
}

/** Who made each key, by member id (filled for admins and owners, who see every key). */
let keyMakers = new Map();

function keyNameCell(key) {
  const maker = key.createdBy && key.createdBy !== session.user.id ? keyMakers.get(key.createdBy) : null;
  // A narrow column breaks the email after its "@" rather than inside a word.
  const at = maker ? maker.lastIndexOf('@') + 1 : 0;
  const byMaker = maker ? el('span', { class: 'key-maker' }, `by ${maker.slice(0, at)}`, el('wbr'), maker.slice(at)) : '';
  return el('td', {}, el('span', { class: 'key-name', text: key.name }), byMaker);
}

function keyRow(key) {
  const expired = key.status === 'active' && isPast(key.expiresAt);
  return el(
    'tr',
    { 'data-key-id': key.id, 'data-status': expired ? 'expired' : key.status },
    keyNameCell(key),
    el('td', {}, el('code', { class: 'hint', text: key.hint })),
    el('td', {}, scopeChips(key.scopes)),
    el('td', { class: 'key-restrictions' }, keyRestrictions(key)),
    timeCell(key.createdAt),
    timeCell(key.lastUsedAt),
    el('td', { class: 'key-status' }, expired ? statusBadge('expired', `Expired ${formatTime(key.expiresAt)} UTC`) : keyStatusBadge(key)),
    el('td', { class: 'actions' }, keyActions(key)),
  );
}

function renderKeys(keys) {
  $('#keys-table tbody').replaceChildren(...newestFirst(keys).map(keyRow));
  $('#keys-table').hidden = keys.length === 0;
  $('#keys-empty').hidden = keys.length > 0;
}

/** Shows a key's value once: a new key's, or (`rolled`) a rolled key's new one, with until when the old one works. */
function showNewKey(key, value, rolled = false) {
  createdKeyValues.set(key.id, value);
  $('#new-key-intro').textContent = rolled ? 'The new value of key' : 'Your new key';
  $('#new-key-name').textContent = key.name;
  $('#new-key-playground').hidden = !key.scopes.includes('maps');
  const grace = $('#new-key-grace');
  grace.hidden = !rolled;
  grace.textContent = !rolled
    ? ''
    : key.previousHashExpiresAt
      ? `The old value keeps working until ${formatTime(key.previousHashExpiresAt)} UTC: change your applications over before then.`
      : 'The old value has stopped working.';
  showSecret($('#new-key'), value, key.id);
}

/** The restrictions typed in the key form, as the API takes them (empty lists for any; a null expiry for never). */
function restrictionsOf(form) {
  return {
    allowedOrigins: listFromText(form.elements.allowedOrigins.value),
    allowedIps: listFromText(form.elements.allowedIps.value),
    expiresAt: isoFromLocalInput(form.elements.expiresAt.value),
  };
}

const checkedScopes = (form) => [...form.querySelectorAll('input[name="scopes"]:checked')].map((box) => box.value);

/** Says which time zone the expiry fields are in. */
function describeTimeZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const hint of document.querySelectorAll('.expires-hint')) hint.textContent = `In your time zone${zone ? ` (${zone})` : ''}; listed in UTC. Empty: never.`;
}

/** The key the edit dialog is open for. */
let editedKey = null;

function openEditKey(key) {
  editedKey = key;
  const form = $('#edit-key-form');
  form.reset();
  $('#edit-key-title').textContent = `Edit key “${key.name}”`;
  form.elements.name.value = key.name;
  for (const box of form.querySelectorAll('input[name="scopes"]')) box.checked = key.scopes.includes(box.value);
  form.elements.allowedOrigins.value = key.allowedOrigins.join('\n');
  form.elements.allowedIps.value = key.allowedIps.join('\n');
  form.elements.expiresAt.value = localInputValue(key.expiresAt);
  $('.form-error', form).textContent = '';
  $('#edit-key-dialog').showModal();
  form.elements.name.focus();
}

const sameList = (a, b) => a.length === b.length && a.every((item, i) => item === b[i]);

/** What the edit form changes of the key: only the fields edited, so an untouched (even past) expiry is left alone. */
function keyEdits(form, key) {
  const changes = {};
  const name = form.elements.name.value.trim();
  if (name !== key.name) changes.name = name;
  const scopes = checkedScopes(form);
  if (scopes.length === 0) throw new Error('Choose at least one scope.');
  if (!sameList([...scopes].sort(), [...key.scopes].sort())) changes.scopes = scopes;
  const origins = listFromText(form.elements.allowedOrigins.value);
  if (!sameList(origins, key.allowedOrigins)) changes.allowedOrigins = origins;
  const ips = listFromText(form.elements.allowedIps.value);
  if (!sameList(ips, key.allowedIps)) changes.allowedIps = ips;
  if (form.elements.expiresAt.value !== localInputValue(key.expiresAt)) changes.expiresAt = isoFromLocalInput(form.elements.expiresAt.value);
  return changes;
}

/** The key the roll dialog is open for. */
let rolledKey = null;

function openRollKey(key) {
  rolledKey = key;
  const form = $('#roll-key-form');
  form.reset();
  $('#roll-key-title').textContent = `Roll key “${key.name}”`;
  $('.form-error', form).textContent = '';
  $('#roll-key-dialog').showModal();
  $('input[name="grace"]:checked', form).focus();
}

/** Prepares the key form for a playground key: named so, with the Maps scope only. */
function prepareMapsKeyForm() {
  const form = $('#create-key-form');
  form.elements.name.value = 'Map playground';
  for (const box of form.querySelectorAll('input[name="scopes"]')) box.checked = box.value === 'maps';
}

function setUpKeys() {
  $('#create-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitting(form, async () => {
      const scopes = checkedScopes(form);
      if (scopes.length === 0) throw new Error('Choose at least one scope.');
      const { allowedOrigins, allowedIps, expiresAt } = restrictionsOf(form);
      const body = { name: form.elements.name.value, scopes };
      if (allowedOrigins.length) body.allowedOrigins = allowedOrigins;
      if (allowedIps.length) body.allowedIps = allowedIps;
      if (expiresAt) body.expiresAt = expiresAt;
      const { key, value } = await api('POST', '/keys', body);
      form.reset();
      showNewKey(key, value);
      await loadKeys();
    });
  });
  describeTimeZone();
  const editDialog = $('#edit-key-dialog');
  $('#edit-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const key = editedKey;
    submitting(form, async () => {
      const changes = keyEdits(form, key);
      if (Object.keys(changes).length > 0) {
        const { key: updated } = await api('PATCH', `/keys/${encodeURIComponent(key.id)}`, changes);
        showBanner(`The key “${updated.name}” has been updated.`, 'success');
      }
      editDialog.close();
      await loadKeys();
    });
  });
  const rollDialog = $('#roll-key-dialog');
  $('#roll-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const key = rolledKey;
    submitting(form, async () => {
      const grace = $('input[name="grace"]:checked', form).value;
      const { key: rolled, value } = await api('POST', `/keys/${encodeURIComponent(key.id)}/roll`, { grace });
      rollDialog.close();
      showNewKey(rolled, value, true);
      await loadKeys();
    });
  });
  for (const dialog of [editDialog, rollDialog]) {
    $('button[value="cancel"]', dialog).addEventListener('click', () => dialog.close());
  }
  $('#create-maps-key').addEventListener('click', () => {
    prepareMapsKeyForm();
    // The link's own navigation shows the keys view first; then the form can take the focus.
    addEventListener('hashchange', () => $('#create-key-form button[type="submit"]').focus(), { once: true });
  });
}

function confirmRevokeKey(key) {
  confirmDanger(
    {
      title: `Revoke key “${key.name}”?`,
      message: ['The key ', el('code', { text: key.hint }), ' will stop working immediately. Every application using it will get 401 errors. This cannot be undone.'],
      confirmLabel: 'Revoke key',
    },
    async () => {
      await api('POST', `/keys/${encodeURIComponent(key.id)}/revoke`);
      clearSecretOf(key.id);
      showBanner(`The key “${key.name}” has been revoked.`, 'success');
      await loadKeys();
    },
  );
}

// ---------------------------------------------------------------- usage

async function loadUsage() {
  const usage = await api('GET', '/usage');
  $('#usage-period').textContent =
    `${monthName(usage.period.start)} (UTC), on the ${TIER_LABELS[usage.organization.tier]} plan. Quotas reset on ${usage.period.end.slice(0, 10)}.`;
  $('#usage-services').replaceChildren(...SERVICES.map((s) => serviceCard(s, usage.services[s])));
  $('#usage-chart').replaceChildren(dailyChart(usage.period, usage.daily));
  $('#key-usage-table tbody').replaceChildren(...usage.keys.map(keyUsageRow));
}

function serviceCard(service, { used, limit }) {
  const percent = limit === null ? 0 : Math.min(100, (used / Math.max(limit, 1)) * 100);
  const fill = el('div', { class: 'bar-fill' });
  fill.style.width = `${percent}%`;
  const bar = el(
    'div',
    {
      class: `bar ${percent >= 100 ? 'full' : percent >= 80 ? 'high' : ''}`,
      role: 'progressbar',
      'aria-label': `${SERVICE_LABELS[service]} quota used`,
      'aria-valuemin': '0',
      'aria-valuemax': limit === null ? false : String(limit),
      'aria-valuenow': String(used),
      'aria-valuetext': `${formatNumber(used)} of ${formatLimit(limit)}`,
    },
    fill,
  );
  return el(
    'article',
    { class: 'card service-card', 'data-service': service },
    el('h2', { text: SERVICE_LABELS[service] }),
    el(
      'p',
      { class: 'usage-figure' },
      el('span', { class: 'used', text: formatNumber(used) }),
      ' / ',
      el('span', { class: 'limit', text: formatLimit(limit) }),
    ),
    bar,
    el('p', { class: 'muted', text: limit === null ? 'No monthly limit' : `${formatNumber(Math.max(0, limit - used))} remaining this month` }),
  );
}

function keyUsageRow(key) {
  return el(
    'tr',
    { 'data-key-id': key.id },
    el('td', { text: key.name }),
    el('td', {}, el('code', { class: 'hint', text: key.hint })),
    el('td', {}, keyStatusBadge(key)),
    ...SERVICES.map((s) => el('td', { class: 'num', 'data-service': s, text: formatNumber(key.used[s]) })),
  );
}

/** Every UTC day of the period, each with its counts (zero when no row came back). */
function daysOfPeriod(period, daily) {
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const days = [];
  for (let t = Date.parse(period.start); t < Date.parse(period.end); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(byDay.get(day) ?? { day, maps: 0, geocoding: 0, routing: 0 });
  }
  return days;
}

/** A round axis maximum at or above `n` (1, 2 or 4 times a power of ten) whose half is a whole number. */
function niceCeiling(n) {
  if (n <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 4, 10].map((m) => m * power).find((v) => v >= n);
}

const CHART = { width: 960, height: 240, left: 56, right: 12, top: 12, bottom: 28 };

/** A stacked bar per day (maps, geocoding, routing) as inline SVG. */
function dailyChart(period, daily) {
  const days = daysOfPeriod(period, daily);
  const total = (d) => d.maps + d.geocoding + d.routing;
  const max = niceCeiling(Math.max(0, ...days.map(total)));
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = plotWidth / days.length;
  const y = (value) => CHART.top + plotHeight - (value / max) * plotHeight;
  const sum = days.reduce((acc, d) => acc + total(d), 0);

  const chart = svg('svg', {
    viewBox: `0 0 ${CHART.width} ${CHART.height}`,
    role: 'img',
    'aria-label': `Daily requests in ${monthName(period.start)}: ${formatNumber(sum)} in total`,
    class: 'daily-chart',
  });
  for (const tick of [0, max / 2, max]) {
    chart.append(
      svg('line', { x1: CHART.left, x2: CHART.width - CHART.right, y1: y(tick), y2: y(tick), class: 'grid' }),
      svg('text', { x: CHART.left - 8, y: y(tick) + 4, class: 'axis-label', 'text-anchor': 'end' }, formatNumber(tick)),
    );
  }
  days.forEach((d, i) => chart.append(dayBars(d, CHART.left + i * slot, slot, y)));
  days.forEach((d, i) => {
    const dayOfMonth = i + 1;
    if (dayOfMonth === 1 || dayOfMonth % 5 === 0) {
      chart.append(svg('text', { x: CHART.left + (i + 0.5) * slot, y: CHART.height - 8, class: 'axis-label', 'text-anchor': 'middle' }, String(dayOfMonth)));
    }
  });
  return chart;
}

function dayBars(day, x, slot, y) {
  const group = svg('g', { class: 'day', 'data-day': day.day });
  const summary = SERVICES.map((s) => `${SERVICE_LABELS[s]} ${formatNumber(day[s])}`).join(', ');
  group.append(svg('title', {}, `${day.day}: ${summary}`));
  const barWidth = Math.max(2, slot * 0.7);
  let stacked = 0;
  for (const service of SERVICES) {
    if (day[service] === 0) continue;
    const top = y(stacked + day[service]);
    group.append(svg('rect', { x: x + (slot - barWidth) / 2, y: top, width: barWidth, height: y(stacked) - top, class: `bar-${service}`, 'data-count': day[service] }));
    stacked += day[service];
  }
  return group;
}

// ---------------------------------------------------------------- billing

/** Whether the page offers plan changes: to owners, and not on an Enterprise plan (the operator's to set). */
const mayChoosePlan = () => can('plan') && session.organization.tier !== 'enterprise';

function renderBilling() {
  const current = session.organization.tier;
  const note = $('#plan-note');
  if (current === 'enterprise') {
    note.textContent = 'Your organization is on an Enterprise plan: your Waymark operator sets it and its quotas. Ask them to change it.';
  } else if (!can('plan')) {
    note.textContent = `Only an owner of the organization can change its plan; you are ${withArticle(session.user.role)}.`;
  } else {
    note.textContent = '';
  }
  note.hidden = note.textContent === '';
  $('#plans').replaceChildren(...PLANS.map((plan) => planCard(plan, current)));
  const quotas = session.organization.quotas;
  $('#current-quotas').replaceChildren(
    ...SERVICES.flatMap((s) => [el('dt', { text: SERVICE_LABELS[s] }), el('dd', { 'data-service': s, text: `${formatLimit(quotas[s])} per month` })]),
  );
}

function planAction(plan, current) {
  if (plan.tier === current) return el('p', { class: 'plan-current', text: 'Your current plan' });
  if (plan.tier === 'enterprise') {
    return el('p', { class: 'plan-contact' }, el('strong', { text: 'Contact us' }), ' — Enterprise plans are not self-serve; ask your Waymark operator.');
  }
  if (!mayChoosePlan()) return '';
  const button = el('button', { type: 'button', class: `button ${plan.tier === 'pro' ? 'primary' : 'secondary'}`, text: `Switch to ${TIER_LABELS[plan.tier]}` });
  button.addEventListener('click', () => changeTier(plan.tier, button));
  return button;
}

function planCard(plan, current) {
  const quotaItems = plan.quotas
    ? SERVICES.map((s) => el('li', {}, el('strong', { text: formatNumber(plan.quotas[s]) }), ` ${SERVICE_LABELS[s].toLowerCase()} requests / month`))
    : [el('li', { text: 'Custom quotas for maps, geocoding and routing' }), el('li', { text: 'Service-level terms' })];
  return el(
    'article',
    { class: `card plan${plan.tier === current ? ' current' : ''}`, 'data-tier': plan.tier, 'aria-current': plan.tier === current ? 'true' : false },
    el('h2', { text: TIER_LABELS[plan.tier] }),
    el('p', { class: 'price' }, el('span', { class: 'amount', text: plan.price }), ` ${plan.period}`),
    el('p', { class: 'muted', text: plan.blurb }),
    el('ul', { class: 'plan-quotas' }, ...quotaItems),
    planAction(plan, current),
  );
}

async function changeTier(tier, button) {
  button.disabled = true;
  await guarded(async () => {
    const { organization } = await api('PUT', '/billing', { tier });
    session.organization = organization;
    renderAccount();
    renderBilling();
    showBanner(`You are now on the ${TIER_LABELS[tier]} plan. Your new quotas apply immediately.`, 'success');
  });
  button.disabled = false;
}

// ---------------------------------------------------------------- team

async function loadTeam() {
  const { role } = session.user;
  $('#team-role').replaceChildren(
    'You are ',
    el('strong', { text: withArticle(role) }),
    ` of ${session.organization.name}: `,
    can('roles')
      ? 'you choose the plan and the members\' roles, and manage every key and the invitations.'
      : can('invitations')
        ? 'you manage every key and the invitations. An owner chooses the plan and the members\' roles.'
        : 'you see the usage and manage the keys you created. Ask an admin or owner to invite someone.',
  );
  const invites = can('invitations');
  for (const part of ['#create-invitation-form', '#invitations-card']) $(part).hidden = !invites;
  if (!invites) clearSecret($('#new-invitation'));
  else fillInvitationRoles();
  await Promise.all([loadMembers(), invites ? loadInvitations() : null]);
}

/** The roles the member may give in an invitation: up to their own (the server refuses more). */
function fillInvitationRoles() {
  const select = $('#create-invitation-form select[name="role"]');
  const chosen = select.value || 'member';
  const grantable = ROLES.slice(ROLES.indexOf(session.user.role));
  select.replaceChildren(...grantable.map((role) => el('option', { value: role, selected: role === chosen }, ROLE_LABELS[role])));
  if (!grantable.includes(chosen)) select.value = 'member';
}

async function loadMembers() {
  const { members } = await api('GET', '/members');
  $('#members-table tbody').replaceChildren(...members.map(memberRow));
}

function roleBadge(role) {
  return el('span', { class: `role ${role}`, text: ROLE_LABELS[role] });
}

/** An owner's role menu for a member; a refused change (the last owner, say) is shown and undone. */
function roleSelect(member) {
  const select = el(
    'select',
    { class: 'role-select', 'aria-label': `Role of ${member.email}` },
    ...ROLES.map((role) => el('option', { value: role, selected: role === member.role }, ROLE_LABELS[role])),
  );
  select.addEventListener('change', async () => {
    const role = select.value;
    select.disabled = true;
    try {
      const { member: changed } = await api('PUT', `/members/${encodeURIComponent(member.id)}/role`, { role });
      member.role = changed.role;
      clearErrors();
      showBanner(`${changed.email} is now ${withArticle(changed.role)}.`, 'success');
      // One's own role changed: the page shows what the new role allows.
      if (changed.id === session.user.id) showView();
      else await loadMembers();
    } catch (e) {
      if (e.status === 401 && session) return signedOut('Your session has ended. Please sign in again.');
      select.value = member.role;
      showBanner(e.message, 'error');
    } finally {
      select.disabled = false;
    }
  });
  return select;
}

function memberRow(member) {
  const you = member.id === session.user.id ? el('span', { class: 'muted', text: ' (you)' }) : '';
  return el(
    'tr',
    { 'data-member-id': member.id, 'data-role': member.role },
    el('td', { class: 'member-email' }, member.email, you),
    el('td', { class: 'member-role' }, can('roles') ? roleSelect(member) : roleBadge(member.role)),
    el('td', { class: 'time', text: formatTime(member.createdAt) }),
  );
}

async function loadInvitations() {
  const { invitations } = await api('GET', '/invitations');
  $('#invitations-table tbody').replaceChildren(...invitations.map(invitationRow));
  $('#invitations-table').hidden = invitations.length === 0;
  $('#invitations-empty').hidden = invitations.length > 0;
}

function invitationStatusBadge(invitation) {
  const since = { accepted: invitation.acceptedAt, revoked: invitation.revokedAt }[invitation.status];
  return statusBadge(invitation.status, since ? `${STATUS_LABELS[invitation.status]} ${formatTime(since)} UTC` : null);
}

function invitationRow(invitation) {
  return el(
    'tr',
    { 'data-invitation-id': invitation.id, 'data-status': invitation.status },
    el('td', {}, el('code', { class: 'hint', text: invitation.hint })),
    el('td', { class: 'invitation-role' }, roleBadge(invitation.role)),
    el('td', { class: 'invitation-status' }, invitationStatusBadge(invitation)),
    el('td', { class: 'time', text: formatTime(invitation.createdAt) }),
    el('td', { class: 'time', text: formatTime(invitation.expiresAt) }),
    el('td', { text: invitation.createdBy ?? '—' }),
    el('td', { class: 'accepted-by', text: invitation.acceptedBy ?? '—' }),
    el(
      'td',
      { class: 'actions' },
      invitation.status === 'pending' ? revokeButton(`Revoke invitation ${invitation.hint}`, () => confirmRevokeInvitation(invitation)) : '',
    ),
  );
}

function confirmRevokeInvitation(invitation) {
  confirmDanger(
    {
      title: 'Revoke this invitation link?',
      message: ['The link ', el('code', { text: invitation.hint }), ' will stop working at once: nobody can join your organization with it. This cannot be undone.'],
      confirmLabel: 'Revoke invitation',
    },
    async () => {
      await api('POST', `/invitations/${encodeURIComponent(invitation.id)}/revoke`);
      clearSecretOf(invitation.id);
      showBanner('The invitation link has been revoked.', 'success');
      await loadInvitations();
    },
  );
}

function setUpTeam() {
  $('#create-invitation-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitting(form, async () => {
      const { invitation, url } = await api('POST', '/invitations', { role: form.elements.role.value });
      $('#new-invitation-expires').textContent = formatTime(invitation.expiresAt);
      showSecret($('#new-invitation'), url, invitation.id);
      await loadInvitations();
    });
  });
}

// ---------------------------------------------------------------- map playground

/** Values of the keys created in this tab, by key id: only in this page's memory, for the playground. */
const createdKeyValues = new Map();
/** The key the style menu was filled with. */
let styleMenuKey = '';
const WORLD_VIEW = { center: [0, 20], zoom: 1.5 };
let maplibre = null;
let map = null;
let shownStyleUrl = '';

/** Forgets the key values of the account that left. */
function forgetKeyValues() {
  createdKeyValues.clear();
  $('#playground-key').value = '';
}

/** The value of the newest active key with the Maps scope created in this tab, or ''. */
function newestMapsKeyValue(keys) {
  const usable = keys.filter((key) => key.status === 'active' && key.scopes.includes('maps') && createdKeyValues.has(key.id));
  return usable.length ? createdKeyValues.get(usable.at(-1).id) : '';
}

/**
 * Fills in the newest usable key of the current key list (never a revoked one, nor one without Maps),
 * or asks for one. A key pasted from elsewhere is left as it is: the live API will judge it.
 */
async function loadPlayground() {
  const { keys } = await api('GET', '/keys');
  const input = $('#playground-key');
  const createdHere = [...createdKeyValues.values()].includes(input.value);
  if (input.value === '' || createdHere) input.value = newestMapsKeyValue(keys);
  await useKeyInField();
}

function playgroundStatus(message, kind = 'info') {
  const status = $('#playground-status');
  status.textContent = message;
  status.dataset.kind = kind;
}

/** Fills the style menu from the live API with the key, keeping the chosen style. */
async function loadStyleMenu(key) {
  if (key === styleMenuKey) return;
  const select = $('#playground-style');
  const chosen = select.value;
  styleMenuKey = '';
  select.replaceChildren();
  const response = await fetch(`/api/v1/styles?key=${encodeURIComponent(key)}`);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message ?? `The maps API answered ${response.status}.`);
  select.replaceChildren(...body.styles.map((style) => el('option', { value: style.slug, selected: style.slug === chosen }, style.name)));
  styleMenuKey = key;
}

/** Fills the style menu with the key in the field; without a key that works there is no map (and without any key, a prompt for one). */
async function useKeyInField() {
  const key = $('#playground-key').value.trim();
  const refusal = key ? await loadStyleMenu(key).then(() => '', (e) => e.message) : '';
  const usable = key !== '' && !refusal;
  $('#playground-no-key').hidden = key !== '';
  if (!usable) $('#playground-map').hidden = $('#playground-static').hidden = true;
  if (refusal) playgroundStatus(refusal, 'error');
  else if (!key || $('#playground-status').dataset.kind === 'error') playgroundStatus('');
  return usable;
}

/** Where the map opens: the centre and zoom of the dataset's TileJSON, else its bounds, else the whole world. */
async function datasetView(styleUrl) {
  try {
    const style = await (await fetch(styleUrl)).json();
    const source = Object.values(style.sources).find((s) => s.type === 'vector' && s.url);
    const tileJson = await (await fetch(source.url)).json();
    const [longitude, latitude, zoom] = tileJson.center ?? [];
    if (Number.isFinite(longitude) && Number.isFinite(latitude)) return { center: [longitude, latitude], zoom: zoom ?? 2 };
    if (tileJson.bounds?.length === 4) return { bounds: tileJson.bounds };
  } catch {
    // No TileJSON to go by (no dataset imported yet, say): the world.
  }
  return WORLD_VIEW;
}

async function showPlaygroundMap() {
  if (!(await useKeyInField())) return;
  const key = $('#playground-key').value.trim();
  maplibre ??= await import('/dashboard/vendor/maplibre-gl/maplibre-gl.mjs');
  const lang = $('#playground-lang').value;
  const styleUrl = `${location.origin}/api/v1/styles/${encodeURIComponent($('#playground-style').value)}/style.json?key=${encodeURIComponent(key)}${lang ? `&lang=${lang}` : ''}`;
  $('#playground-map').hidden = false;
  $('#playground-static').hidden = false;
  // The same style again would load nothing (and bring no new `idle` event).
  if (styleUrl === shownStyleUrl) return;
  shownStyleUrl = styleUrl;
  playgroundStatus('Loading the map…');
  if (map) {
    map.setStyle(styleUrl);
    return;
  }
  // A position in the URL (`&map=zoom/lat/lon`) wins over the dataset's view.
  map = new maplibre.Map({ container: 'playground-map', style: styleUrl, hash: 'map', ...(await datasetView(styleUrl)) });
  map.addControl(new maplibre.NavigationControl());
  map.on('error', (event) => playgroundStatus(`Map error: ${event.error?.message ?? 'unknown'}`, 'error'));
  map.on('idle', () => {
    if ($('#playground-status').dataset.kind !== 'error') playgroundStatus(`Showing ${$('#playground-style').selectedOptions[0]?.textContent ?? ''} at zoom ${map.getZoom().toFixed(1)}.`, 'ready');
  });
}

/** The largest static map side (the API's limit). */
const STATIC_MAX_SIDE = 1280;

/** The `/staticmap` URL of the map's current view: its centre, zoom and size (up to the API's limit), style and labels. */
function staticMapUrl() {
  const key = $('#playground-key').value.trim();
  const { lng, lat } = map.getCenter();
  const { clientWidth, clientHeight } = map.getContainer();
  const size = `${Math.min(clientWidth, STATIC_MAX_SIDE)}x${Math.min(clientHeight, STATIC_MAX_SIDE)}`;
  const lang = $('#playground-lang').value;
  const query = new URLSearchParams({ key, style: $('#playground-style').value, center: `${lat.toFixed(5)},${lng.toFixed(5)}`, zoom: map.getZoom().toFixed(2), size });
  if (devicePixelRatio > 1) query.set('scale', '2');
  if (lang) query.set('lang', lang);
  return `${location.origin}/api/v1/staticmap?${query}`;
}

/** Shows the static map of the current view and its URL; an API refusal is shown as the status. */
async function showStaticMap() {
  const card = $('#playground-static');
  const url = staticMapUrl();
  const response = await fetch(url);
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    playgroundStatus(body.message ?? `The static map API answered ${response.status}.`, 'error');
    return;
  }
  const image = $('#playground-static-image');
  if (image.src.startsWith('blob:')) URL.revokeObjectURL(image.src);
  image.src = URL.createObjectURL(await response.blob());
  image.hidden = false;
  $('.secret-value', card).textContent = url;
  $('.copy-status', card).textContent = '';
  $('.playground-static-url', card).hidden = false;
}

function setUpPlayground() {
  const staticCard = $('#playground-static');
  $('#playground-static-make').addEventListener('click', () => map && showStaticMap());
  $('.copy-secret', staticCard).addEventListener('click', () => copySecret(staticCard));
  $('#playground-key').addEventListener('change', useKeyInField);
  $('#playground-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showPlaygroundMap();
  });
}

// ---------------------------------------------------------------- start

function start() {
  setUpAuth();
  setUpSecrets();
  setUpKeys();
  setUpTeam();
  setUpPlayground();
  $('#confirm-dialog').addEventListener('close', onConfirmDialogClosed);
  $('#refresh-usage').addEventListener('click', () => guarded(loadUsage));
  addEventListener('hashchange', onHashChange);
  const invitation = invitationInUrl();
  if (invitation) openInvitation(invitation);
  else resumeSession();
}

start();
