/**
 * The mixed query set of the geocoding benchmark, made from the index itself with a seeded PRNG
 * (the same index and seed give the same queries in the same order):
 * search: venues, addresses with numbers, streets, localities (big GeoNames cities worldwide among
 * them), typos and abbreviations, some with focus.point, layers or boundary.country;
 * autocomplete: prefixes of 2–12 letters of those texts; reverse: random points inside the
 * imported OSM extracts, and near big GeoNames cities elsewhere.
 */
import Database from 'better-sqlite3';
import type { BBox } from '../../core/geo/types.js';
import { seededRandom, shuffle } from '../lib/request-list.js';

export const ENDPOINTS = ['search', 'autocomplete', 'reverse'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface Query {
  endpoint: Endpoint;
  /** What the query stands for: venue, address, typo, prefix, extract point, … */
  kind: string;
  /** The URL query string, without the key. */
  params: string;
}

/** Large cities on every continent, always among the locality searches. */
const WORLD_CITIES = [
  'Paris',
  'Berlin',
  'Tokyo',
  'New York',
  'London',
  'São Paulo',
  'Mumbai',
  'Cairo',
  'Sydney',
  'Mexico City',
  'Lagos',
  'Toronto',
];

/** Written-out words and an abbreviation the engine expands (core/geocoding/text/abbreviations.ts). */
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bAvenue\b/, 'Av'],
  [/\bBoulevard\b/, 'Bd'],
  [/\bSaint\b/, 'St'],
  [/\bPlace\b/, 'Pl'],
  [/stra(ss|ß)e\b/, 'str.'],
  [/\bStra(ss|ß)e\b/, 'Str.'],
];

/** The share of each kind among the search queries. */
const SEARCH_MIX = { venue: 0.2, address: 0.2, street: 0.15, locality: 0.2, typo: 0.15, abbreviation: 0.1 } as const;
/** The most important GeoNames localities (ids are in importance order) that searches and reverse points use. */
const TOP_LOCALITIES = 3000;

interface Place {
  layer: string;
  lon: number;
  lat: number;
  name: string;
  housenumber?: string;
  street?: string;
  locality?: string;
  country?: string;
  country_a?: string;
}

interface SearchText {
  kind: string;
  text: string;
  place: Place;
}

function readPlaces(db: Database.Database, where: string, limit = -1): Place[] {
  const rows = db.prepare(`SELECT record FROM place WHERE ${where} ORDER BY id LIMIT ${limit}`).all() as { record: string }[];
  return rows.map((row) => JSON.parse(row.record) as Place);
}

const withLocality = (text: string, place: Place) => (place.locality && place.locality !== text ? `${text}, ${place.locality}` : text);

/** Swaps two neighbouring letters inside the longest word: "Heidelberg" → "Heidlebegr"-like typos. */
function withTypo(text: string, random: () => number): string {
  const words = text.split(' ');
  const longest = words.reduce((best, word, i) => (word.length > words[best]!.length ? i : best), 0);
  const word = words[longest]!;
  if (word.length < 5) return text;
  const at = 1 + Math.floor(random() * (word.length - 3));
  words[longest] = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  return words.join(' ');
}

function abbreviated(text: string): string | null {
  for (const [written, short] of ABBREVIATIONS) if (written.test(text)) return text.replace(written, short);
  return null;
}

/** `count` values picked from `items` in turn after a seeded shuffle (repeating when there are fewer). */
function pick<T>(items: T[], count: number, random: () => number): T[] {
  if (items.length === 0) return [];
  const order = shuffle([...items], random);
  return Array.from({ length: count }, (_, i) => order[i % order.length]!);
}

