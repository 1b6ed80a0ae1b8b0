// The geocoding engine on a small hand-made index: normalization, abbreviations, typo tolerance,
// address parsing, ranking (text, layer, house number, importance, focus), filters, reverse, place.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeocoderIndexWriter } from '../data-pipeline/geocoding/index/writer.js';
import { placeGid, type PlaceLayer, type PlaceRecord, type PlaceSource } from '../core/geocoding/place-record.js';
import { editDistance } from '../src/geocoding/engine/edit-distance.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { place } from '../src/geocoding/engine/place.js';
import { matchExpression } from '../src/geocoding/engine/match-expression.js';
import { filtersOf } from '../src/geocoding/engine/places.js';
import { analyzeQuery, type QueryToken } from '../src/geocoding/engine/query-text.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import { sanitizeAutocomplete, sanitizePlace, sanitizeReverse, sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';
import { LAYERS, SOURCES } from '../core/geocoding/indexed-record.js';
import { expansionsOf } from '../core/geocoding/text/abbreviations.js';
import { foldText, normalizeText, tokenize } from '../core/geocoding/text/normalize.js';

function record(
  source: PlaceSource,
  layer: PlaceLayer,
  id: string,
  name: string,
  lon: number,
  lat: number,
  extra: Partial<PlaceRecord> = {},
): PlaceRecord {
  return { source, layer, source_id: id, gid: placeGid(source, layer, id), name, names: {}, lon, lat, ...extra };
}

const GERMANY = { country: 'Germany', country_a: 'DEU' };
const RECORDS: PlaceRecord[] = [
  record('geonames', 'locality', '1', 'Heidelberg', 8.69, 49.41, { ...GERMANY, population: 160_000 }),
  record('geonames', 'locality', '2', 'Heidelberg', 28.35, -26.5, { country: 'South Africa', country_a: 'ZAF', population: 40_000 }),
  record('geonames', 'locality', '3', 'Mannheim', 8.47, 49.49, { ...GERMANY, population: 300_000 }),
  record('geonames', 'locality', '4', 'Saint-Paul', 7.12, 43.7, { country: 'France', country_a: 'FRA', population: 3_000 }),
  record('openstreetmap', 'street', 'way/10', 'Hauptstraße', 8.7, 49.412, { ...GERMANY, locality: 'Heidelberg' }),
  record('openstreetmap', 'street', 'way/11', 'Hauptstraße', 8.48, 49.48, { ...GERMANY, locality: 'Mannheim' }),
  record('openstreetmap', 'address', 'node/20', '120 Hauptstraße', 8.701, 49.4121, {
    ...GERMANY,
    locality: 'Heidelberg',
    housenumber: '120',
    street: 'Hauptstraße',
    postalcode: '69117',
  }),
  record('openstreetmap', 'address', 'node/21', '122 Hauptstraße', 8.7012, 49.4122, {
    ...GERMANY,
    locality: 'Heidelberg',
    housenumber: '122',
    street: 'Hauptstraße',
  }),
  record('openstreetmap', 'venue', 'node/30', 'Café Sonne', 8.6995, 49.4115, {
    ...GERMANY,
    locality: 'Heidelberg',
    names: { fr: 'Café Soleil' },
  }),
  record('openstreetmap', 'venue', 'node/31', 'Heidelberger Schloss', 8.715, 49.41, { ...GERMANY, locality: 'Heidelberg' }),
  record('openaddresses', 'address', 'x:1', '5 Saint Paul Street', -150.0, 61.0, {
    country: 'United States',
    country_a: 'USA',
    housenumber: '5',
    street: 'Saint Paul Street',
  }),
  record('whosonfirst', 'country', '85633111', 'Germany', 10.4, 51.1, { ...GERMANY, names: { de: 'Deutschland', fr: 'Allemagne' } }),
];

let dir: string;
let index: GeocoderIndex;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-geocoder-'));
  const writer = new GeocoderIndexWriter(join(dir, 'geocoder.sqlite'));
  for (const r of RECORDS) writer.add(r);
  writer.finish(() => {});
  index = new GeocoderIndex(join(dir, 'geocoder.sqlite'));
});

test.after.always(() => {
  index?.close();
  rmSync(dir, { recursive: true, force: true });
});

const q = (text: string) => new URLSearchParams(text);
const searchFor = (query: string) => search(index, sanitizeSearch(q(query)).params, false).features;
const gids = (features: { properties: { gid: string } }[]) => features.map((f) => f.properties.gid);

test('normalization folds case, diacritics and ß, splits on punctuation and writes out "-str."', (t) => {
  t.is(foldText('Hauptstraße Café ÆØ'), 'hauptstrasse cafe aeo');
  t.deepEqual(tokenize("Rue d'Andorre, 12"), ['rue', 'd', 'andorre', '12']);
  t.deepEqual(tokenize('Hauptstr. 120'), ['hauptstrasse', '120']);
  t.is(normalizeText('  Monte-Carlo  '), 'monte carlo');
  t.deepEqual(tokenize('str'), ['str']);
});

