/** Every geocoding parameter may be given once; a repeated one is refused rather than silently picking one. */
import { messages } from './messages.js';

const GEOCODING_PARAMETERS = [
  'text', 'q', 'size', 'layers', 'sources', 'boundary.country', 'lang',
  'focus.point.lat', 'focus.point.lon', 'point.lat', 'point.lon', 'ids',
] as const;

/** One error per geocoding parameter that occurs more than once in the query. */
export function repeatedParameterErrors(query: URLSearchParams): string[] {
  return GEOCODING_PARAMETERS.filter((name) => query.getAll(name).length > 1).map(messages.duplicate);
}
