/** Shared pieces of the endpoints: filters from parameters, rows to records, distances, accuracy, de-duplication. */
import { layerBit, sourceBit } from '../../../core/geocoding/index-schema.js';
import { kilometresBetween } from '../../../core/geo/distance.js';
import { ADMIN_LAYERS, type GeocodeRecord, type Layer, type Source } from '../../../core/geocoding/indexed-record.js';
import type { Filters, PlaceRow } from './index-file.js';

/** The filter parameters of search and reverse. */
export interface FilterParams {
  layers: readonly Layer[];
  sources: readonly Source[];
  boundaryCountry: { alpha3: string } | undefined;
  boundaryGid: { gid: string } | undefined;
  categories: readonly string[] | undefined;
}

export function filtersOf(params: FilterParams): Filters {
  return {
    layers: params.layers.reduce((bits, layer) => bits | layerBit(layer), 0),
    sources: params.sources.reduce((bits, source) => bits | sourceBit(source), 0),
    country: params.boundaryCountry?.alpha3 ?? null,
    gid: params.boundaryGid?.gid ?? null,
    // Categories left blank filter nothing (Pelias).
    categories: params.categories?.length ? params.categories : null,
  };
}

/** What the GID and category filters of the index (index-file.ts) check, for a record read otherwise. */
export function passesGidAndCategories(gid: string, record: GeocodeRecord, filters: Filters): boolean {
  if (filters.gid !== null && gid !== filters.gid && !ADMIN_LAYERS.some((layer) => record[`${layer}_gid`] === filters.gid)) return false;
  return filters.categories === null || (record.category?.some((category) => filters.categories!.includes(category)) ?? false);
}

export const recordOf = (row: PlaceRow) => JSON.parse(row.record) as GeocodeRecord;

/** Pelias' accuracy: a point for places that are points, the centroid for areas and streets. */
export const accuracyOf = (layer: string): 'point' | 'centroid' => (layer === 'venue' || layer === 'address' ? 'point' : 'centroid');

/** Within this many km, two results of one layer with one name are the same place from two sources. */
const SAME_PLACE_KM: Record<string, number> = {
  venue: 0.2,
  address: 0.05,
  street: 2,
  neighbourhood: 5,
  locality: 25,
  postalcode: 10,
  region: 200,
  country: 2000,
};

/**
 * Admin layers that may hold one place twice, the more useful first: Who's On First has Monte-Carlo
 * both as a neighbourhood and as a locality. Pelias' dedupe treats such layers as synonyms and keeps
 * the locality.
 */
const SYNONYMOUS_LAYERS: readonly string[] = ['locality', 'neighbourhood'];

type Ranked = { row: PlaceRow; record: GeocodeRecord };

const firstName = (result: Ranked) => result.row.name_text.split('|')[0]!;

/**
 * No admin area from the country down to `coarser` (inclusive) that both records name differs, as
 * Pelias compares parents: a neighbourhood inside a locality of its own name is that locality.
 * A record that names itself at a layer (an admin record's own layer) tells nothing of what
 * encloses it there, so that layer is not compared (as Pelias does for GeoNames' self-parented
 * localities): WOF's Monte-Carlo locality is a point, and its neighbourhood lies in the OSM
 * commune of Monaco.
 */
function hierarchiesAgree(a: Ranked, b: Ranked, coarser: (typeof ADMIN_LAYERS)[number]): boolean {
  for (const layer of ADMIN_LAYERS.slice(0, ADMIN_LAYERS.indexOf(coarser) + 1)) {
    const gidA = a.record[`${layer}_gid`];
    const gidB = b.record[`${layer}_gid`];
    if (gidA === undefined || gidB === undefined || gidA === gidB) continue;
    if (gidA !== a.row.gid && gidB !== b.row.gid) return false;
  }
  return true;
}

/** The two results of one name name one place: one house number, close, of one layer or of synonymous layers in one hierarchy. */
function samePlace(a: Ranked, b: Ranked): boolean {
  if (a.record.housenumber !== b.record.housenumber) return false;
  const km = kilometresBetween(a.row.lon, a.row.lat, b.row.lon, b.row.lat);
  if (a.row.layer === b.row.layer) return km <= (SAME_PLACE_KM[a.row.layer] ?? 1);
  const rankA = SYNONYMOUS_LAYERS.indexOf(a.row.layer);
  const rankB = SYNONYMOUS_LAYERS.indexOf(b.row.layer);
  if (rankA < 0 || rankB < 0) return false;
  const coarser = (rankA < rankB ? a : b).record.layer as (typeof ADMIN_LAYERS)[number];
  return km <= SAME_PLACE_KM[coarser]! && hierarchiesAgree(a, b, coarser);
}

/** Of two results naming one place, `candidate` is of the more useful layer. */
const preferred = (candidate: Ranked, kept: Ranked) =>
  candidate.row.layer !== kept.row.layer && SYNONYMOUS_LAYERS.indexOf(candidate.row.layer) < SYNONYMOUS_LAYERS.indexOf(kept.row.layer);

export interface Deduplicated<T> {
  /** The result kept for a place: of its most useful layer. */
  kept: T;
  /** The best-ranked result naming that place, whose rank the kept one takes. */
  lead: T;
}

/**
 * One result per place, at most `size` (the list is best first): each group of results that name
 * the same place is kept at its first one's rank, as its most useful layer (as Pelias' dedupe).
 */
export function withoutDuplicates<T extends Ranked>(ranked: readonly T[], size: number): Deduplicated<T>[] {
  const places: Deduplicated<T>[] = [];
  /** The places kept so far by their first name: only results of one name can be one place. */
  const byName = new Map<string, Deduplicated<T>[]>();
  for (const result of ranked) {
    const name = firstName(result);
    const named = byName.get(name);
    const place = named?.find(({ kept }) => samePlace(kept, result));
    if (place !== undefined) {
      if (preferred(result, place.kept)) place.kept = result;
    } else if (places.length < size) {
      const added = { kept: result, lead: result };
      places.push(added);
      if (named === undefined) byName.set(name, [added]);
      else named.push(added);
    }
  }
  return places;
}
