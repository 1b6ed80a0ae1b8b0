/** Parameters that take one of a few words (mode, geometries, overview, steps, polygons), with a default. */
import { clean, rejected, type Sanitizer } from './sanitized.js';
import { messages } from './messages.js';

/** One of `values`, exactly as written (OSRM's words are lower case); `fallback` when absent. */
export function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): Sanitizer<T> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return clean(fallback);
    return (values as readonly string[]).includes(raw) ? clean(raw as T) : rejected(fallback, messages.unknownValue(name, raw, values));
  };
}

/** `true` or `false`; `fallback` when absent. */
export function flag(name: string, fallback: boolean): Sanitizer<boolean> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return clean(fallback);
    if (raw === 'true' || raw === 'false') return clean(raw === 'true');
    return rejected(fallback, messages.badBoolean(name, raw));
  };
}
