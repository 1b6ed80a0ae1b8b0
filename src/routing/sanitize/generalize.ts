/** `generalize` of isochrones: a tolerance in metres for simplifying the contours, 0–10000; absent means none. */
import { decimalInRange } from '../../http/params/number.js';
import { clean, type Sanitizer } from '../../http/params/sanitized.js';

export const MAX_GENERALIZE_METRES = 10_000;

export const sanitizeGeneralize: Sanitizer<number | undefined> = (query) => {
  const raw = query.get('generalize');
  return raw === null ? clean(undefined) : decimalInRange('generalize', raw, 0, MAX_GENERALIZE_METRES);
};
