/** `sources`: a comma list of data sources, short (osm, oa, gn, wof) or long names, normalized to long names. */
import { SOURCE_SHORT_NAMES, SOURCES, type Source } from '../../../core/geocoding/indexed-record.js';
import { clean, type Sanitizer } from '../../http/params/sanitized.js';
import { resolveValueList } from './value-list.js';

const SOURCE_MEANINGS = new Map<string, readonly Source[]>([
  ...Object.entries(SOURCE_SHORT_NAMES).map(([short, long]) => [short, [long]] as const),
  ...SOURCES.map((source) => [source, [source]] as const),
]);

export const sanitizeSources: Sanitizer<Source[]> = (query) => {
  const raw = query.get('sources');
  return raw === null ? clean([...SOURCES]) : resolveValueList('sources', raw, SOURCE_MEANINGS);
};

/** A source's long name from its short or long name, any case; undefined when unknown. */
export function sourceByName(name: string): Source | undefined {
  return SOURCE_MEANINGS.get(name.toLowerCase())?.[0];
}
