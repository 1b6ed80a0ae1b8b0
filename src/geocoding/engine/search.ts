/**
 * Search and autocomplete: candidates from the FTS5 index (all tokens required; then, when that
 * finds nothing, with typo corrections of real words, then dropping parts of the address: Pelias'
 * fallbacks, see `retrievals`), plus
 * matches near the focus point; each scored by text match, layer and house number, importance and
 * focus distance; the best `size`, one per place.
 */
import { toFeature, type GeocodeFeature } from '../response/feature.js';
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';
import type { SearchParams } from '../sanitize/endpoints.js';
import type { ParsedAddress } from './address-parser.js';
import type { Box, GeocoderIndex, PlaceRow } from './index-file.js';
import { kilometresBetween } from '../../../core/geo/distance.js';
import { accuracyOf, filtersOf, recordOf, withoutDuplicates } from './places.js';
import { matchExpression } from './match-expression.js';
import { analyzeQuery, correctingEveryToken, type QueryText, type QueryToken } from './query-text.js';
import type { Vocabulary } from './vocabulary.js';
import { matchText } from './text-match.js';

/** Candidates read per retrieval, in importance order. */
const CANDIDATES = 250;
/** Half the side of the box around the focus point searched besides, in degrees (about 50 km). */
const FOCUS_BOX_DEGREES = 0.5;
/** Focus influence halves about every 15 km. */
const FOCUS_SCALE_KM = 20;

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
  distanceKm?: number;
}

interface Retrieval {
  /** Every query token, with the corrections this retrieval allows (all are scored). */
  tokens: QueryToken[];
  /** The ones the text index must match. */
  required: QueryToken[];
  /** It drops part of what was asked (the house number, or all but the admin areas). */
  fallback: boolean;
}

/** Tokens the parser put in these parts. */
const labelled = (tokens: readonly QueryToken[], labels: readonly string[]) => tokens.filter((token) => token.label !== undefined && labels.includes(token.label));

/**
 * The retrievals to try, strictest first: every token; every token with typo corrections even of
 * real words; then, each time dropping more, without the region and country (a name the data may
 * lack: "Kodiak, AK"), without the postcode, without the house number (fallback to the street),
 * and the admin part alone (fallback to the locality).
 */
function* retrievals(query: QueryText, vocabulary: Vocabulary): Generator<Retrieval> {
  const strict = query.tokens;
  // A text without a letter or digit asks for nothing (the endpoints refuse it before).
  if (strict.length === 0) return;
  yield { tokens: strict, required: strict, fallback: false };
  const tokens = correctingEveryToken(strict, vocabulary);
  yield { tokens, required: tokens, fallback: false };
  let required = tokens;
  const drops: { labels: string[]; fallback: boolean }[] = [
    { labels: ['country', 'region', 'dependency'], fallback: false },
    { labels: ['postcode'], fallback: false },
    { labels: ['housenumber'], fallback: true },
  ];
  let fallback = false;
  for (const drop of drops) {
    const dropped = labelled(required, drop.labels);
    if (dropped.length === 0 || dropped.length === required.length) continue;
    required = required.filter((token) => !dropped.includes(token));
    fallback ||= drop.fallback;
    yield { tokens, required, fallback };
  }
  const admin = tokens.filter((token) => token.admin);
  if (admin.length > 0 && admin.length < tokens.length) yield { tokens, required: admin, fallback: true };
}

function score(row: PlaceRow, record: GeocodeRecord, query: QueryText, retrieval: Retrieval, params: SearchParams): Scored | undefined {
  const match = matchText(retrieval.tokens, row.name_text, row.admin_text);
  if (match.nameHits === 0) return undefined;
  let points = 3 * (0.5 * match.queryCoverage + 0.5 * match.nameCoverage) + 0.6 * row.importance;
  let confidence = 0.25 + 0.75 * match.answered * match.nameCoverage - (match.corrected ? 0.1 : 0);
  let isFallback = retrieval.fallback;
  if (query.housenumber !== undefined) {
    const sameNumber = row.layer === 'address' && record.housenumber !== undefined && record.housenumber.toLowerCase() === query.housenumber;
    if (sameNumber) points += 1;
    else isFallback = true;
    if (row.layer === 'address' && !sameNumber) points -= 0.5;
  } else if (row.layer === 'address') {
    points -= 0.3;
  }
  if (isFallback) confidence = Math.min(confidence, 0.6);
  let distanceKm: number | undefined;
  if (params.focusPoint) {
    distanceKm = kilometresBetween(params.focusPoint.lon, params.focusPoint.lat, row.lon, row.lat);
    points += 1.5 * Math.exp(-distanceKm / FOCUS_SCALE_KM);
  }
  if (row.source === 'whosonfirst') points += 0.05;
  const scored: Scored = { row, record, score: points, confidence: Math.round(Math.max(0.1, Math.min(1, confidence)) * 1000) / 1000, fallback: isFallback };
  if (distanceKm !== undefined) scored.distanceKm = distanceKm;
  return scored;
}

function focusBox(params: SearchParams): Box | undefined {
  const focus = params.focusPoint;
  if (!focus) return undefined;
  return { west: focus.lon - FOCUS_BOX_DEGREES, east: focus.lon + FOCUS_BOX_DEGREES, south: focus.lat - FOCUS_BOX_DEGREES, north: focus.lat + FOCUS_BOX_DEGREES };
}

export function search(index: GeocoderIndex, params: SearchParams, autocomplete: boolean): SearchAnswer {
  const query = analyzeQuery(params.text, index.vocabulary, autocomplete);
  const filters = filtersOf(params.layers, params.sources, params.boundaryCountry);
  const box = focusBox(params);
  const scored: Scored[] = [];
  for (const retrieval of retrievals(query, index.vocabulary)) {
    const match = matchExpression(retrieval.required);
    const rows = index.matches(match, filters, CANDIDATES);
    if (box !== undefined) rows.push(...index.matches(match, filters, CANDIDATES, box));
    const seen = new Set<number>();
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const result = score(row, recordOf(row), query, retrieval, params);
      if (result !== undefined) scored.push(result);
    }
    if (scored.length > 0) break;
  }
  scored.sort((a, b) => b.score - a.score);
  const features = withoutDuplicates(scored, params.size).map((result) =>
    toFeature(result.record, {
      confidence: result.confidence,
      match_type: result.fallback ? 'fallback' : 'exact',
      accuracy: accuracyOf(result.row.layer),
      ...(result.distanceKm === undefined ? {} : { distanceKm: result.distanceKm }),
      lang: params.lang,
    }),
  );
  return { features, parsed: query.parsed };
}
