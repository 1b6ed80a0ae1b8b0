/**
 * Tokens shorter than this are not corrected: too many words are one edit from a short one. The
 * index builder keeps trigrams only for the terms a correction can reach.
 */
export const MIN_FUZZY_LENGTH = 4;

/** The trigrams of a term padded with `^` and `$`, distinct: what typo-tolerant look-ups compare. */
export function trigramsOf(term: string): string[] {
  const padded = `^${term}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return [...grams];
}
