/**
 * The address fields of structured search (Pelias' `/search/structured`, its `_synthesize_analysis`
 * and `_iso2_to_iso3`): each trimmed with its runs of whitespace made one space; a field left
 * empty counts as not given, as in Pelias (a table of addresses has empty cells); at least one
 * field is required, and a postal code alone is refused, as Pelias does.
 */
import { countryByCode } from '../../../core/geocoding/countries.js';
import { tokenize } from '../../../core/geocoding/text/normalize.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { MAX_TEXT_LENGTH } from './text.js';

/** Pelias' structured fields, finest first. */
export const STRUCTURED_FIELDS = ['address', 'neighbourhood', 'borough', 'locality', 'county', 'region', 'postalcode', 'country'] as const;
export type StructuredField = (typeof STRUCTURED_FIELDS)[number];
export type StructuredAddress = Partial<Record<StructuredField, string>>;

/** A country given as an ISO alpha-2 code becomes the alpha-3 code, as in Pelias (the index holds alpha-3 codes). */
function countryValue(value: string): string {
  const country = value.length === 2 ? countryByCode(value) : undefined;
  return country?.alpha3 ?? value;
}

export const sanitizeStructuredAddress: Sanitizer<StructuredAddress> = (query) => {
  const fields: StructuredAddress = {};
  const errors: string[] = [];
  for (const name of STRUCTURED_FIELDS) {
    const value = query.get(name)?.trim().replace(/\s+/gu, ' ');
    if (value === undefined || value === '') continue;
    if ([...value].length > MAX_TEXT_LENGTH) errors.push(messages.tooLong(name, MAX_TEXT_LENGTH));
    else if (tokenize(value).length === 0) errors.push(messages.noWords(name));
    else fields[name] = name === 'country' ? countryValue(value) : value;
  }
  if (errors.length > 0) return rejected({}, ...errors);
  const given = Object.keys(fields);
  if (given.length === 0) return rejected({}, messages.noneOf(STRUCTURED_FIELDS));
  if (given.length === 1 && fields.postalcode !== undefined) return rejected({}, messages.alone('postalcode'));
  return clean(fields);
};
