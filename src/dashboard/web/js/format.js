// Labels, and numbers and times as the page writes them.
import { state } from './state.js';

export const SERVICES = ['maps', 'geocoding', 'routing'];
export const SERVICE_LABELS = { maps: 'Maps', geocoding: 'Geocoding', routing: 'Routing' };
export const STATUS_LABELS = { active: 'Active', revoked: 'Revoked', pending: 'Pending', accepted: 'Accepted', expired: 'Expired' };
/** The roles, most powerful first; what each may do comes from the server (`user.powers`). */
export const ROLES = ['owner', 'admin', 'member'];
export const ROLE_LABELS = { owner: 'Owner', admin: 'Admin', member: 'Member' };
export const withArticle = (role) => `${role === 'member' ? 'a' : 'an'} ${role}`;

/** A tier's name (`pro` → `Pro`) from the server's plan table. */
export const tierLabel = (tier) => state.plans.find((plan) => plan.tier === tier).label;

export const formatNumber = (n) => n.toLocaleString('en-US');
export const formatLimit = (limit) => (limit === null ? 'unlimited' : formatNumber(limit));

/** `2026-11-15T12:03:00.000Z` → `2026-11-15 12:03` (the tables say the times are UTC). */
export const formatTime = (iso) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : 'Never');

/** Whether an ISO instant (null: never) has passed. */
export const isPast = (iso) => iso !== null && Date.parse(iso) <= Date.now();

export const monthName = (iso) => new Date(iso).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

const pad2 = (n) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's time zone (`2027-01-31T13:00`); '' for none. */
export function localInputValue(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant in UTC; null when empty. */
export function isoFromLocalInput(value) {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error('Enter the expiry as a date and a time.');
  return d.toISOString();
}

/** Origins or addresses typed one per line or comma-separated. */
export const listFromText = (text) => text.split(/[\s,]+/).filter(Boolean);
