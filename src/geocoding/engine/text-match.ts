/**
 * How well a place's names answer the query tokens: the share of the query found in the place's
 * name (or, less, in its admin names), the share of the name the query asked for, and whether any
 * token needed a typo correction. The best of the place's name variants counts.
 */
import type { QueryToken } from './query-text.js';

/** A token found only among the admin names counts this much (it narrows, it does not name). */
const ADMIN_HIT = 0.9;
const PREFIX_HIT = 0.9;
const CORRECTED_HIT = 0.75;

export interface TextMatch {
  /** 0..1: the query tokens found, weighted by how (exact, prefix, corrected, admin): for ranking. */
  queryCoverage: number;
  /** 0..1: the query tokens found in the name or the admin names alike: for confidence. */
  answered: number;
  /** 0..1: the share of the best name variant's tokens that the query names. */
  nameCoverage: number;
  /** Query tokens found in the name itself. */
  nameHits: number;
  corrected: boolean;
}

function hit(token: QueryToken, terms: readonly string[]): number {
  let best = 0;
  for (const term of terms) {
    if (token.words.includes(term)) return 1;
    if (token.prefix && term.startsWith(token.text)) best = Math.max(best, PREFIX_HIT);
    else if (token.corrections.includes(term)) best = Math.max(best, CORRECTED_HIT);
  }
  return best;
}

export function matchText(tokens: readonly QueryToken[], nameText: string, adminText: string): TextMatch {
  const adminTerms = adminText === '' ? [] : adminText.split(' ');
  let best: TextMatch = { queryCoverage: 0, answered: 0, nameCoverage: 0, nameHits: 0, corrected: false };
  for (const variant of nameText.split('|')) {
    const nameTerms = variant.split(' ');
    const named = new Set<string>();
    let found = 0;
    let answered = 0;
    let nameHits = 0;
    let corrected = false;
    for (const token of tokens) {
      const inName = hit(token, nameTerms);
      if (inName > 0) {
        nameHits++;
        found += inName;
        answered += inName;
        if (inName === CORRECTED_HIT) corrected = true;
        for (const term of nameTerms)
          if (token.words.includes(term) || token.corrections.includes(term) || (token.prefix && term.startsWith(token.text)))
            named.add(term);
      } else {
        const inAdmin = hit(token, adminTerms);
        found += inAdmin * ADMIN_HIT;
        answered += inAdmin;
      }
    }
    const match = {
      queryCoverage: tokens.length === 0 ? 0 : found / tokens.length,
      answered: tokens.length === 0 ? 0 : answered / tokens.length,
      nameCoverage: named.size / new Set(nameTerms).size,
      nameHits,
      corrected,
    };
    if (match.queryCoverage + match.nameCoverage > best.queryCoverage + best.nameCoverage) best = match;
  }
  return best;
}
