/**
 * Typo tolerance over the index's terms (read into memory when the index opens: a few MB): a
 * query token that is not a term is corrected to the terms within one edit (two for long tokens).
 * One edit: every variant of the token (deletion, transposition, substitution, insertion) is
 * looked up. Two edits: the terms sharing enough trigrams with the token (the index's trigram
 * postings), of a length within two of it, are checked by edit distance.
 */
import type Database from 'better-sqlite3';
import { MIN_FUZZY_LENGTH, trigramsOf } from '../../../core/geocoding/text/trigrams.js';
import { editDistance } from './edit-distance.js';

/** From this length on, two edits are allowed. */
const TWO_EDITS_LENGTH = 8;
const MAX_CORRECTIONS = 4;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

interface Correction {
  term: string;
  edits: number;
  documents: number;
}

/** Every string one deletion, transposition, substitution or insertion away from `token`. */
function oneEditVariants(token: string): Set<string> {
  const letters = new Set([...ALPHABET, ...token]);
  const variants = new Set<string>();
  for (let i = 0; i <= token.length; i++) {
    const [head, tail] = [token.slice(0, i), token.slice(i)];
    if (tail.length > 0) variants.add(head + tail.slice(1));
    if (tail.length > 1) variants.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of letters) {
      if (tail.length > 0) variants.add(head + letter + tail.slice(1));
      variants.add(head + letter + tail);
    }
  }
  variants.delete(token);
  return variants;
}

export class Vocabulary {
  private readonly postings: Database.Statement;
  /** Term by id (ids from 1; 0 unused), its document count, and id by term. */
  private readonly terms: string[] = [''];
  private readonly documents: number[] = [0];
  private readonly ids = new Map<string, number>();
  /** Shared-trigram count per term id, reset after each look-up. */
  private readonly shared: Uint8Array;

  constructor(db: Database.Database) {
    this.postings = db.prepare('SELECT term_ids FROM term_trigram WHERE trigram = ?').pluck();
    for (const [id, term, documents] of db.prepare('SELECT id, term, documents FROM term ORDER BY id').raw().iterate() as IterableIterator<
      [number, string, number]
    >) {
      this.terms[id] = term;
      this.documents[id] = documents;
      this.ids.set(term, id);
    }
    this.shared = new Uint8Array(this.terms.length);
  }

  has(term: string): boolean {
    return this.ids.has(term);
  }

  /** Terms within the allowed edits of `token`, closest and most frequent first; empty for short tokens. */
  corrections(token: string): string[] {
    if (token.length < MIN_FUZZY_LENGTH || /^\d+$/.test(token)) return [];
    const found = token.length >= TWO_EDITS_LENGTH ? this.withinTwoEdits(token) : this.withinOneEdit(token);
    found.sort((a, b) => a.edits - b.edits || b.documents - a.documents);
    return found.slice(0, MAX_CORRECTIONS).map((entry) => entry.term);
  }

  private withinOneEdit(token: string): Correction[] {
    const found: Correction[] = [];
    for (const variant of oneEditVariants(token)) {
      const id = this.ids.get(variant);
      if (id !== undefined) found.push({ term: variant, edits: 1, documents: this.documents[id]! });
    }
    return found;
  }

  private withinTwoEdits(token: string): Correction[] {
    const grams = trigramsOf(token);
    // Two edits break at most six trigrams, eight for two transpositions.
    const needed = Math.max(1, grams.length - 8);
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
    const found: Correction[] = [];
    for (const id of touched) {
      const term = this.terms[id]!;
      if (this.shared[id]! >= needed && Math.abs(term.length - token.length) <= 2 && term !== token) {
        const edits = editDistance(token, term, 2);
        if (edits <= 2) found.push({ term, edits, documents: this.documents[id]! });
      }
      this.shared[id] = 0;
    }
    return found;
  }
}
