// Finding and making elements, and the small ones every area uses (status pills, Revoke buttons).
import { STATUS_LABELS } from './format.js';

export const $ = (selector, root = document) => root.querySelector(selector);

/** Creates an element with attributes (`text` sets its text) and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/**
 * Puts the rows in the table's body, each cell labelled (`data-label`) with its column's heading: on a
 * narrow screen the rows are stacked as cards, and each value carries its heading (app.css).
 * Columns whose heading is only for screen readers (the actions) are left unlabelled.
 */
export function fillTable(table, rows) {
  const labels = [...table.tHead.rows[0].cells].map((th) => (th.querySelector('.visually-hidden') ? null : th.textContent.trim()));
  for (const row of rows) [...row.cells].forEach((cell, i) => labels[i] && cell.setAttribute('data-label', labels[i]));
  table.tBodies[0].replaceChildren(...rows);
}

/** An email that may break after its "@" (and anywhere, if it must) rather than overflow; the full address is its title. */
export function emailText(address) {
  const at = address.lastIndexOf('@') + 1;
  return el('span', { class: 'email', title: address }, address.slice(0, at), el('wbr'), address.slice(at));
}

/** A small Revoke button for a table row. */
export function revokeButton(label, onClick) {
  const button = el('button', { type: 'button', class: 'button danger small', 'aria-label': label, text: 'Revoke' });
  button.addEventListener('click', onClick);
  return button;
}

/** A status pill: active, revoked, pending, accepted or expired; `title` says since when. */
export function statusBadge(status, title = null) {
  return el('span', { class: `status ${status}`, title, text: STATUS_LABELS[status] });
}
