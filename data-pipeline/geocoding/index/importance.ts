/**
 * A place's importance, 0..1.8, independent of any query: how likely a person means it when its name
 * matches. Larger admin areas first, then population (log scale).
 */
import { LAYER_IMPORTANCE } from '../../../core/geocoding/layer-importance.js';
import type { PlaceRecord } from '../../../core/geocoding/place-record.js';

/** log10 of a world city's population (10 million) is 7: the scale the population share saturates at. */
const POPULATION_SCALE = 7;

/**
 * What a minor venue (a named building, land use, natural feature) gives up: down to a
 * street's importance, so a point of interest of the same name ranks first.
 */
const MINOR_VENUE_DISCOUNT = 0.05;

export function importanceOf(record: PlaceRecord): number {
  const population = record.population ?? 0;
  const populationShare = Math.min(1, Math.log10(population + 1) / POPULATION_SCALE) * 0.8;
  return LAYER_IMPORTANCE[record.layer] + populationShare - (record.minor_venue ? MINOR_VENUE_DISCOUNT : 0);
}
