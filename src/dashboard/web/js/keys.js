// The API Keys area: create, list, edit, roll and revoke keys; a new value is shown once.
import { api } from './api.js';
import { $, el, emailText, fillTable, revokeButton, statusBadge } from './dom.js';
import { confirmDanger, onSubmit, showBanner } from './feedback.js';
import { formatTime, isPast, isoFromLocalInput, listFromText, localInputValue, SERVICE_LABELS, withArticle } from './format.js';
import { clearSecretOf, showSecret } from './secrets.js';
import { can, state } from './state.js';

// The server lists keys oldest first (in creation order, also within one millisecond).
const newestFirst = (keys) => [...keys].reverse();

export async function loadKeys() {
  // Admins and owners see every key: each says who made it.
  const [{ keys }, team] = await Promise.all([api('GET', '/keys'), can('allKeys') ? api('GET', '/members') : null]);
  state.keyMakers = new Map((team?.members ?? []).map((member) => [member.id, member.email]));
  const scope = $('#keys-scope');
  scope.textContent = can('allKeys')
    ? ''
    : `You see and manage the keys you created. As ${withArticle(state.session.user.role)}, ask an admin or owner of the organization about its other keys.`;
  scope.hidden = can('allKeys');
  renderKeys(keys);
}

function scopeChips(scopes) {
  return el('span', { class: 'chips' }, ...scopes.map((s) => el('span', { class: `chip ${s}`, text: SERVICE_LABELS[s] })));
}

export function keyStatusBadge(key) {
  return statusBadge(key.status, key.revokedAt ? `Revoked ${formatTime(key.revokedAt)} UTC` : null);
}

/** A key's own per-minute limits as the form shows them, e.g. `maps=600, routing=60`; empty for none. */
const perMinuteText = (limits) =>
  Object.entries(limits)
    .map(([service, n]) => `${service}=${n}`)
    .join(', ');

/** A key's origins, addresses, expiry and, after a roll, until when its previous value works. */
function keyRestrictions(key) {
  const list = (items, anything) =>
    items.length ? items.map((item) => el('code', { text: item })) : [el('span', { class: 'muted', text: anything })];
  const item = (kind, label, ...content) =>
    el('li', { 'data-restriction': kind }, el('span', { class: 'restriction-label', text: label }), ' ', ...content);
  const expiry =
    key.expiresAt === null
      ? el('span', { class: 'muted', text: 'Never' })
      : `${isPast(key.expiresAt) ? 'Expired' : ''} ${formatTime(key.expiresAt)} UTC`.trim();
  const items = [
    item('origins', 'Origins', ...list(key.allowedOrigins, 'Any origin')),
    item('ips', 'IPs', ...list(key.allowedIps, 'Any IP')),
    item('expires', 'Expires', expiry),
    item('per-minute', 'Per minute', perMinuteText(key.perMinute) || el('span', { class: 'muted', text: "Plan's limits" })),
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
  return el(
    'div',
    { class: 'row-actions' },
    edit,
    roll,
    revokeButton(`Revoke key ${key.name}`, () => confirmRevokeKey(key)),
  );
}

function keyNameCell(key) {
  const maker = key.createdBy && key.createdBy !== state.session.user.id ? state.keyMakers.get(key.createdBy) : null;
  const byMaker = maker ? el('span', { class: 'key-maker' }, 'by ', emailText(maker)) : '';
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
  fillTable($('#keys-table'), newestFirst(keys).map(keyRow));
  $('#keys-table').hidden = keys.length === 0;
  $('#keys-empty').hidden = keys.length > 0;
}

/** Shows a key's value once: a new key's, or (`rolled`) a rolled key's new one, with until when the old one works. */
function showNewKey(key, value, rolled = false) {
  state.createdKeyValues.set(key.id, value);
  // A new (or newly rolled) Maps key is the one the playground uses next.
  if (key.scopes.includes('maps')) state.playgroundPick = key.id;
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
    perMinute: form.elements.perMinute.value.trim(),
  };
}

const checkedScopes = (form) => [...form.querySelectorAll('input[name="scopes"]:checked')].map((box) => box.value);

/** Says which time zone the expiry fields are in. */
function describeTimeZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const hint of document.querySelectorAll('.expires-hint'))
    hint.textContent = `In your time zone${zone ? ` (${zone})` : ''}; listed in UTC. Empty: never.`;
}

function openEditKey(key) {
  state.dialogKey = key;
  const form = $('#edit-key-form');
  form.reset();
  $('#edit-key-title').textContent = `Edit key “${key.name}”`;
  form.elements.name.value = key.name;
  for (const box of form.querySelectorAll('input[name="scopes"]')) box.checked = key.scopes.includes(box.value);
  form.elements.allowedOrigins.value = key.allowedOrigins.join('\n');
  form.elements.allowedIps.value = key.allowedIps.join('\n');
  form.elements.expiresAt.value = localInputValue(key.expiresAt);
  form.elements.perMinute.value = perMinuteText(key.perMinute);
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
  if (form.elements.expiresAt.value !== localInputValue(key.expiresAt))
    changes.expiresAt = isoFromLocalInput(form.elements.expiresAt.value);
  const perMinute = form.elements.perMinute.value.trim();
  if (perMinute !== perMinuteText(key.perMinute)) changes.perMinute = perMinute === '' ? null : perMinute;
  return changes;
}

function openRollKey(key) {
  state.dialogKey = key;
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

export function setUpKeys() {
  onSubmit($('#create-key-form'), async (form) => {
    const scopes = checkedScopes(form);
    if (scopes.length === 0) throw new Error('Choose at least one scope.');
    const { allowedOrigins, allowedIps, expiresAt, perMinute } = restrictionsOf(form);
    const body = { name: form.elements.name.value, scopes };
    if (allowedOrigins.length) body.allowedOrigins = allowedOrigins;
    if (allowedIps.length) body.allowedIps = allowedIps;
    if (expiresAt) body.expiresAt = expiresAt;
    if (perMinute) body.perMinute = perMinute;
    const { key, value } = await api('POST', '/keys', body);
    form.reset();
    showNewKey(key, value);
    await loadKeys();
  });
  describeTimeZone();
  const editDialog = $('#edit-key-dialog');
  onSubmit($('#edit-key-form'), async (form) => {
    const key = state.dialogKey;
    const changes = keyEdits(form, key);
    if (Object.keys(changes).length > 0) {
      const { key: updated } = await api('PATCH', `/keys/${encodeURIComponent(key.id)}`, changes);
      showBanner(`The key “${updated.name}” has been updated.`, 'success');
    }
    editDialog.close();
    await loadKeys();
  });
  const rollDialog = $('#roll-key-dialog');
  onSubmit($('#roll-key-form'), async (form) => {
    const key = state.dialogKey;
    const grace = $('input[name="grace"]:checked', form).value;
    const { key: rolled, value } = await api('POST', `/keys/${encodeURIComponent(key.id)}/roll`, { grace });
    rollDialog.close();
    showNewKey(rolled, value, true);
    await loadKeys();
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
      message: [
        'The key ',
        el('code', { text: key.hint }),
        ' will stop working immediately. Every application using it will get 401 errors. This cannot be undone.',
      ],
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
