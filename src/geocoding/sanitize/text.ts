/**
 * `text` (search, autocomplete) and `q` (/geocode): required, trimmed, bounded, and holding a word
 * to search for: text that normalizes to no token (punctuation, symbols) is as empty as "".
 */
import { tokenize } from '../../../core/geocoding/text/normalize.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

/** Longest accepted text, in characters (Unicode code points) after trimming. */
export const MAX_TEXT_LENGTH = 200;

export function searchText(name: string): Sanitizer<string> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return rejected('', messages.missing(name));
    const text = raw.trim();
    if (text === '') return rejected('', messages.empty(name));
    if ([...text].length > MAX_TEXT_LENGTH) return rejected('', messages.tooLong(name, MAX_TEXT_LENGTH));
    if (tokenize(text).length === 0) return rejected('', messages.noWords(name));
    return clean(text);
  };
}

export const sanitizeText = searchText('text');
