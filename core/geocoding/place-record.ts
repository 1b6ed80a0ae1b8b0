/**
 * The one record type every geocoding importer produces (WOF, OpenAddresses, GeoNames, and later
 * OSM), with its GID `<source>:<layer>:<source_id>` and the admin hierarchy fields that
 * `AdminLookup.withHierarchy` fills.
 */

export type PlaceSource = 'whosonfirst' | 'openaddresses' | 'geonames' | 'openstreetmap';

export type PlaceLayer = 'venue' | 'address' | 'street' | 'neighbourhood' | 'locality' | 'region' | 'country' | 'postalcode';

import { ADMIN_LAYERS } from './indexed-record.js';
import type { BBox } from '../geo/types.js';

export { ADMIN_LAYERS };
export type AdminLayer = (typeof ADMIN_LAYERS)[number];

/** The admin hierarchy of a place: names and GIDs of its enclosing admin areas. */
export interface AdminHierarchy {
  country?: string;
  /** ISO 3166-1 alpha-3. */
  country_a?: string;
  country_gid?: string;
  region?: string;
  /** The region's short code (`MD`, `BW`), which some countries' labels use. */
  region_a?: string;
  region_gid?: string;
  locality?: string;
  locality_gid?: string;
  neighbourhood?: string;
  neighbourhood_gid?: string;
}

export interface PlaceRecord extends AdminHierarchy {
  source: PlaceSource;
  layer: PlaceLayer;
  source_id: string;
  gid: string;
  /** The default name (for addresses: housenumber and street). */
  name: string;
  /** Names by ISO 639-1 language code, e.g. `{ fr: 'Monaco', it: 'Principato di Monaco' }`. */
  names: Record<string, string>;
  housenumber?: string;
  street?: string;
  postalcode?: string;
  /**
   * Names the source gives the admin areas around the place (OSM `addr:city`, `addr:place`;
   * OpenAddresses CITY): matched like the hierarchy's names, and they choose the locality among
   * the polygons (data-pipeline/geocoding/hierarchy.ts).
   */
  admin_names?: string[];
  lon: number;
  lat: number;
  /** [minLon, minLat, maxLon, maxLat] of the place's area, when it has one. */
  bbox?: BBox;
  /** Number of inhabitants, when the source knows it (ranking). */
  population?: number;
  /**
   * The rings of the outline an address is on (an OSM building with `addr:*`): outer rings and
   * holes of every part, read even-odd. Reverse puts the address whose outline holds the point
   * first. Kept in the index's `address_outline`, not in the response record.
   */
  outline?: number[][][];
  /** Pelias' categories of a venue (core/geocoding/categories.ts), when its tags give any. */
  category?: string[];
  /** A venue that names only a building, land use, a natural feature or a square: it ranks below points of interest (ranking, never shown). */
  minor_venue?: true;
}

export function placeGid(source: PlaceSource, layer: PlaceLayer, sourceId: string): string {
  return `${source}:${layer}:${sourceId}`;
}

/** Whether a longitude/latitude pair is a usable WGS84 position (finite, in range, not 0,0). */
export function isValidPosition(lon: number, lat: number): boolean {
  return Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90 && (lon !== 0 || lat !== 0);
}
