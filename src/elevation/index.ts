/**
 * The elevation product behind the gateway (scope `maps`, one unit per request): the elevation
 * at points, or at samples along a path, answered as Google's Elevation API answers — bilinear
 * between the samples of the dataset's elevation store (src/terrain), `null` outside its coverage.
 * GET, or POST with the parameters in the body (body.ts); the URL may be up to 16 KB long.
 * See docs/API.md, "Elevation".
 */
import { currentDataset, type DatasetHolder } from '../dataset/index.js';
import type { ServiceRoute } from '../gateway/index.js';
import { json } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { requiredElevation, type ElevationStore } from '../terrain/index.js';
import { elevationBodyAsQuery } from './body.js';
import { sanitizeElevation } from './params.js';

/** Google's limit for a URL of its Elevation API: 512 points of 6 decimals take about 10 KB. */
const MAX_URL_LENGTH = 16 * 1024;

const centimetres = (metres: number) => Math.round(metres * 100) / 100;

interface ElevationResult {
  /** Metres above sea level (the DEM's datum: EGM96 for SRTM), to the centimetre; null outside the coverage. */
  elevation: number | null;
  location: { lat: number; lng: number };
  /** Metres between the farthest two samples interpolated between; null with the elevation. */
  resolution: number | null;
}

function results(store: ElevationStore, points: readonly (readonly [number, number])[]): ElevationResult[] {
  return points.map(([lng, lat]) => {
    const sample = store.sampleAt(lng, lat);
    return {
      elevation: sample && centimetres(sample.elevation),
      location: { lat, lng },
      resolution: sample && centimetres(sample.resolution),
    };
  });
}

export function elevationRoutes(datasets: DatasetHolder): ServiceRoute[] {
  return [
    {
      path: '/elevation',
      service: 'maps',
      maxUrlLength: MAX_URL_LENGTH,
      bodyAsQuery: elevationBodyAsQuery,
      handler: (req: Request) => {
        const points = sanitizeElevation(req.query);
        const store = requiredElevation(currentDataset(datasets));
        return json(200, { results: results(store, points), status: 'OK' });
      },
    },
  ];
}
