/** Shared pieces of the endpoints: filters from parameters, rows to records, distances, accuracy, de-duplication. */
import { layerBit, sourceBit } from '../../../core/geocoding/index-schema.js';
import { kilometresBetween } from '../../../core/geo/distance.js';
import type { GeocodeRecord, Layer, Source } from '../../../core/geocoding/indexed-record.js';
import type { Filters, PlaceRow } from './index-file.js';

export function filtersOf(layers: readonly Layer[], sources: readonly Source[], country: { alpha3: string } | undefined): Filters {
  return {
    layers: layers.reduce((bits, layer) => bits | layerBit(layer), 0),
    sources: sources.reduce((bits, source) => bits | sourceBit(source), 0),
    country: country?.alpha3 ?? null,
  };
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

/** Keeps the first of each group of results that name the same place (the list is best first). */
export function withoutDuplicates<T extends { row: PlaceRow; record: GeocodeRecord }>(ranked: readonly T[], size: number): T[] {
  const kept: T[] = [];
  for (const result of ranked) {
    const name = result.row.name_text.split('|')[0];
    const radius = SAME_PLACE_KM[result.row.layer] ?? 1;
    const duplicate = kept.some(
      (other) =>
        other.row.layer === result.row.layer &&
        other.row.name_text.split('|')[0] === name &&
        other.record.housenumber === result.record.housenumber &&
        kilometresBetween(other.row.lon, other.row.lat, result.row.lon, result.row.lat) <= radius,
    );
    if (!duplicate) kept.push(result);
    if (kept.length === size) break;
  }
  return kept;
}
