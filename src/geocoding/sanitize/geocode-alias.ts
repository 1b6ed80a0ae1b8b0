/** `q` of the /geocode alias route: the search text under another name; `text` beside it is ambiguous. */
import { messages } from './messages.js';
import { rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { searchText } from './text.js';

const textOfQ = searchText('q');

export const sanitizeQ: Sanitizer<string> = (query) =>
  query.has('text') && query.has('q') ? rejected('', messages.both('q', 'text')) : textOfQ(query);
