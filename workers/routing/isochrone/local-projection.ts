/**
 * Metres east and north of a centre (an equirectangular projection about it): accurate to a few percent
 * over the tens of kilometres an isochrone spans, and cheap both ways.
 */
import type { LonLat } from '../../../core/geo/types.js';

type Pair = [number, number];

const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

export interface LocalProjection {
  toMetres(lonLat: Readonly<LonLat>): Pair;
  toLonLat(metres: readonly [number, number]): Pair;
}

export function localProjection(center: Readonly<LonLat>): LocalProjection {
  const [lon0, lat0] = center;
  const eastScale = METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180);
  return {
    toMetres: ([lon, lat]) => [(lon - lon0) * eastScale, (lat - lat0) * METRES_PER_DEGREE],
    toLonLat: ([x, y]) => [lon0 + x / eastScale, lat0 + y / METRES_PER_DEGREE],
  };
}
