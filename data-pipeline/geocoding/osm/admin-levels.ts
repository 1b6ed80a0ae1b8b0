/**
 * Which OSM `admin_level` is which admin layer, per country. Levels mean different things in
 * different countries (wiki: Tag:boundary=administrative, "admin_level" table); the layers follow
 * Who's On First placetypes, as Pelias does. Levels not listed (3 state groups, 5 and 6
 * districts and counties, 7 comarcas…) have no layer of ours and are skipped.
 */
import type { AdminLayer } from '../../../core/geocoding/place-record.js';

export interface AdminLevels {
  layers: Readonly<Partial<Record<number, AdminLayer>>>;
  /**
   * A district level whose areas are cities when no municipality (level 8) lies inside them:
   * Germany's kreisfreie Städte (Heidelberg is a level-6 Stadtkreis with no level-8 Gemeinde).
   */
  cityDistrictLevel?: number;
}

/** Most countries: 2 country, 4 state or region, 8 municipality, 9 and 10 city parts (Monaco's quartiers are 10). */
const DEFAULT_LEVELS: AdminLevels = { layers: { 2: 'country', 4: 'region', 8: 'locality', 9: 'neighbourhood', 10: 'neighbourhood' } };

const LEVELS_BY_COUNTRY: Readonly<Record<string, AdminLevels>> = {
  // No level 4: the seven parishes (level 7) are the regions, as in WOF.
  AD: { layers: { 2: 'country', 7: 'region', 8: 'locality' } },
  DE: { ...DEFAULT_LEVELS, cityDistrictLevel: 6 },
  // 6 counties, and independent cities such as Baltimore, which no level-8 city lies in.
  US: { ...DEFAULT_LEVELS, cityDistrictLevel: 6 },
};

export const MUNICIPALITY_LEVEL = 8;

/** The level table of a country (ISO 3166-1 alpha-2), the default one when unknown. */
export function adminLevelsOf(alpha2: string | undefined): AdminLevels {
  return LEVELS_BY_COUNTRY[alpha2 ?? ''] ?? DEFAULT_LEVELS;
}
