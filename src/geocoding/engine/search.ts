/**
 * Search and autocomplete: candidates from the FTS5 index (all tokens required; then, when that
 * finds nothing, with typo corrections of real words, then dropping parts of the address: Pelias'
 * fallbacks, see `retrievals`), plus matches near the focus point; each scored by text match,
 * layer and house number, importance and focus distance; a house number no record holds
 * interpolated along its street; the best `size`, one per place.
 */
import { toFeature, type GeocodeFeature } from '../response/feature.js';
import type { GeocodeRecord, Layer } from '../../../core/geocoding/indexed-record.js';
import { LAYER_IMPORTANCE } from '../../../core/geocoding/layer-importance.js';
import type { SearchOptions, SearchParams } from '../sanitize/endpoints.js';
import type { ParsedAddress } from './address-parser.js';
import type { Box, GeocoderIndex, PlaceRow } from './index-file.js';
import { kilometresBetween } from '../../../core/geo/distance.js';
import { accuracyOf, filtersOf, recordOf, withoutDuplicates } from './places.js';
import { matchExpression, type MatchExpression } from './match-expression.js';
import { analyzeQuery, correctingEveryToken, type QueryText, type QueryToken } from './query-text.js';
import type { Vocabulary } from './vocabulary.js';
import { matchText } from './text-match.js';
import { houseNumberKey, houseNumberValue } from '../../../core/geocoding/house-number.js';
import { streetKey } from '../../../core/geocoding/street-lines.js';
import { interpolateHouseNumber } from './interpolation.js';
import { boundaryOf, intersection } from './boundary.js';

/** Points per unit of a place's importance. */
const IMPORTANCE_POINTS = 0.6;
/** Candidates read per retrieval, in importance order. */
const CANDIDATES = 250;
/** Half the side of the box around the focus point searched besides, in degrees (about 50 km). */
const FOCUS_BOX_DEGREES = 0.5;
/** Focus influence halves about every 15 km. */
const FOCUS_SCALE_KM = 20;
/** The best-scored streets (or addresses of other numbers) an absent house number is sought along. */
const INTERPOLATION_ANCHORS = 5;
/** Margin around a street's box, and half the side of the box around an address, searched for its street's numbers (degrees). */
const STREET_MARGIN_DEGREES = 0.002;
const ADDRESS_NEIGHBOURHOOD_DEGREES = 0.01;
/** An interpolated address ranks this far above its street, below an exact address (+1). */
const INTERPOLATED_POINTS = 0.5;
const INTERPOLATED_CONFIDENCE_GAIN = 0.2;
const INTERPOLATED_MAX_CONFIDENCE = 0.8;

export interface SearchAnswer {
  features: GeocodeFeature[];
  parsed: ParsedAddress;
}

interface Scored {
  row: PlaceRow;
  record: GeocodeRecord;
  score: number;
  confidence: number;
  fallback: boolean;
  /** An address with the house number asked. */
  sameNumber: boolean;
  interpolated?: true;
  distanceKm?: number;
}

interface Retrieval {
  /** Every query token, with the corrections this retrieval allows (all are scored). */
  tokens: QueryToken[];
  /** The ones the text index must match. */
  required: QueryToken[];
  /** One of `required` suffices (the last resort: any word of the query). */
  any: boolean;
  /** It drops part of what was asked (the house number, or all but the admin areas). */
  fallback: boolean;
}

/** Admin parts the data may lack a name for ("Kodiak, AK": the data has no US regions; no layer holds counties). */
const OUTER_ADMIN = ['country', 'region', 'dependency', 'county'];
/** Parts inside the locality that structured search may give (the data may name them otherwise or not at all). */
const INNER_ADMIN = ['locality', 'borough', 'neighbourhood'];

/**
 * Parts of the query left out in turn, after the typo corrections: the region and country; the
 * postcode; the locality (the address or street anywhere: the admin polygons and the post town
 * often disagree); the house number (fallback to the street in the locality, then anywhere).
 */
const RELAXATIONS: readonly { drop: readonly string[]; fallback: boolean }[] = [
  { drop: OUTER_ADMIN, fallback: false },
  { drop: [...OUTER_ADMIN, 'postcode'], fallback: false },
  { drop: [...OUTER_ADMIN, 'postcode', ...INNER_ADMIN], fallback: false },
  { drop: [...OUTER_ADMIN, 'postcode', 'housenumber'], fallback: true },
  { drop: [...OUTER_ADMIN, 'postcode', ...INNER_ADMIN, 'housenumber'], fallback: true },
];

/**
 * The retrievals to try, strictest first: every token; every token with typo corrections even of
 * real words; each relaxation; the admin part alone (fallback to the locality); any one token, so
 * that the answer is never empty while any word of the query matches.
 */
