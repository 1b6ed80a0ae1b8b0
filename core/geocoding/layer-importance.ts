/**
 * The part of a place's importance (data-pipeline/geocoding/index/importance.ts) its layer gives:
 * larger admin areas first. The rest comes from its population.
 */
import type { PlaceLayer } from './place-record.js';

export const LAYER_IMPORTANCE: Readonly<Record<PlaceLayer, number>> = {
  country: 1,
  region: 0.8,
  locality: 0.5,
  postalcode: 0.4,
  neighbourhood: 0.35,
  venue: 0.2,
  street: 0.15,
  address: 0.1,
};
