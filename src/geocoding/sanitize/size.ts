/** `size`: how many results; default 10, at least 1, above 40 clamped to 40 with a warning. */
import { messages } from './messages.js';
import { wholeNumber } from '../../http/params/number.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

export const DEFAULT_SIZE = 10;
export const MAX_SIZE = 40;

export const sanitizeSize: Sanitizer<number> = (query) => {
  const raw = query.get('size');
  if (raw === null) return clean(DEFAULT_SIZE);
  const size = wholeNumber('size', raw);
  if (size.errors.length > 0) return size;
  if (size.value < 1) return rejected(DEFAULT_SIZE, messages.tooSmall('size', 1));
  if (size.value > MAX_SIZE) return clean(MAX_SIZE, [messages.clamped('size', MAX_SIZE)]);
  return size;
};