function* retrievals(query: QueryText, vocabulary: Vocabulary): Generator<Retrieval> {
  const strict = query.tokens;
  // A text without a letter or digit asks for nothing (the endpoints refuse it before).
  if (strict.length === 0) return;
  yield { tokens: strict, required: strict, any: false, fallback: false };
  const tokens = correctingEveryToken(strict, vocabulary);
  yield { tokens, required: tokens, any: false, fallback: false };
  const tried = new Set<string>([tokens.map((token) => token.text).join(' ')]);
  for (const { drop, fallback } of RELAXATIONS) {
    const required = tokens.filter((token) => token.label === undefined || !drop.includes(token.label));
    const key = required.map((token) => token.text).join(' ');
    if (required.length === 0 || tried.has(key)) continue;
    tried.add(key);
    yield { tokens, required, any: false, fallback };
  }
  // The admin part alone is scored alone too: a place named after another word of the query is no locality asked for.
  const admin = tokens.filter((token) => token.admin);
  if (admin.length > 0 && admin.length < tokens.length) yield { tokens: admin, required: admin, any: false, fallback: true };
  if (tokens.length > 1) yield { tokens, required: tokens, any: true, fallback: true };
}

/**
 * The retrieval's FTS5 expressions: its tokens, and, when the last is an unfinished word, that word
 * whole as well. A short prefix begins many longer words ("Monte": Montevideo, Monterrey, … 673
 * places with GeoNames), whose most important candidates would crowd the places named by the
 * word itself (Monte-Carlo) out of the candidates before they are ranked.
 */
function matchExpressions(retrieval: Retrieval): MatchExpression[] {
  const { required, any } = retrieval;
  const expressions = [matchExpression(required, any)];
  if (required.some((token) => token.prefix))
    expressions.push(
      matchExpression(
        required.map((token) => ({ ...token, prefix: false })),
        any,
      ),
    );
  return expressions;
}

function score(row: PlaceRow, record: GeocodeRecord, query: QueryText, retrieval: Retrieval, params: SearchOptions): Scored | undefined {
  const match = matchText(retrieval.tokens, row.name_text, row.admin_text);
  if (match.nameHits === 0) return undefined;
  let points = 3 * (0.5 * match.queryCoverage + 0.5 * match.nameCoverage) + IMPORTANCE_POINTS * row.importance;
  let confidence = 0.25 + 0.75 * match.answered * match.nameCoverage - (match.corrected ? 0.1 : 0);
  let isFallback = retrieval.fallback;
  const sameNumber =
    query.housenumber !== undefined &&
    row.layer === 'address' &&
    record.housenumber !== undefined &&
    houseNumberKey(record.housenumber) === query.housenumber;
  if (query.housenumber !== undefined) {
    if (sameNumber) points += 1;
    else isFallback = true;
    if (row.layer === 'address' && !sameNumber) points -= 0.5;
  } else if (row.layer === 'address') {
    points -= 0.3;
  }
  if (query.layer !== undefined && row.layer === query.layer) points += 1;
  if (isFallback) confidence = Math.min(confidence, 0.6);
  let distanceKm: number | undefined;
  if (params.focusPoint) {
    distanceKm = kilometresBetween(params.focusPoint.lon, params.focusPoint.lat, row.lon, row.lat);
    points += 1.5 * Math.exp(-distanceKm / FOCUS_SCALE_KM);
  }
  if (row.source === 'whosonfirst') points += 0.05;
  const scored: Scored = { row, record, score: points, confidence: roundedConfidence(confidence), fallback: isFallback, sameNumber };
  if (distanceKm !== undefined) scored.distanceKm = distanceKm;
  return scored;
}

const roundedConfidence = (confidence: number) => Math.round(Math.max(0.1, Math.min(1, confidence)) * 1000) / 1000;

/** Where to look for the numbers of the street a result names: around the street's box, or near an address of it. */
function streetSearchBox(record: GeocodeRecord): Box {
  const [west, south, east, north] =
    record.layer === 'street' && record.bbox ? record.bbox : [record.lon, record.lat, record.lon, record.lat];
  const margin = record.layer === 'street' ? STREET_MARGIN_DEGREES : ADDRESS_NEIGHBOURHOOD_DEGREES;
  return { west: west - margin, south: south - margin, east: east + margin, north: north + margin };
}

/**
 * The house number asked, placed along the best-scored street that frames it (a street result, or
 * the street of an address with another number): a new address result, marked interpolated,
 * ranked and trusted a little above the best of those streets.
 */