test('abbreviations stand for their words', (t) => {
  t.deepEqual(expansionsOf('st'), ['street', 'saint', 'sankt', 'strasse']);
  t.deepEqual(expansionsOf('bd'), ['boulevard']);
  t.deepEqual(expansionsOf('hauptstrasse'), []);
  // Names of Object.prototype's members are words like any other.
  t.deepEqual(expansionsOf('constructor'), []);
  t.deepEqual(searchFor('text=constructor'), []);
});

test('edit distance counts transpositions as one edit and gives up above the limit', (t) => {
  t.is(editDistance('heidelberg', 'heidelberg', 2), 0);
  t.is(editDistance('heidelbreg', 'heidelberg', 2), 1);
  t.is(editDistance('hiedelbreg', 'heidelberg', 2), 2);
  t.is(editDistance('mannheim', 'heidelberg', 2), 3);
});

test('the query analysis finds the house number and the admin part, corrects unknown tokens only', (t) => {
  const query = analyzeQuery('Hauptstraße 120 Heidelberg', index.vocabulary, false);
  t.is(query.housenumber, '120');
  t.deepEqual(
    query.tokens.map((token) => token.text),
    ['hauptstrasse', '120', 'heidelberg'],
  );
  t.true(query.tokens[2]!.admin);
  t.deepEqual(query.tokens[0]!.corrections, []);
  t.deepEqual(analyzeQuery('Heidelbreg', index.vocabulary, false).tokens[0]!.corrections, ['heidelberg']);
  const typing = analyzeQuery('Heidelb', index.vocabulary, true);
  t.true(typing.tokens[0]!.prefix);
  t.false(analyzeQuery('Heidelb ', index.vocabulary, true).tokens[0]!.prefix);
});

test('an address query puts the address with that number first, as an exact match', (t) => {
  const features = searchFor('text=Hauptstraße 120, Heidelberg');
  t.is(features[0]!.properties.gid, 'openstreetmap:address:node/20');
  t.like(features[0]!.properties, { match_type: 'exact', accuracy: 'point', housenumber: '120', confidence: 1 });
  t.is(searchFor('text=Hauptstr. 120 Heidelberg')[0]!.properties.gid, 'openstreetmap:address:node/20');
});

test('an unknown house number falls back to the street', (t) => {
  const [first] = searchFor('text=Hauptstraße 999 Heidelberg');
  t.is(first!.properties.gid, 'openstreetmap:street:way/10');
  t.is(first!.properties.match_type, 'fallback');
  t.true(first!.properties.confidence! <= 0.6);
});

test('a street name without a number gives streets before addresses; the locality picks the street', (t) => {
  const features = searchFor('text=Hauptstrasse Mannheim');
  t.is(features[0]!.properties.gid, 'openstreetmap:street:way/11');
  t.is(searchFor('text=Hauptstrasse Heidelberg')[0]!.properties.gid, 'openstreetmap:street:way/10');
});

test('importance ranks the bigger of two same-named places first; focus.point turns it round', (t) => {
  t.deepEqual(gids(searchFor('text=Heidelberg&layers=locality')), ['geonames:locality:1', 'geonames:locality:2']);
  const focused = searchFor('text=Heidelberg&layers=locality&focus.point.lat=-26.4&focus.point.lon=28.3');
  t.is(focused[0]!.properties.gid, 'geonames:locality:2');
  t.true(focused[0]!.properties.distance! < 20);
});

test('typos of one and two edits and missing diacritics still find the place', (t) => {
  t.is(searchFor('text=Heidelbreg&layers=locality')[0]!.properties.gid, 'geonames:locality:1');
  t.is(searchFor('text=Hiedelbreg&layers=locality')[0]!.properties.gid, 'geonames:locality:1');
  t.is(searchFor('text=Cafe Sonne')[0]!.properties.gid, 'openstreetmap:venue:node/30');
  t.true(searchFor('text=Heidelbreg&layers=locality')[0]!.properties.confidence! < 1);
});

test('"St" stands for Saint and Street', (t) => {
  t.is(searchFor('text=5 St Paul St')[0]!.properties.gid, 'openaddresses:address:x:1');
  t.is(searchFor('text=St Paul&layers=locality')[0]!.properties.gid, 'geonames:locality:4');
});

test('layers, sources and boundary.country filter the results', (t) => {
  t.deepEqual(gids(searchFor('text=Heidelberger&layers=venue')), ['openstreetmap:venue:node/31']);
  t.deepEqual(gids(searchFor('text=Heidelberg&sources=gn&boundary.country=ZA')), ['geonames:locality:2']);
  t.deepEqual(searchFor('text=Heidelberg&sources=oa'), []);
});

