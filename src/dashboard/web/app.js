// Waymark dashboard: sign-in, API keys, usage and billing over the same-origin JSON API.

const API = '/dashboard/api';
const SERVICES = ['maps', 'geocoding', 'routing'];
const SERVICE_LABELS = { maps: 'Maps', geocoding: 'Geocoding', routing: 'Routing' };
const TIER_LABELS = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };
const VIEWS = ['keys', 'usage', 'billing', 'playground'];
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

/** Runs a form submission: disables its button and shows any API error inside the form. */
async function submitting(form, action) {
  const button = $('button[type="submit"]', form);
  const error = $('.form-error', form);
  error.textContent = '';
  button.disabled = true;
  try {
    await action();
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
  } catch (e) {
    if (e.status === 401 && session) signedOut('Your session has ended. Please sign in again.');
    else showBanner(e.message, 'error');
  }
}

// ---------------------------------------------------------------- session

function signedIn(data) {
  session = data;
  renderAccount();
  $('#auth-view').hidden = true;
  $('#app-view').hidden = false;
  $('#account').hidden = false;
  showView();
}

function signedOut(message) {
  session = null;
  $('#app-view').hidden = true;
  $('#account').hidden = true;
  $('#auth-view').hidden = false;
  clearNewKey();
  if (message) showBanner(message, 'info');
  else hideBanner();
  $('#signin-form input[name="email"]').focus();
}

function renderAccount() {
  $('#account-org').textContent = session.organization.name;
  $('#account-org').hidden = session.organization.name === session.user.email;
  $('#account-tier').textContent = TIER_LABELS[session.organization.tier];
  $('#account-tier').dataset.tier = session.organization.tier;
  $('#account-email').textContent = session.user.email;
}

function selectAuthTab(which) {
  const signUp = which === 'signup';
  $('#tab-signin').setAttribute('aria-selected', String(!signUp));
  $('#tab-signup').setAttribute('aria-selected', String(signUp));
  $('#signin-form').hidden = signUp;
  $('#signup-form').hidden = !signUp;
  $('#auth-title').textContent = signUp ? 'Create your Waymark account' : 'Sign in to Waymark';
  $(`#${which}-form input[name="email"]`).focus();
}

function setUpAuth() {
  $('#tab-signin').addEventListener('click', () => selectAuthTab('signin'));
  $('#tab-signup').addEventListener('click', () => selectAuthTab('signup'));

  $('#signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitting(form, async () => {
      const data = await api('POST', '/signin', { email: form.email.value, password: form.password.value });
      form.reset();
      hideBanner();
      signedIn(data);
    });
  });

  $('#signup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitting(form, async () => {
      const organization = form.organization.value.trim();
      const body = { email: form.email.value, password: form.password.value, ...(organization ? { organization } : {}) };
      const data = await api('POST', '/signup', body);
      form.reset();
      hideBanner();
      signedIn(data);
    });
  });

  $('#sign-out').addEventListener('click', () =>
    guarded(async () => {
      await api('POST', '/signout');
      signedOut('You have signed out.');
    }),
  );
}

// ---------------------------------------------------------------- routing

/** The view is the first part of the hash; the playground keeps its map position after it (`#playground&map=…`). */
function currentView() {
  const name = location.hash.slice(1).split('&')[0];
  return VIEWS.includes(name) ? name : 'keys';
}

const VIEW_LOADERS = { keys: loadKeys, usage: loadUsage, billing: renderBilling, playground: loadPlayground };

