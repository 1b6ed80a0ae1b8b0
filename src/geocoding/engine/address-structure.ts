/**
 * The parse of a search text: pelias-parser's, corrected by the structure of a comma-separated
 * address. pelias-parser misreads streets that begin with a preposition or an article ("Im
 * Neuenheimer Feld 371, Heidelberg" gives street "Heidelberg", "Am Grünen Hag 2, 69118
 * Heidelberg" no street at all). When the first comma part is a street with a house number (before
 * or after it), that part is the street and the number, and each later part a postcode and/or an
 * admin area: the locality first, then the region or country pelias-parser names.
 */
import { parseAddress, type ParsedAddress } from './address-parser.js';

/**
 * A house number as typed after the street: `12`, `12a`, `12 A`, `12-14`, `12 - 14`, `12/3`; before
 * the street, a compass letter apart is no part of it ("4844 E Rezanof Dr": E is East).
 */
const NUMBER_AFTER = /^\d{1,5}(?:\s?\p{L})?(?:\s?[-/]\s?\d{1,5}(?:\s?\p{L})?)?$/u;
const NUMBER_BEFORE = /^\d{1,5}(?:\p{L}|\s(?![NSEWnsew]$)\p{L})?(?:\s?[-/]\s?\d{1,5}\p{L}?)?$/u;
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

/**
 * pelias-parser's house number with the lone letter after it that it leaves out ("Hauptstraße
 * 12 A" → "12 A"), unless the letter is a compass point before more words ("4844 E Rezanof Dr").
 */
function withNumberLetter(text: string, parsed: ParsedAddress): ParsedAddress {
  const number = parsed.housenumber;
  if (number === undefined || !/^\d+$/.test(number)) return parsed;
  const found = new RegExp(`(?:^|[\\s,])${number}\\s(\\p{L})(?=$|,|(\\s))`, 'u').exec(text);
  if (!found) return parsed;
  const [, letter, moreWords] = found;
  if (moreWords !== undefined && /^[NSEW]$/i.test(letter!)) return parsed;
  const withLetter: ParsedAddress = { ...parsed, housenumber: `${number} ${letter}` };
  if (parsed.street?.startsWith(`${letter} `)) withLetter.street = parsed.street.slice(2);
  return withLetter;
}

export function parseQuery(text: string): ParsedAddress {
  const parsed = withNumberLetter(text, parseAddress(text));
  const parts = text.split(',').map((part) => part.trim()).filter((part) => part !== '');
  const street = parts.length >= 2 ? streetWithNumber(parts[0]!) : undefined;
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
