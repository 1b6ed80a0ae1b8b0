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
