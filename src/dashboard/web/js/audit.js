// The audit log area (owners and admins): every change to the organization's keys, members, roles, invitations and plan, newest first.
import { api } from './api.js';
import { $, el } from './dom.js';
import { formatTime } from './format.js';

const actorText = (entry) => (entry.actor.kind === 'user' ? entry.actor.email : 'Operator (CLI)');

/** One line per changed field: `role: "member" → "admin"`. */
function changeCell(entry) {
  const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  const value = (values, field) => (values && field in values ? JSON.stringify(values[field]) : '–');
  return el(
    'td',
    { class: 'audit-change' },
    el(
      'ul',
      {},
      ...fields.map((field) => el('li', {}, el('code', { text: field }), ` ${value(entry.before, field)} → ${value(entry.after, field)}`)),
    ),
  );
}

export async function loadAudit() {
  const { entries } = await api('GET', '/audit');
  const body = $('#audit-table tbody');
  body.replaceChildren(
    ...entries.map((entry) =>
      el(
        'tr',
        { 'data-action': entry.action },
        el('td', { class: 'time', text: `${formatTime(entry.at)} UTC` }),
        el('td', { text: actorText(entry) }),
        el('td', { text: entry.address ?? '–' }),
        el('td', {}, el('code', { text: entry.action })),
        el('td', {}, el('code', { text: entry.target })),
        changeCell(entry),
      ),
    ),
  );
  $('#audit-empty').hidden = entries.length > 0;
}