/** Shows the view named by the URL hash (`#keys`, `#usage`, `#billing`, `#playground`) and loads its data. */
function showView() {
  if (!session) return;
  const name = currentView();
  for (const view of VIEWS) $(`#${view}-view`).hidden = view !== name;
  for (const link of document.querySelectorAll('.sidebar a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (name !== 'keys') clearNewKey();
  guarded(async () => {
    await refreshAccount();
    await VIEW_LOADERS[name]();
  });
}

/** Re-reads the organization: an operator may have changed its tier or quotas meanwhile. */
async function refreshAccount() {
  const { organization } = await api('GET', '/me');
  session.organization = organization;
  renderAccount();
}

// ---------------------------------------------------------------- API keys

async function loadKeys() {
  const { keys } = await api('GET', '/keys');
  renderKeys(keys);
}

function scopeChips(scopes) {
  return el('span', { class: 'chips' }, ...scopes.map((s) => el('span', { class: `chip ${s}`, text: SERVICE_LABELS[s] })));
}

function statusBadge(key) {
  if (key.status === 'active') return el('span', { class: 'status active', text: 'Active' });
  return el('span', { class: 'status revoked', title: key.revokedAt ? `Revoked ${formatTime(key.revokedAt)} UTC` : null, text: 'Revoked' });
}

function revokeButton(key) {
  if (key.status !== 'active') return '';
  const button = el('button', { type: 'button', class: 'button danger small', 'aria-label': `Revoke key ${key.name}`, text: 'Revoke' });
  button.addEventListener('click', () => confirmRevoke(key));
  return button;
}

function keyRow(key) {
  return el(
    'tr',
    { 'data-key-id': key.id, 'data-status': key.status },
    el('td', { class: 'key-name', text: key.name }),
    el('td', {}, el('code', { class: 'hint', text: key.hint })),
    el('td', {}, scopeChips(key.scopes)),
    el('td', { class: 'time', text: formatTime(key.createdAt) }),
    el('td', { class: 'time', text: formatTime(key.lastUsedAt) }),
    el('td', { class: 'key-status' }, statusBadge(key)),
    el('td', { class: 'actions' }, revokeButton(key)),
  );
}

function renderKeys(keys) {
  const newestFirst = [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  $('#keys-table tbody').replaceChildren(...newestFirst.map(keyRow));
  $('#keys-table').hidden = keys.length === 0;
  $('#keys-empty').hidden = keys.length > 0;
}

function showNewKey(key, value) {
  if (key.scopes.includes('maps')) playgroundKey = value;
  $('#new-key-name').textContent = key.name;
  $('#new-key-value').textContent = value;
  $('#copy-status').textContent = '';
  $('#new-key').hidden = false;
  $('#copy-key').focus();
}

/** Forgets the one-time key value so it is not left in the page. */
function clearNewKey() {
  $('#new-key-value').textContent = '';
  $('#new-key').hidden = true;
}

function selectNewKey() {
  const range = document.createRange();
  range.selectNodeContents($('#new-key-value'));
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function copyNewKey() {
  const value = $('#new-key-value').textContent;
  try {
    await navigator.clipboard.writeText(value);
    $('#copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    selectNewKey();
    $('#copy-status').textContent = 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}

function setUpKeys() {
  $('#create-key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitting(form, async () => {
      const scopes = [...form.querySelectorAll('input[name="scopes"]:checked')].map((box) => box.value);
      if (scopes.length === 0) throw new Error('Choose at least one scope.');
      const { key, value } = await api('POST', '/keys', { name: form.elements.name.value, scopes });
      form.reset();
      showNewKey(key, value);
      await loadKeys();
    });
  });
  $('#copy-key').addEventListener('click', copyNewKey);
  $('#dismiss-key').addEventListener('click', clearNewKey);
  $('#revoke-dialog').addEventListener('close', onRevokeDialogClosed);
}

/** The key the revoke dialog is asking about. */
let keyToRevoke = null;

function confirmRevoke(key) {
  keyToRevoke = key;
  $('#revoke-key-name').textContent = key.name;
  $('#revoke-key-hint').textContent = key.hint;
  const dialog = $('#revoke-dialog');
  dialog.returnValue = '';
  dialog.showModal();
  $('button[value="cancel"]', dialog).focus();
}

function onRevokeDialogClosed() {
  const key = keyToRevoke;
  keyToRevoke = null;
  if (!key || $('#revoke-dialog').returnValue !== 'revoke') return;
  guarded(async () => {
    await api('POST', `/keys/${encodeURIComponent(key.id)}/revoke`);
    showBanner(`The key “${key.name}” has been revoked.`, 'success');
    await loadKeys();
  });
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
    el('td', {}, statusBadge(key)),
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

function renderBilling() {
  const current = session.organization.tier;
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

// ---------------------------------------------------------------- map playground

/** A maps key created in this tab; never stored anywhere else. */
let playgroundKey = '';
let maplibre = null;
let map = null;
let shownStyleUrl = '';

async function loadPlayground() {
  const keyInput = $('#playground-key');
  if (!keyInput.value && playgroundKey) keyInput.value = playgroundKey;
  if (keyInput.value) await loadStyleList(keyInput.value.trim());
}

function playgroundStatus(message, kind = 'info') {
  const status = $('#playground-status');
  status.textContent = message;
  status.dataset.kind = kind;
}

/** The style list of the live API, with the key; fills the style menu once. */
async function loadStyleList(key) {
  const select = $('#playground-style');
  if (select.options.length > 0) return;
  const response = await fetch(`/api/v1/styles?key=${encodeURIComponent(key)}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.message);
  select.replaceChildren(...body.styles.map((style) => el('option', { value: style.slug }, style.name)));
}

async function showPlaygroundMap() {
  const key = $('#playground-key').value.trim();
  if (!key) return playgroundStatus('Enter an API key with the Maps scope.', 'error');
  try {
    await loadStyleList(key);
  } catch (e) {
    return playgroundStatus(e.message, 'error');
  }
  maplibre ??= await import('/dashboard/vendor/maplibre-gl/maplibre-gl.mjs');
  const lang = $('#playground-lang').value;
  const styleUrl = `${location.origin}/api/v1/styles/${encodeURIComponent($('#playground-style').value)}/style.json?key=${encodeURIComponent(key)}${lang ? `&lang=${lang}` : ''}`;
  $('#playground-map').hidden = false;
  // The same style again would load nothing (and bring no new `idle` event).
  if (styleUrl === shownStyleUrl) return;
  shownStyleUrl = styleUrl;
  playgroundStatus('Loading the map…');
  if (map) {
    map.setStyle(styleUrl);
    return;
  }
  map = new maplibre.Map({ container: 'playground-map', style: styleUrl, hash: 'map', center: [0, 20], zoom: 1.5 });
  map.addControl(new maplibre.NavigationControl());
  map.on('error', (event) => playgroundStatus(`Map error: ${event.error?.message ?? 'unknown'}`, 'error'));
  map.on('idle', () => {
    if ($('#playground-status').dataset.kind !== 'error') playgroundStatus(`Showing ${$('#playground-style').selectedOptions[0]?.textContent ?? ''} at zoom ${map.getZoom().toFixed(1)}.`, 'ready');
  });
}

// ---------------------------------------------------------------- start

async function start() {
  setUpAuth();
  setUpKeys();
  $('#refresh-usage').addEventListener('click', () => guarded(loadUsage));
  $('#playground-key').addEventListener('change', () => {
    const key = $('#playground-key').value.trim();
    if (key) loadStyleList(key).catch((e) => playgroundStatus(e.message, 'error'));
  });
  $('#playground-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showPlaygroundMap();
  });
  let shownView = currentView();
  addEventListener('hashchange', () => {
    if (currentView() === shownView && shownView === 'playground') return; // the map moved
    shownView = currentView();
    hideBanner();
    showView();
  });
  try {
    signedIn(await api('GET', '/me'));
  } catch (e) {
    signedOut(e.status === 401 ? '' : e.message);
  }
}

start();
