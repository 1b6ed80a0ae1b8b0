/**
 * The elevation product behind the gateway (scope `maps`, one unit per request): the elevation
 * at points, or at samples along a path, answered as Google's Elevation API answers — bilinear
 * between the samples of the dataset's elevation store (src/terrain), `null` outside its coverage.
 * GET, or POST with the parameters in the body (body.ts); the URL may be up to 16 KB long.
 * See docs/API.md, "Elevation".
 */
import { currentDataset, type DatasetHolder } from '../dataset/index.js';
import type { ServiceRoute } from '../gateway/index.js';
import { ApiError } from '../http/errors.js';
import { metresOutside, outsideCoverage } from '../http/params/coverage.js';
import type { LonLat } from '../../core/geo/types.js';
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

function results(store: ElevationStore, points: readonly Readonly<LonLat>[]): ElevationResult[] {
  return points.map(([lng, lat]) => {
    const sample = store.sampleAt(lng, lat);
    return {
      elevation: sample && centimetres(sample.elevation),
      location: { lat, lng },
      resolution: sample && centimetres(sample.resolution),
    };
  });
}

/**
 * A request none of whose points lies in the elevation data's box (the answer would be all nulls)
 * is a 400 naming the coverage and, for a point given `lng,lat`, the swap; a request with some
 * points inside answers the others null, as Google's.
 */
function checkCoverage(
  store: ElevationStore,
  query: URLSearchParams,
  points: readonly LonLat[],
  answered: readonly ElevationResult[],
): void {
  if (answered.some((result) => result.elevation !== null) || points.some((point) => metresOutside(store.bounds, point) === 0)) return;
  const name = query.has('path') ? 'path' : 'locations';
  throw new ApiError(
    400,
    `invalid parameter '${name}': no point has elevation data; ${outsideCoverage(store.bounds, points[0]!, 'lat,lng')}`,
  );
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
        const answered = results(store, points);
        checkCoverage(store, req.query, points, answered);
        return json(200, { results: answered, status: 'OK' });
      },
    },
  ];
}
