/** One GeocodeRecord as a Pelias GeoJSON feature: Point geometry, the Pelias properties present when known, bbox. */
import type { Language } from '../sanitize/lang.js';
import { label } from './label.js';
import { ADMIN_LAYERS, gid, type GeocodeRecord, type Layer, type Source } from '../../../core/geocoding/indexed-record.js';
import type { BBox } from '../../../core/geo/types.js';
import type { LonLat } from '../../../core/geo/types.js';

/** What the search adds to a record: how well and how it matched, and how far it is. */
export interface MatchExtras {
  /** 0..1, as Pelias: how sure the result is what was asked for. */
  confidence?: number;
  /** `exact`, `interpolated` or `fallback` (a coarser layer than asked for). */
  match_type?: 'exact' | 'interpolated' | 'fallback';
  /** `point` for a point place, `centroid` for an area's centre. */
  accuracy?: 'point' | 'centroid';
  /** Kilometres from the reverse point or the focus point. */
  distanceKm?: number;
  /** The response language; picks the record's name in it when the data has one. */
  lang?: Language;
  /** The client sent `categories`: show the record's categories, as Pelias does only then. */
  withCategories?: boolean;
}

export interface FeatureProperties {
  id: string;
  gid: string;
  layer: Layer;
  source: Source;
  source_id: string;
  name: string;
  housenumber?: string;
  street?: string;
  postalcode?: string;
  confidence?: number;
  match_type?: string;
  accuracy?: string;
  distance?: number;
  country?: string;
  country_gid?: string;
  country_a?: string;
  region?: string;
  region_gid?: string;
  region_a?: string;
  locality?: string;
  locality_gid?: string;
  neighbourhood?: string;
  neighbourhood_gid?: string;
  label: string;
  category?: readonly string[];
}

export interface GeocodeFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: LonLat };
  properties: FeatureProperties;
  bbox?: BBox;
}

const roundTo3 = (value: number) => Math.round(value * 1000) / 1000;

/** Copies the fields of `from` that are set, in the order of `names` (Pelias' property order). */
function known<T extends object, K extends keyof T>(from: T, names: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const name of names) if (from[name] !== undefined) picked[name] = from[name];
  return picked;
}

/** Countries that write the street before the house number, as pelias/api `localNamingConventions` (its default list). */
const STREET_FIRST_COUNTRIES = new Set(['DEU', 'FIN', 'SWE', 'NOR', 'DNK', 'ISL', 'CZE']);

/** An address's name in its country's order: `Hauptstraße 120` in Germany, `120 Main Street` elsewhere. */
function localAddressName(record: GeocodeRecord): string {
  const { layer, housenumber, street, name } = record;
  const streetFirst = layer === 'address' && housenumber && street && STREET_FIRST_COUNTRIES.has(record.country_a ?? '');
  return streetFirst && name === `${housenumber} ${street}` ? `${street} ${housenumber}` : name;
}

export function toFeature(record: GeocodeRecord, extras: MatchExtras = {}): GeocodeFeature {
  const language = extras.lang?.language;
  const name = (language !== undefined ? record.names?.[language] : undefined) ?? localAddressName(record);
  // An admin place names itself at its own layer: in the language asked, as its name.
  const ownLayer = (ADMIN_LAYERS as readonly string[]).includes(record.layer) ? { [record.layer]: name } : {};
  const named: GeocodeRecord = { ...record, ...ownLayer, name };
  const properties: FeatureProperties = {
    id: record.sourceId,
    gid: gid(record.source, record.layer, record.sourceId),
    layer: record.layer,
    source: record.source,
    source_id: record.sourceId,
    name,
    ...known(record, ['housenumber', 'street', 'postalcode']),
    ...known(extras, ['confidence', 'match_type', 'accuracy']),
    ...(extras.distanceKm === undefined ? {} : { distance: roundTo3(extras.distanceKm) }),
    ...known(named, ['country', 'country_gid', 'country_a', 'region', 'region_gid', 'region_a']),
    ...known(named, ['locality', 'locality_gid', 'neighbourhood', 'neighbourhood_gid']),
    label: label(named),
    ...(extras.withCategories && record.category !== undefined ? { category: record.category } : {}),
  };
  const feature: GeocodeFeature = {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [record.lon, record.lat] },
    properties,
  };
  if (record.bbox) feature.bbox = record.bbox;
  return feature;
}
