/**
 * House numbers as people write them: `12a`, `12 A`, `12-14`, `12/3`, `7bis`, `7 bis`, `226 1/2`,
 * `226½`. The index and the query side compare them by one key, and interpolation reads the
 * number they begin with.
 */
import { tokenize } from './text/normalize.js';

const ENDS_WITH_DIGIT = /\d$/;
/** A lone letter, or the Latin ordinals French, Italian and Spanish numbers take ("7 bis", "7 ter"). */
const SUFFIX = /^(?:\p{L}|bis|ter|quater)$/u;

/**
 * The tokens of a house number with a lone letter or suffix joined to the number before it:
 * "12 A" and "12a" → ["12a"], "7 bis" → ["7bis"], "12-14" → ["12", "14"], "12/3" → ["12", "3"],
 * "226 1/2" and "226½" → ["226", "1", "2"].
 */
export function houseNumberTokens(tokens: readonly string[]): string[] {
  const joined: string[] = [];
  for (const token of tokens) {
    const last = joined.length - 1;
    if (last >= 0 && SUFFIX.test(token) && ENDS_WITH_DIGIT.test(joined[last]!)) joined[last] += token;
    else joined.push(token);
  }
  return joined;
}

/** The key two spellings of one house number share ("12 A" and "12a" → "12a"). */
export const houseNumberKey = (housenumber: string): string => houseNumberTokens(tokenize(housenumber)).join(' ');

/** Numbers above this are not house numbers (years, postcodes, ids): never interpolated. */
const MAX_HOUSE_NUMBER = 100_000;

/** The whole number a house number begins with ("12a" → 12, "12-14" → 12), if it begins with one. */
export function houseNumberValue(housenumber: string): number | undefined {
  const digits = /^\s*(\d+)/.exec(housenumber)?.[1];
  if (digits === undefined) return undefined;
  const value = Number(digits);
  return value > 0 && value < MAX_HOUSE_NUMBER ? value : undefined;
}
