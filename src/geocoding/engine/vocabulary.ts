/**
 * Typo tolerance over the index's terms: a query token that is not a term is corrected to the
 * terms within one edit (two for long tokens). Candidates are the terms sharing enough trigrams
 * with the token (counted over the index's trigram postings); an exact edit distance confirms them.
 */
import type Database from 'better-sqlite3';
import { trigramsOf } from '../text/trigrams.js';
import { editDistance } from './edit-distance.js';

/** Tokens shorter than this are not corrected: too many words are one edit from a short one. */
export const MIN_FUZZY_LENGTH = 4;
/** From this length on, two edits are allowed. */
const TWO_EDITS_LENGTH = 8;
const MAX_CORRECTIONS = 4;

export class Vocabulary {
  private readonly known: Database.Statement;
  private readonly postings: Database.Statement;
  private readonly term: Database.Statement;
  /** Shared-trigram count per term id, reset after each look-up. */
  private readonly shared: Uint8Array;

  constructor(db: Database.Database) {
    this.known = db.prepare('SELECT 1 FROM term WHERE term = ?').pluck();
    this.postings = db.prepare('SELECT term_ids FROM term_trigram WHERE trigram = ?').pluck();
    this.term = db.prepare('SELECT term, documents FROM term WHERE id = ?');
    const terms = db.prepare('SELECT max(id) FROM term').pluck().get() as number | null;
    this.shared = new Uint8Array((terms ?? 0) + 1);
  }

  has(term: string): boolean {
    return this.known.get(term) !== undefined;
  }

  /** Terms within the allowed edits of `token`, closest and most frequent first; empty for short tokens. */
  corrections(token: string): string[] {
    if (token.length < MIN_FUZZY_LENGTH || /^\d+$/.test(token)) return [];
    const maxEdits = token.length >= TWO_EDITS_LENGTH ? 2 : 1;
    const grams = trigramsOf(token);
    // An insertion, deletion or substitution breaks at most three trigrams, a transposition four.
    const needed = Math.max(1, grams.length - 4 * maxEdits);
    const touched: number[] = [];
    for (const gram of grams) {
      const blob = this.postings.get(gram) as Buffer | undefined;
      if (blob === undefined) continue;
      const ids = new Int32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (this.shared[id] === 0) touched.push(id);
        this.shared[id]!++;
      }
    }
    const found: { term: string; edits: number; documents: number }[] = [];
    for (const id of touched) {
      if (this.shared[id]! >= needed) {
        const { term, documents } = this.term.get(id) as { term: string; documents: number };
        const edits = editDistance(token, term, maxEdits);
        if (edits <= maxEdits && term !== token) found.push({ term, edits, documents });
      }
      this.shared[id] = 0;
    }
    found.sort((a, b) => a.edits - b.edits || b.documents - a.documents);
    return found.slice(0, MAX_CORRECTIONS).map((entry) => entry.term);
  }
}
