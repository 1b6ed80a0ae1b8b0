/**
 * The parse of a search text: pelias-parser's, corrected by the structure of an address.
 * pelias-parser misreads streets that begin with a preposition or an article ("Im Neuenheimer
 * Feld 371, Heidelberg" gives street "Heidelberg", "Am Grünen Hag 2, 69118 Heidelberg" no street
 * at all, "Im Neuenheimer Feld 136 A" nothing), and keeps only the digits of "12 A", "14 - 18" or
 * "30a-g". So: its house number is taken whole as typed; when the first comma part is a street
 * with a house number (before or after it), that part is the street and the number, and each
 * later part a postcode and/or an admin area (the locality first, then the region or country
 * pelias-parser names); a text without commas in which pelias-parser finds neither a house
 * number nor a postcode is read as a street with a number when it is one.
 */
import { parseAddress, type ParsedAddress } from './address-parser.js';

/**
 * A house number as typed: `12`, `12a`, `12 A`, `12-14`, `12 - 14`, `12/3`, `30a-g`. Before the
 * street, a compass letter apart is no part of it ("4844 E Rezanof Dr": E is East).
 */
const AFTER_DIGITS = String.raw`(?:\s?\p{L}(?!\p{L}))?(?:\s?[-/]\s?(?:\d{1,5}\p{L}?|\p{L})(?![\p{L}\d]))?`;
const NUMBER = String.raw`\d{1,5}${AFTER_DIGITS}`;
const NUMBER_AFTER = new RegExp(`^${NUMBER}$`, 'u');
const NUMBER_BEFORE = new RegExp(`^(?!\\d+\\s[NSEWnsew]$)${NUMBER}$`, 'u');
/** A postcode at the start or end of an admin part ("69120 Heidelberg", "Heidelberg 69120", "98000"). */
const POSTCODE_FIRST = /^(\d{4,5})(?:\s+(.*))?$/u;
const POSTCODE_LAST = /^(.*\S)\s+(\d{4,5})$/u;
/** Words a house number may span: "12", "12 A", "12 - 14 b". */
const MAX_NUMBER_WORDS = 4;

const ADMIN_LABELS = new Set(['locality', 'region', 'country', 'dependency']);

/** The street and house number of a text like "Hauptstraße 12a" or "12 A Hauptstraße". */
function streetWithNumber(text: string): { housenumber: string; street: string } | undefined {
  const words = text.split(/\s+/);
  for (let n = Math.min(MAX_NUMBER_WORDS, words.length - 1); n >= 1; n--) {
    const last = words.slice(-n).join(' ');
    if (NUMBER_AFTER.test(last)) return { housenumber: last, street: words.slice(0, -n).join(' ') };
    const first = words.slice(0, n).join(' ');
    if (NUMBER_BEFORE.test(first)) return { housenumber: first, street: words.slice(n).join(' ') };
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

/** pelias-parser's house number as typed ("12" of "Hauptstraße 12 A" → "12 A", "30a" of "30a-g"), unless a compass letter before more words follows it. */
function withWholeNumber(text: string, parsed: ParsedAddress): ParsedAddress {
  const digits = parsed.housenumber;
  if (digits === undefined || !/^\d+\p{L}?$/u.test(digits)) return parsed;
  const found = new RegExp(`(?:^|[\\s,])(${digits}${AFTER_DIGITS})(?=$|[\\s,])`, 'u').exec(text);
  const whole = found?.[1];
  if (whole === undefined || whole === digits) return parsed;
  const beforeMoreWords = /^\s*[^\s,]/u.test(text.slice(found!.index + found![0].length));
  if (beforeMoreWords && !NUMBER_BEFORE.test(whole)) return parsed;
  const extended: ParsedAddress = { ...parsed, housenumber: whole };
  // What pelias-parser left out may have gone to the street ("12 A Hauptstraße": street "A Hauptstraße").
  const rest = whole.slice(digits.length).replace(/[-/]/g, ' ').trim();
  if (parsed.street?.startsWith(`${rest} `)) extended.street = parsed.street.slice(rest.length + 1);
  return extended;
}

export function parseQuery(text: string): ParsedAddress {
  const parsed = withWholeNumber(text, parseAddress(text));
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length < 2)
    return parsed.housenumber === undefined && parsed.postcode === undefined ? (streetWithNumber(text) ?? parsed) : parsed;
  const street = streetWithNumber(parts[0]!);
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
