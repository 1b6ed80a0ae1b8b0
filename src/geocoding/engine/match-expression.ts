/**
 * The one place FTS5 MATCH expressions are built. Every term goes in as an FTS5 string (double
 * quotes, inner quotes doubled), so no query text is ever read as FTS5 syntax (AND, NEAR, `*`,
 * `^`, `col:`, parentheses…). The terms are normalizer tokens, index terms or abbreviation
 * expansions: each one FTS5 token, which matters because the index (detail=column) refuses phrases.
 */
import type { QueryToken } from './query-text.js';

/** An FTS5 MATCH expression made by `matchExpression`: the only kind the index runs. */
export type MatchExpression = string & { readonly __brand: 'MatchExpression' };

/** A term as an FTS5 string: read as text, never as syntax. */
const ftsString = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/**
 * `"word" OR "other"` per token, `"pre" *` for an unfinished last word; all tokens required, or
 * with `any` at least one.
 */
export function matchExpression(tokens: readonly QueryToken[], any = false): MatchExpression {
  // FTS5 refuses an empty expression; callers retrieve nothing for a query without tokens.
  if (tokens.length === 0) throw new Error('an FTS5 match expression needs at least one token');
  const required = tokens.map((token) => {
    if (token.prefix) return `${ftsString(token.text)} *`;
    const terms = [...new Set([...token.words, ...token.corrections])].map(ftsString);
    return terms.length === 1 ? terms[0]! : `(${terms.join(' OR ')})`;
  });
  return required.join(any ? ' OR ' : ' AND ') as MatchExpression;
}
