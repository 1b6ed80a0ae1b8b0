/**
 * Structured search: the client names the parts of the address, so no parser guesses them from a
 * text. As Pelias' `_synthesize_analysis`, only `address` is analyzed, into a house number (found
 * by the address parser; a "postcode" it finds there is the house number, as in "3370 Cobbe Ave")
 * and the rest as the street; every other field is taken as given. The fields then feed the same
 * retrievals, scoring and fallbacks as /search (`searchQuery`).
 */
import { countryByCode } from '../../../core/geocoding/countries.js';
import type { Layer } from '../../../core/geocoding/indexed-record.js';
import type { StructuredParams } from '../sanitize/endpoints.js';
import { STRUCTURED_FIELDS, type StructuredAddress, type StructuredField } from '../sanitize/structured.js';
import type { ParsedAddress } from './address-parser.js';
import { parseQuery, type IndexedHouseNumber } from './address-structure.js';
import type { GeocoderIndex } from './index-file.js';
import { analyzeParsed, indexedHouseNumber } from './query-text.js';
import { searchQuery, type SearchAnswer } from './search.js';

/** The engine's label (pelias-parser's where it has one) of each field other than `address`. */
const LABELS: Record<Exclude<StructuredField, 'address'>, string> = {
  neighbourhood: 'neighbourhood',
  borough: 'borough',
  locality: 'locality',
  county: 'county',
  region: 'region',
  postalcode: 'postcode',
  country: 'country',
};

/** Without an address, the finest of these fields given names the layer asked for (borough and county have no layer). */
const ADMIN_TARGETS: readonly [StructuredField, Layer][] = [
  ['postalcode', 'postalcode'],
  ['neighbourhood', 'neighbourhood'],
  ['locality', 'locality'],
  ['region', 'region'],
  ['country', 'country'],
];

/** `address` as a house number and a street, or as a street alone when it holds no number. */
export function analyzeAddress(address: string, indexed?: IndexedHouseNumber): ParsedAddress {
  const parse = parseQuery(address, indexed);
  const number = parse.housenumber ?? parse.postcode;
  const at = number === undefined ? -1 : address.indexOf(number);
  if (at === -1) return { street: address };
  const street = `${address.slice(0, at)} ${address.slice(at + number!.length)}`.replace(/^[\s,]+|[\s,]+$/gu, '').replace(/\s+/gu, ' ');
  return street === '' ? { housenumber: number! } : { housenumber: number!, street };
}

/** The fields as the engine's parse: `address` analyzed, the others under their labels. */
export function structuredParse(fields: StructuredAddress, indexed?: IndexedHouseNumber): ParsedAddress {
  const parsed: ParsedAddress = fields.address === undefined ? {} : analyzeAddress(fields.address, indexed);
  for (const [field, label] of Object.entries(LABELS) as [Exclude<StructuredField, 'address'>, string][]) {
    const value = fields[field];
    if (value !== undefined) parsed[label] = value;
  }
  return parsed;
}

export function structuredSearch(index: GeocoderIndex, params: StructuredParams): SearchAnswer {
  const fields = params.address;
  // A country code is sought by its name: country records are named, not coded.
  const country = countryByCode(fields.country)?.name;
  const searched: StructuredAddress = country === undefined ? fields : { ...fields, country };
  const text = STRUCTURED_FIELDS.flatMap((field) => searched[field] ?? []).join(', ');
  const parsed = structuredParse(searched, indexedHouseNumber(index.vocabulary));
  const query = analyzeParsed(text, parsed, index.vocabulary, false);
  const layer = fields.address === undefined ? ADMIN_TARGETS.find(([field]) => fields[field] !== undefined)?.[1] : undefined;
  const answer = searchQuery(index, layer === undefined ? query : { ...query, layer }, params);
  return { ...answer, parsed: structuredParse(fields, indexedHouseNumber(index.vocabulary)) };
}
