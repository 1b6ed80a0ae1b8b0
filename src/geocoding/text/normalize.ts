/**
 * Text normalization shared by the index builder and the query side, so both see the same tokens:
 * lower case, diacritics removed ("Hauptstraße" → "hauptstrasse", "Café" → "cafe"), split on
 * anything that is not a letter or digit, and the German "-str." abbreviation written out.
 */

/** Letters NFKD does not decompose into a base letter and marks. */
const FOLDED_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLDABLE = /[ßæœøłđðþı]/g;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Lower case without diacritics. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
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
