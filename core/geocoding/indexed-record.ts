/** What the geocoder index returns for one place, and the layer and source vocabularies it uses. */
import type { BBox } from '../geo/types.js';

/** Layers a record can belong to, most specific first. */
export const LAYERS = ['venue', 'address', 'street', 'neighbourhood', 'locality', 'region', 'country', 'postalcode'] as const;
export type Layer = (typeof LAYERS)[number];

/** The admin layers of a hierarchy, largest first. */
export const ADMIN_LAYERS = ['country', 'region', 'locality', 'neighbourhood'] as const;

/** The admin layers that the `coarse` alias stands for. */
export const COARSE_LAYERS: readonly Layer[] = ['neighbourhood', 'locality', 'region', 'country', 'postalcode'];

/** Source long names (used in GIDs and responses) and the short names clients may also send. */
export const SOURCES = ['openstreetmap', 'openaddresses', 'geonames', 'whosonfirst'] as const;
export type Source = (typeof SOURCES)[number];
export const SOURCE_SHORT_NAMES: Readonly<Record<string, Source>> = {
  osm: 'openstreetmap',
  oa: 'openaddresses',
  gn: 'geonames',
  wof: 'whosonfirst',
};

export interface GeocodeRecord {
  source: Source;
  layer: Layer;
  /** The id inside its source, e.g. `node/123`, `101751765`. */
  sourceId: string;
  /** Default name; for addresses the housenumber and street in the local order. */
  name: string;
  /** Names by language subtag (`de`, `fr`), where the data has them. */
  names?: Readonly<Record<string, string>>;
  lon: number;
  lat: number;
  bbox?: BBox;
  housenumber?: string;
  street?: string;
  postalcode?: string;
  country?: string;
  /** ISO 3166-1 alpha-3. */
  country_a?: string;
  country_gid?: string;
  region?: string;
  /** Region abbreviation (`CA`, `BW`), used by labels of countries that abbreviate regions. */
  region_a?: string;
  region_gid?: string;
  locality?: string;
  locality_gid?: string;
  neighbourhood?: string;
  neighbourhood_gid?: string;
  /** Pelias' categories of a venue (categories.ts). */
  category?: readonly string[];
}

export function gid(source: Source, layer: Layer, sourceId: string): string {
  return `${source}:${layer}:${sourceId}`;
}
