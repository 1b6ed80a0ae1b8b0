/** `time` of isochrones: whole minutes 1–60, or a comma list of up to 4 distinct ones, returned ascending. */
import { wholeNumber } from '../../http/params/number.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { messages } from './messages.js';

export const MIN_MINUTES = 1;
export const MAX_MINUTES = 60;
export const MAX_CONTOURS = 4;

export const sanitizeTime: Sanitizer<number[]> = (query) => {
  const raw = query.get('time');
  if (raw === null) return rejected([], messages.missing('time'));
  const entries = raw.split(',');
  if (entries.length > MAX_CONTOURS) return rejected([], messages.tooMany('time', MAX_CONTOURS));
  const errors: string[] = [];
  const minutes = new Set<number>();
  for (const entry of entries) {
    const value = wholeNumber('time', entry.trim());
    if (value.errors.length > 0) errors.push(...value.errors);
    else if (value.value < MIN_MINUTES || value.value > MAX_MINUTES) errors.push(messages.outOfRange('time', MIN_MINUTES, MAX_MINUTES));
    else if (minutes.has(value.value)) errors.push(messages.repeatedValue('time', value.value));
    else minutes.add(value.value);
  }
  return errors.length > 0 ? rejected([], ...errors) : clean([...minutes].sort((a, b) => a - b));
};
