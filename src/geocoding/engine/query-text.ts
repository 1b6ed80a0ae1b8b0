/**
 * What a search text asks for: its normalized tokens, each with the words it may stand for
 * (itself, the words of an abbreviation, typo corrections), which of them the address parser took
 * for a house number or an admin area, and whether the last one is an unfinished word (autocomplete).
 */
import { expansionsOf } from '../../../core/geocoding/text/abbreviations.js';
import { tokenize } from '../../../core/geocoding/text/normalize.js';
import { houseNumberKey, houseNumberTokens } from '../../../core/geocoding/house-number.js';
import type { ParsedAddress } from './address-parser.js';
import { parseQuery, type IndexedHouseNumber } from './address-structure.js';
import type { Vocabulary } from './vocabulary.js';
import type { Layer } from '../../../core/geocoding/indexed-record.js';

/**
 * Labels whose tokens name the admin areas around a place rather than the place itself:
 * pelias-parser's, and the finer fields only structured search gives (`structured-search.ts`).
 */
const ADMIN_LABELS = ['locality', 'region', 'country', 'postcode', 'dependency', 'neighbourhood', 'borough', 'county'];

export interface QueryToken {
  text: string;
  /** The token and the words it may stand for, as exact terms (abbreviations written out). */
  words: string[];
  /** Index terms one or two edits away, when the token is not a term itself. */
  corrections: string[];
  /** The last token of an autocomplete text: matches any term it begins. */
  prefix: boolean;
  /** The address parser took it for part of an admin area or postcode. */
  admin: boolean;
  /** The pelias-parser label of the part holding it (`street`, `locality`, `region`…), if any. */
  label?: string;
}

export interface QueryText {
  tokens: QueryToken[];
  parsed: ParsedAddress;
  /** The house number asked for, as its key (`houseNumberKey`). */
  housenumber?: string;
  /** The layer asked for, ranked first (structured search of admin fields only). */
  layer?: Layer;
}

/** `tokens` with the first run of `run` replaced by `by`. */
function replaceRun(tokens: readonly string[], run: readonly string[], by: readonly string[]): string[] {
  for (let i = 0; i + run.length <= tokens.length; i++) {
    if (run.every((token, j) => tokens[i + j] === token)) return [...tokens.slice(0, i), ...by, ...tokens.slice(i + run.length)];
  }
  return [...tokens];
}

/** The normalized tokens of a text, with the house number's letter joined to it ("12 A" → "12a", as the index writes it). */
function queryTokens(text: string, housenumber: string | undefined): string[] {
  const tokens = tokenize(text);
  if (housenumber === undefined) return tokens;
  const typed = tokenize(housenumber);
  return replaceRun(tokens, typed, houseNumberTokens(typed));
}

function tokenSet(text: string | undefined): Set<string> {
  return new Set(text === undefined ? [] : houseNumberTokens(tokenize(text)));
}

export function analyzeQuery(text: string, vocabulary: Vocabulary, autocomplete: boolean): QueryText {
  return analyzeParsed(text, parseQuery(text, indexedHouseNumber(vocabulary)), vocabulary, autocomplete);
}

/** Whether the index has an address of a house number key: a lettered number is one term ("1820e"). */
export const indexedHouseNumber =
  (vocabulary: Vocabulary): IndexedHouseNumber =>
  (key) =>
    vocabulary.has(key);

/** The tokens of `text` labelled by a parse of it already made (by the parser, or by the fields of structured search). */
export function analyzeParsed(text: string, parsed: ParsedAddress, vocabulary: Vocabulary, autocomplete: boolean): QueryText {
  const adminTokens = new Set(ADMIN_LABELS.flatMap((label) => [...tokenSet(parsed[label])]));
  const labels = new Map<string, string>();
  for (const [label, part] of Object.entries(parsed)) for (const token of tokenSet(part)) if (!labels.has(token)) labels.set(token, label);
  const housenumber = parsed.housenumber === undefined ? undefined : houseNumberKey(parsed.housenumber);
  const texts = queryTokens(text, parsed.housenumber);
  // An unfinished last word: autocomplete, unless the text ends with a separator ("Rue ").
  const lastIsPrefix = autocomplete && /[\p{L}\p{N}]$/u.test(text);
  const tokens = texts.map((token, i): QueryToken => {
    const words = [token, ...expansionsOf(token)];
    const prefix = lastIsPrefix && i === texts.length - 1;
    const known = words.some((word) => vocabulary.has(word));
    const label = labels.get(token);
    return {
      text: token,
      words,
      corrections: known || prefix ? [] : vocabulary.corrections(token),
      prefix,
      admin: adminTokens.has(token),
      ...(label === undefined ? {} : { label }),
    };
  });
  return { tokens, parsed, ...(housenumber ? { housenumber } : {}) };
}

/** The tokens with corrections for known words too: "Andora la Vela" has real words that are typos. */
export function correctingEveryToken(tokens: readonly QueryToken[], vocabulary: Vocabulary): QueryToken[] {
  return tokens.map((token) =>
    token.prefix || token.corrections.length > 0 ? token : { ...token, corrections: vocabulary.corrections(token.text) },
  );
}