test('names in the asked language, searchable in every language', (t) => {
  const [germany] = searchFor('text=Deutschland&lang=fr');
  t.like(germany!.properties, { gid: 'whosonfirst:country:85633111', name: 'Allemagne' });
  t.is(searchFor('text=Cafe Soleil')[0]!.properties.name, 'Café Sonne');
});

test('autocomplete matches the prefix of the last word', (t) => {
  const features = search(index, sanitizeAutocomplete(q('text=Heidelberger Sch')).params, true).features;
  t.is(features[0]!.properties.gid, 'openstreetmap:venue:node/31');
  t.is(search(index, sanitizeAutocomplete(q('text=Mannh')).params, true).features[0]!.properties.gid, 'geonames:locality:3');
});

test('nonsense finds nothing', (t) => {
  t.deepEqual(searchFor('text=qwxzv'), []);
});

/** The engine on a text as given, with no sanitizer in between. */
const searchAsGiven = (text: string, autocomplete = false) =>
  search(index, { ...sanitizeSearch(q('text=x')).params, text }, autocomplete).features;

test('FTS5 syntax in a text is searched as words or not at all, never run as a query', (t) => {
  const texts = [
    '[]',
    '(',
    '"',
    '*',
    '^',
    '-',
    ':',
    "'",
    ';',
    '--',
    '{}',
    'AND',
    'NEAR(',
    'NOT',
    'a OR b',
    'col:x',
    'name:Mannheim',
    'NEAR(Heidelberg Mannheim)',
    '"Heidelberg" AND',
    'Heidel*',
    '^Mannheim',
    '-Heidelberg OR',
    'Mannheim (',
    'Mann\u19b0heim',
  ];
  for (const text of texts) for (const autocomplete of [false, true]) t.notThrows(() => searchAsGiven(text, autocomplete), text);
  t.deepEqual(searchAsGiven('[]'), []);
  t.deepEqual(searchAsGiven('"', true), []);
  t.is(searchAsGiven('"Mannheim"')[0]!.properties.gid, 'geonames:locality:3');
  t.is(searchAsGiven('^Mannheim*')[0]!.properties.gid, 'geonames:locality:3');
  t.is(searchAsGiven('(Mannh', true)[0]!.properties.gid, 'geonames:locality:3');
});

const token = (text: string, extra: Partial<QueryToken> = {}): QueryToken => ({
  text,
  words: [text],
  corrections: [],
  prefix: false,
  admin: false,
  ...extra,
});

test('a match expression quotes every term as an FTS5 string', (t) => {
  const expression: string = matchExpression([token('and'), token('near', { corrections: ['n"ear'] }), token('col', { prefix: true })]);
  t.is(expression, '"and" AND ("near" OR "n""ear") AND "col" *');
  t.throws(() => matchExpression([]), { message: /at least one token/ });
});

test('every token the normalizer makes is one FTS5 term, for every code point', (t) => {
  const filters = filtersOf({
    layers: LAYERS,
    sources: SOURCES,
    boundaryCountry: undefined,
    boundaryGid: undefined,
    categories: undefined,
  });
  const runs = (words: string[]) => {
    try {
      index.matches(matchExpression([token(words[0]!, { words })]), filters, 1);
      return true;
    } catch {
      return false;
    }
  };
  /** Each distinct token, with the code point that made it. */
  const codePointOf = new Map<string, string>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const tokens = tokenize(`a${String.fromCodePoint(cp)}b`);
    // Two tokens: the code point is a separator.
    if (tokens.length === 1 && !codePointOf.has(tokens[0]!)) codePointOf.set(tokens[0]!, `U+${cp.toString(16).toUpperCase()}`);
  }
  // Checked a thousand at a time as one OR expression; a failing batch word by word.
  const words = [...codePointOf.keys()];
  const failures: string[] = [];
  for (let i = 0; i < words.length; i += 1000) {
    const batch = words.slice(i, i + 1000);
    if (!runs(batch)) failures.push(...batch.filter((word) => !runs([word])).map((word) => codePointOf.get(word)!));
  }
  t.deepEqual(failures, []);
});

test('reverse gives the nearest places first, with distances and confidence by distance', (t) => {
  const features = reverse(index, sanitizeReverse(q('point.lat=49.41211&point.lon=8.70101&layers=address,venue')).params);
  t.is(features[0]!.properties.gid, 'openstreetmap:address:node/20');
  t.true(features[0]!.properties.distance! < 0.01);
  t.is(features[0]!.properties.confidence, 0.9);
  const distances = features.map((f) => f.properties.distance!);
  t.deepEqual(
    distances,
    [...distances].sort((a, b) => a - b),
  );
  t.deepEqual(reverse(index, sanitizeReverse(q('point.lat=0&point.lon=0')).params), []);
});

test('place answers in the order asked and leaves unknown GIDs out', (t) => {
  const features = place(index, sanitizePlace(q('ids=gn:locality:3,openstreetmap:venue:node/30,gn:locality:999')).params);
  t.deepEqual(gids(features), ['geonames:locality:3', 'openstreetmap:venue:node/30']);
});
