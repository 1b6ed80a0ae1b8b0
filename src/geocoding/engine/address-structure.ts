/**
 * The parse of a search text: pelias-parser's, corrected by the structure of an address.
 * pelias-parser misreads streets that begin with a preposition or an article ("Im Neuenheimer
 * Feld 371, Heidelberg" gives street "Heidelberg", "Am Grünen Hag 2, 69118 Heidelberg" no street
 * at all, "Im Neuenheimer Feld 136 A" nothing), keeps only the digits of "12 A", "14 - 18" or
 * "30a-g", only the fraction of "226 1/2" and nothing of "226½" or "7bis". So: its house number is
 * taken whole as typed; when the first comma part is a street with a house number (before or
 * after it), that part is the street and the number, and each later part a postcode and/or an
 * admin area (the locality first, then the region or country pelias-parser names); a text without
 * commas in which pelias-parser finds neither a house number nor a postcode is read as a street
 * with a number when it is one.
 */
import { houseNumberKey } from '../../../core/geocoding/house-number.js';
import { parseAddress, type ParsedAddress } from './address-parser.js';

/**
 * A house number as typed: `12`, `12a`, `12 A`, `7bis`, `7 bis`, `226 1/2`, `226½`, `12-14`,
 * `12 - 14`, `12/3`, `30a-g`.
 */
const FRACTION = String.raw`(?:\s?(?:[1-9]\/[1-9]\d?|[\u00BC-\u00BE\u2150-\u215E]))`;
const SUFFIX = String.raw`(?:\s?(?:bis|ter|quater|\p{L})(?!\p{L}))`;
const AFTER_DIGITS = String.raw`${FRACTION}?${SUFFIX}?(?:\s?[-/]\s?(?:\d{1,5}\p{L}?|\p{L})(?![\p{L}\d]))?`;
const NUMBER = String.raw`\d{1,5}${AFTER_DIGITS}`;
const WHOLE_NUMBER = new RegExp(`^${NUMBER}$`, 'iu');
/** Every house number of a text, between spaces or commas. */
const NUMBERS_IN_TEXT = new RegExp(`(?<=^|[\\s,])${NUMBER}(?=$|[\\s,])`, 'giu');
/** A number and a compass letter apart: before the street, "4844 E Rezanof Dr" means East. */
const COMPASS_LETTER_AFTER = /^\d+\s[NSEW]$/iu;
/** A postcode at the start or end of an admin part ("69120 Heidelberg", "Heidelberg 69120", "98000"). */
const POSTCODE_FIRST = /^(\d{4,5})(?:\s+(.*))?$/u;
const POSTCODE_LAST = /^(.*\S)\s+(\d{4,5})$/u;
/** Words a house number may span: "12", "12 A", "12 - 14 b". */
const MAX_NUMBER_WORDS = 4;

const ADMIN_LABELS = new Set(['locality', 'region', 'country', 'dependency']);

/** Whether the index holds an address of this house number key. */
export type IndexedHouseNumber = (key: string) => boolean;

/**
 * Whether `typed` is a house number that may stand before the street. A compass letter apart after
 * the digits is the street's direction ("4844 E Rezanof Dr"), unless the index has addresses of
 * that lettered number ("1820 E Larch Street" when Kodiak's 1820E is imported).
 */
function numberBeforeStreet(typed: string, indexed: IndexedHouseNumber): boolean {
  return WHOLE_NUMBER.test(typed) && (!COMPASS_LETTER_AFTER.test(typed) || indexed(houseNumberKey(typed)));
}

/** The street and house number of a text like "Hauptstraße 12a" or "12 A Hauptstraße". */
function streetWithNumber(text: string, indexed: IndexedHouseNumber): { housenumber: string; street: string } | undefined {
  const words = text.split(/\s+/);
  for (let n = Math.min(MAX_NUMBER_WORDS, words.length - 1); n >= 1; n--) {
    const last = words.slice(-n).join(' ');
    if (WHOLE_NUMBER.test(last)) return { housenumber: last, street: words.slice(0, -n).join(' ') };
    const first = words.slice(0, n).join(' ');
    if (numberBeforeStreet(first, indexed)) return { housenumber: first, street: words.slice(n).join(' ') };
  }
  return undefined;
}

function splitPostcode(part: string): { postcode?: string; rest: string } {
  const first = POSTCODE_FIRST.exec(part);
  if (first) return { postcode: first[1]!, rest: first[2] ?? '' };
  const last = POSTCODE_LAST.exec(part);
  return last ? { postcode: last[2]!, rest: last[1]! } : { rest: part };
}

/** pelias-parser's admin label for exactly this text, if it gave one. */
function adminLabelOf(parsed: ParsedAddress, text: string): string | undefined {
  const lower = text.toLowerCase();
  return Object.keys(parsed).find((label) => ADMIN_LABELS.has(label) && parsed[label]!.toLowerCase() === lower);
}

/**
 * pelias-parser's house number as typed, the whole number holding it ("12" of "Hauptstraße 12 A" →
 * "12 A", "30a" of "30a-g", "1/2" of "226 1/2" → "226 1/2"), unless a compass letter before more
 * words follows it.
 */
function withWholeNumber(text: string, parsed: ParsedAddress, indexed: IndexedHouseNumber): ParsedAddress {
  const part = parsed.housenumber;
  if (part === undefined) return parsed;
  for (const found of text.matchAll(NUMBERS_IN_TEXT)) {
    const whole = found[0];
    if (whole === part) return parsed;
    // Digits go on past pelias-parser's part in neither direction ("1" is no part of "12345").
    const extendsPart = whole.startsWith(part) && !/^\d/u.test(whole.slice(part.length));
    if (!extendsPart && !(whole.endsWith(part) && !/\d$/u.test(whole.slice(0, -part.length)))) continue;
    const beforeMoreWords = /^\s*[^\s,]/u.test(text.slice(found.index + whole.length));
    if (beforeMoreWords && !numberBeforeStreet(whole, indexed)) return parsed;
    const extended: ParsedAddress = { ...parsed, housenumber: whole };
    // What pelias-parser left out may have gone to the street ("12 A Hauptstraße": street "A Hauptstraße").
    const rest = extendsPart ? whole.slice(part.length).replace(/[-/]/g, ' ').trim() : '';
    if (rest !== '' && parsed.street?.startsWith(`${rest} `)) extended.street = parsed.street.slice(rest.length + 1);
    return extended;
  }
  return parsed;
}

/** `indexed` tells a lettered house number from a direction (default: every compass letter is one). */
export function parseQuery(text: string, indexed: IndexedHouseNumber = () => false): ParsedAddress {
  const parsed = withWholeNumber(text, parseAddress(text), indexed);
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length < 2)
    return parsed.housenumber === undefined && parsed.postcode === undefined ? (streetWithNumber(text, indexed) ?? parsed) : parsed;
  const street = streetWithNumber(parts[0]!, indexed);
  if (street === undefined) return parsed;
  const structured: ParsedAddress = { housenumber: street.housenumber, street: street.street };
  for (const part of parts.slice(1)) {
    const { postcode, rest } = splitPostcode(part);
    if (postcode !== undefined) structured.postcode ??= postcode;
    if (rest === '') continue;
    const label = adminLabelOf(parsed, rest) ?? (structured.locality === undefined ? 'locality' : 'region');
    structured[label] ??= rest;
  }
  return structured;
}
