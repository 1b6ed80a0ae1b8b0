/**
 * A place's importance, 0..1.8, independent of any query: how likely a person means it when its name
 * matches. Larger admin areas first, then population (log scale).
 */
import type { PlaceLayer, PlaceRecord } from '../../../core/geocoding/place-record.js';

const LAYER_IMPORTANCE: Record<PlaceLayer, number> = {
  country: 1,
  region: 0.8,
  locality: 0.5,
  postalcode: 0.4,
  neighbourhood: 0.35,
  venue: 0.2,
  street: 0.15,
  address: 0.1,
};

/** log10 of a world city's population (10 million) is 7: the scale the population share saturates at. */
const POPULATION_SCALE = 7;

export function importanceOf(record: PlaceRecord): number {
  const population = record.population ?? 0;
  const populationShare = Math.min(1, Math.log10(population + 1) / POPULATION_SCALE) * 0.8;
  return LAYER_IMPORTANCE[record.layer] + populationShare;
}
