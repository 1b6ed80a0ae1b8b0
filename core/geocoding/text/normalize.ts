/**
 * Text normalization shared by the index builder and the query side, so both see the same tokens:
 * lower case, diacritics removed ("Hauptstraße" → "hauptstrasse", "Café" → "cafe"), fractions set
 * apart from the digits before them ("226½" → "226 1 2", as "226 1/2"), split on
 * anything that is not a letter or digit (as FTS5 sees them), and the German "-str." abbreviation
 * written out.
 */

/** Letters NFKD does not decompose into a base letter and marks. */
const FOLDED_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLDABLE = /[ßæœøłđðþı]/g;
const MARKS = /\p{M}+/gu;
/**
 * Vulgar fractions (½, ¼, ⅔…): NFKD writes ½ as "1⁄2", which would run into the digits before it
 * ("226½" → "2261⁄2"). Set apart, "226½" and "226 1/2" give the same tokens.
 */
const FRACTIONS = /[\u00BC-\u00BE\u2150-\u215E]/gu;
/**
 * Anything but a letter or digit, and the letters SQLite's FTS5 tokenizer (unicode61, on older
 * Unicode categories) still reads as separators: spacing vowel and tone signs of New Tai Lue and
 * Vedic that Unicode later made letters. Splitting on them too keeps every token a single FTS5
 * term; a token FTS5 split would be a phrase, which the index (detail=column) refuses.
 * test/geocoding-engine.test.ts checks every code point against the SQLite in use.
 */
const SEPARATORS = /(?:[^\p{L}\p{N}]|[\u19B0-\u19C0\u19C8\u19C9\u1CF2\u1CF3])+/u;

/** Lower case without diacritics. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(FRACTIONS, (fraction) => ` ${fraction}`)
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLDABLE, (letter) => FOLDED_LETTERS[letter] ?? letter);
}

/** "hauptstr" → "hauptstrasse": German street names abbreviate their "-straße" suffix as "-str.". */
function expandStreetSuffix(token: string): string {
  return token.length > 3 && token.endsWith('str') ? `${token}asse` : token;
}

/** The tokens of a text, normalized. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const piece of foldText(text).split(SEPARATORS)) {
    if (piece !== '') tokens.push(expandStreetSuffix(piece));
  }
  return tokens;
}

/** The normalized text of `text`: its tokens joined by single spaces. */
export function normalizeText(text: string): string {
  return tokenize(text).join(' ');
}
