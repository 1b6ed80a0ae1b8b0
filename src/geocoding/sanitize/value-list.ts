/** Comma-separated lists of named values (layers, sources): trimmed, lower-cased, aliases resolved, unknowns refused. */
import { messages } from './messages.js';
import { clean, rejected, type Sanitized } from '../../http/params/sanitized.js';

/**
 * Resolves each comma-separated entry of `raw` through `meanings` (an entry may stand for several values),
 * keeping the first occurrence of each value. Every unknown entry is reported, naming the valid ones.
 */
export function resolveValueList<T extends string>(name: string, raw: string, meanings: ReadonlyMap<string, readonly T[]>): Sanitized<T[]> {
  const values = new Set<T>();
  const errors: string[] = [];
  for (const entry of raw.split(',')) {
    const word = entry.trim().toLowerCase();
    const meaning = meanings.get(word);
    if (word === '') errors.push(messages.empty(name));
    else if (meaning === undefined) errors.push(messages.unknownValue(name, entry.trim(), [...meanings.keys()]));
    else for (const value of meaning) values.add(value);
  }
  return errors.length > 0 ? rejected([], ...errors) : clean([...values]);
}
