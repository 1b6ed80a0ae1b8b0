/**
 * OSRM's per-coordinate options, shared by its services: `bearings`, `radiuses`, `snapping` (Waymark's
 * own checks, sanitize/snapping.ts), `approaches` and `hints`, one `;`-separated entry per
 * coordinate (empty for the default). A list of another length is OSRM's InvalidOptions, with its
 * message; a bad entry is InvalidValue naming the parameter.
 */
import { messages, quoted } from '../../http/params/messages.js';
import { snapRulesOf } from '../sanitize/snapping.js';
import { osrmError } from './errors.js';
import type { Approach, SnapRule } from '../../../workers/routing/task.js';

const APPROACHES = ['curb', 'opposite', 'unrestricted'] as const;

/** A hint is base64url (OSRM's own are base64 with `-_` for `+/`). */
const HINT = /^[A-Za-z0-9_\-+/=]*$/;

/** The entries of a per-coordinate list, or null when absent; OSRM's InvalidOptions when their number is not the coordinates'. */
function perCoordinate(query: URLSearchParams, name: string, count: number): string[] | null {
  const raw = query.get(name);
  if (raw === null) return null;
  const entries = raw.split(';');
  if (entries.length !== count) {
    throw osrmError('InvalidOptions', `Number of elements in ${name} size ${entries.length} does not match coordinate size ${count}`);
  }
  return entries;
}

function approachOf(entry: string): Approach | null {
  if (entry === '' || entry === 'unrestricted') return null;
  if (entry === 'curb' || entry === 'opposite') return entry;
  throw osrmError('InvalidValue', messages.unknownValue('approaches', entry, APPROACHES));
}

/** Where each of the `count` coordinates may snap, in order. */
export function osrmSnapRules(query: URLSearchParams, count: number): SnapRule[] {
  const bearings = perCoordinate(query, 'bearings', count);
  const radiuses = perCoordinate(query, 'radiuses', count);
  const approaches = perCoordinate(query, 'approaches', count);
  const hints = perCoordinate(query, 'hints', count);
  // Waymark's check of the same three, with `|` for OSRM's `;`.
  const own = new URLSearchParams();
  if (bearings) own.set('bearings', bearings.join('|'));
  if (radiuses) own.set('radiuses', radiuses.join('|'));
  const snapping = query.get('snapping');
  if (snapping !== null) own.set('snapping', snapping);
  const rules = snapRulesOf(own, count);
  if (rules.errors.length > 0) throw osrmError('InvalidValue', rules.errors.join('; '));
  const badHint = hints?.find((hint) => !HINT.test(hint));
  if (badHint !== undefined) throw osrmError('InvalidValue', `invalid parameter 'hints': ${quoted(badHint)} is not a hint (base64)`);
  return rules.value.map((rule, i) => {
    const hint = hints?.[i];
    return { ...rule, approach: approachOf(approaches?.[i] ?? ''), ...(hint ? { hint } : {}) };
  });
}
