/**
 * pelias-parser, the address parser of Pelias: which parts of a search text are a house number,
 * a street, a postcode, a locality, a region, a country or a venue. Its dictionaries take about a
 * second to load, so it is loaded once, when the first geocoder index opens.
 */
import { createRequire } from 'node:module';

interface Classification {
  label: string;
}
interface Span {
  body: string;
}
interface Solution {
  pair: { classification: Classification; span: Span }[];
}
interface Tokenizer {
  solution: Solution[];
}
interface Parser {
  classify(tokenizer: Tokenizer): void;
  solve(tokenizer: Tokenizer): void;
}

/** The parts found, by pelias-parser's labels: `housenumber`, `street`, `postcode`, `locality`, `region`, `country`, `venue`… */
export type ParsedAddress = Record<string, string>;

let parser: Parser | undefined;
let TokenizerClass: (new (text: string) => Tokenizer) | undefined;

export function loadAddressParser(): void {
  if (parser !== undefined) return;
  const require = createRequire(import.meta.url);
  const AddressParser = require('pelias-parser/parser/AddressParser') as new () => Parser;
  TokenizerClass = require('pelias-parser/tokenization/Tokenizer') as new (text: string) => Tokenizer;
  parser = new AddressParser();
}

export function parseAddress(text: string): ParsedAddress {
  loadAddressParser();
  const tokenizer = new TokenizerClass!(text);
  parser!.classify(tokenizer);
  parser!.solve(tokenizer);
  const parsed: ParsedAddress = {};
  for (const { classification, span } of tokenizer.solution[0]?.pair ?? []) parsed[classification.label] = span.body;
  return parsed;
}
