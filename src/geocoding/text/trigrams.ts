/** The trigrams of a term padded with `^` and `$`, distinct: what typo-tolerant look-ups compare. */
export function trigramsOf(term: string): string[] {
  const padded = `^${term}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return [...grams];
}