function searchTexts(db: Database.Database, count: number, random: () => number): SearchText[] {
  const share = (kind: keyof typeof SEARCH_MIX) => Math.max(1, Math.round(count * SEARCH_MIX[kind]));
  const localities = readPlaces(db, `layer = 'locality' AND source = 'geonames'`, TOP_LOCALITIES);
  const streets = readPlaces(db, `layer = 'street'`);
  const cities = WORLD_CITIES.map((name) => localities.find((p) => p.name === name)).filter((p): p is Place => p !== undefined);
  const named = (kind: string, places: Place[], text: (p: Place) => string) => places.map((place) => ({ kind, text: text(place), place }));

  const base = [
    ...named('venue', pick(readPlaces(db, `layer = 'venue'`), share('venue'), random), (p) => withLocality(p.name, p)),
    ...named(
      'address',
      pick(readPlaces(db, `layer = 'address' AND json_extract(record, '$.housenumber') IS NOT NULL`), share('address'), random),
      (p) => withLocality(`${p.housenumber} ${p.street}`, p),
    ),
    ...named('street', pick(streets, share('street'), random), (p) => withLocality(p.name, p)),
    ...named('locality', cities, (p) => p.name),
    ...named(
      'locality',
      pick(localities, Math.max(0, share('locality') - cities.length), random),
      (p) => `${p.name}, ${p.country ?? p.country_a}`,
    ),
  ];
  const typos = pick(base, share('typo'), random).map((t) => ({ ...t, kind: 'typo', text: withTypo(t.text, random) }));
  const abbreviations = pick(
    streets.filter((p) => abbreviated(p.name) !== null),
    share('abbreviation'),
    random,
  ).map((place) => ({ kind: 'abbreviation', text: withLocality(abbreviated(place.name)!, place), place }));
  return shuffle([...base, ...typos, ...abbreviations], random).slice(0, count);
}

const coordinate = (value: number) => value.toFixed(5);

/** Query parameters: the text, then focus.point (30 %, within about 5 km), layers (15 %), boundary.country (15 %). */
function searchParams(t: SearchText, random: () => number, filters: boolean): string {
  const params = new URLSearchParams({ text: t.text });
  if (random() < 0.3) {
    params.set('focus.point.lat', coordinate(t.place.lat + (random() - 0.5) * 0.1));
    params.set('focus.point.lon', coordinate(t.place.lon + (random() - 0.5) * 0.1));
  }
  if (filters && random() < 0.15) params.set('layers', t.place.layer);
  if (filters && t.place.country_a && random() < 0.15) params.set('boundary.country', t.place.country_a);
  return params.toString();
}

/** The first 2–12 letters of a text (whole characters; never ending on a space). */
function prefix(text: string, random: () => number): string {
  const letters = [...text];
  const length = Math.min(letters.length, 2 + Math.floor(random() * 11));
  return letters.slice(0, length).join('').trimEnd();
}

function reversePoints(db: Database.Database, extracts: BBox[], count: number, random: () => number): Query[] {
  const inExtracts = Math.round(count * 0.75);
  const points: Query[] = [];
  for (let i = 0; i < inExtracts; i++) {
    const [west, south, east, north] = extracts[i % extracts.length]!;
    const lat = coordinate(south + random() * (north - south));
    const lon = coordinate(west + random() * (east - west));
    points.push({
      endpoint: 'reverse',
      kind: 'point in an extract',
      params: new URLSearchParams({ 'point.lat': lat, 'point.lon': lon }).toString(),
    });
  }
  for (const city of pick(readPlaces(db, `layer = 'locality' AND source = 'geonames'`, TOP_LOCALITIES), count - inExtracts, random)) {
    const lat = coordinate(city.lat + (random() - 0.5) * 0.02);
    const lon = coordinate(city.lon + (random() - 0.5) * 0.02);
    points.push({
      endpoint: 'reverse',
      kind: 'near a GeoNames city',
      params: new URLSearchParams({ 'point.lat': lat, 'point.lon': lon }).toString(),
    });
  }
  return shuffle(points, random);
}

/** `count` queries per endpoint from the index file; `extracts` are the bounding boxes of the imported OSM files. */
export function makeQueries(indexFile: string, extracts: BBox[], count: number, seed: number): Query[] {
  const db = new Database(indexFile, { readonly: true, fileMustExist: true });
  try {
    const random = seededRandom(seed);
    const texts = searchTexts(db, count, random);
    const search = texts.map((t) => ({ endpoint: 'search' as const, kind: t.kind, params: searchParams(t, random, true) }));
    const autocomplete = texts.map((t) => ({
      endpoint: 'autocomplete' as const,
      kind: `prefix of ${t.kind}`,
      params: searchParams({ ...t, text: prefix(t.text, random) }, random, false),
    }));
    return [...search, ...autocomplete, ...reversePoints(db, extracts, count, random)];
  } finally {
    db.close();
  }
}

/** How many queries of each kind, e.g. `venue 60, address 60, …`. */
export function describeKinds(queries: Query[]): string {
  const counts = new Map<string, number>();
  for (const q of queries) counts.set(q.kind, (counts.get(q.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${kind} ${n}`).join(', ');
}
