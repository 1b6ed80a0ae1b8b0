/** `text` (search, autocomplete) and any other free-text parameter: required, trimmed, not empty, bounded. */
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from './sanitized.js';

/** Longest accepted text, in characters (Unicode code points) after trimming. */
export const MAX_TEXT_LENGTH = 200;

export function requiredText(name: string): Sanitizer<string> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return rejected('', messages.missing(name));
    const text = raw.trim();
    if (text === '') return rejected('', messages.empty(name));
    if ([...text].length > MAX_TEXT_LENGTH) return rejected('', messages.tooLong(name, MAX_TEXT_LENGTH));
    return clean(text);
  };
}

export const sanitizeText = requiredText('text');