function interpolated(index: GeocoderIndex, ranked: readonly Scored[], query: QueryText): Scored | undefined {
  const typed = query.parsed.housenumber;
  const number = typed === undefined ? undefined : houseNumberValue(typed);
  if (typed === undefined || number === undefined) return undefined;
  const anchors = ranked.filter(
    (result) => result.row.layer === 'street' || (result.row.layer === 'address' && result.record.street !== undefined),
  );
  const best = anchors[0];
  for (const anchor of anchors.slice(0, INTERPOLATION_ANCHORS)) {
    const street = anchor.row.layer === 'street' ? anchor.record.name : anchor.record.street!;
    const point = interpolateHouseNumber(index, streetKey(street), streetSearchBox(anchor.record), number);
    if (point === undefined) continue;
    const { bbox: _bbox, names: _names, postalcode: _postalcode, ...hierarchy } = anchor.record;
    const sourceId = `${anchor.row.layer === 'street' ? anchor.record.sourceId : `interpolated/${streetKey(street).replaceAll(' ', '-')}`}:${query.housenumber!.replaceAll(' ', '-')}`;
    const record: GeocodeRecord = {
      ...hierarchy,
      layer: 'address',
      sourceId,
      name: `${typed} ${street}`,
      housenumber: typed,
      street,
      lon: point[0],
      lat: point[1],
    };
    return {
      row: {
        ...anchor.row,
        id: -1,
        layer: 'address',
        lon: point[0],
        lat: point[1],
        name_text: `${query.housenumber} ${streetKey(street)}`,
      },
      record,
      score: best!.score + INTERPOLATED_POINTS,
      confidence: roundedConfidence(Math.min(INTERPOLATED_MAX_CONFIDENCE, best!.confidence + INTERPOLATED_CONFIDENCE_GAIN)),
      fallback: false,
      sameNumber: true,
      interpolated: true,
    };
  }
  return undefined;
}

function focusBox(params: SearchOptions): Box | undefined {
  const focus = params.focusPoint;
  if (!focus) return undefined;
  return {
    west: focus.lon - FOCUS_BOX_DEGREES,
    east: focus.lon + FOCUS_BOX_DEGREES,
    south: focus.lat - FOCUS_BOX_DEGREES,
    north: focus.lat + FOCUS_BOX_DEGREES,
  };
}

/**
 * The best `size` results, one per place (places.ts). A place kept as a coarser layer than its
 * best-ranked result (Monte-Carlo: a WOF neighbourhood with a population, and a locality without)
 * ranks as that result would at the kept layer's importance.
 */
function onePerPlace(ranked: readonly Scored[], size: number): Scored[] {
  const places = withoutDuplicates(ranked, ranked.length).map(({ kept, lead }) =>
    kept === lead
      ? kept
      : {
          ...kept,
          score: Math.max(
            kept.score,
            lead.score + IMPORTANCE_POINTS * (LAYER_IMPORTANCE[kept.row.layer as Layer] - LAYER_IMPORTANCE[lead.row.layer as Layer]),
          ),
        },
  );
  return places.sort((a, b) => b.score - a.score).slice(0, size);
}

export function search(index: GeocoderIndex, params: SearchParams, autocomplete: boolean): SearchAnswer {
  return searchQuery(index, analyzeQuery(params.text, index.vocabulary, autocomplete), params);
}

/** The answer to a query already analyzed: of a search text, or of the fields of structured search. */
export function searchQuery(index: GeocoderIndex, query: QueryText, params: SearchOptions): SearchAnswer {
  const filters = filtersOf(params);
  const boundary = boundaryOf(params.boundaryRect, params.boundaryCircle);
  const focus = focusBox(params);
  // The focus box searched besides, inside the boundary.
  const box = focus && boundary ? intersection(focus, boundary.box) : focus;
  const scored: Scored[] = [];
  for (const retrieval of retrievals(query, index.vocabulary)) {
    const rows: PlaceRow[] = [];
    for (const match of matchExpressions(retrieval)) {
      rows.push(...index.matches(match, filters, CANDIDATES, boundary?.box));
      if (box !== undefined) rows.push(...index.matches(match, filters, CANDIDATES, box));
    }
    const seen = new Set<number>();
    for (const row of rows) {
      if (seen.has(row.id) || (boundary && !boundary.contains(row.lon, row.lat))) continue;
      seen.add(row.id);
      const result = score(row, recordOf(row), query, retrieval, params);
      if (result !== undefined) scored.push(result);
    }
    if (scored.length > 0) break;
  }
  scored.sort((a, b) => b.score - a.score);
  if (query.housenumber !== undefined && !scored.some((result) => result.sameNumber)) {
    const found = interpolated(index, scored, query);
    const address = found && boundary && !boundary.contains(found.row.lon, found.row.lat) ? undefined : found;
    const below = address === undefined ? -1 : scored.findIndex((result) => result.score < address.score);
    if (address !== undefined) scored.splice(below === -1 ? scored.length : below, 0, address);
  }
  const features = onePerPlace(scored, params.size).map((result) =>
    toFeature(result.record, {
      confidence: result.confidence,
      match_type: result.interpolated ? 'interpolated' : result.fallback ? 'fallback' : 'exact',
      accuracy: accuracyOf(result.row.layer),
      ...(result.distanceKm === undefined ? {} : { distanceKm: result.distanceKm }),
      lang: params.lang,
      withCategories: params.categories !== undefined,
    }),
  );
  return { features, parsed: query.parsed };
}
