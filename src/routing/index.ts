/**
 * The routing product behind the gateway (scope `routing`, one unit per request; a matrix one per
 * started 100 elements, a map matching one per started 100 trace points): OSRM-style directions,
 * isochrones, matrices, map matching and optimized trips, and OSRM's own HTTP API (route, table,
 * nearest, match, trip). Parameters are checked here; the work runs in the dataset's worker
 * pool, so the event loop only waits for the answer. See docs/ROUTING.md.
 */
import type { ServiceRoute } from '../gateway/index.js';
import type { DatasetHolder } from '../dataset/index.js';
import type { Request } from '../http/request.js';
import { osrmRoutes } from './osrm/routes.js';
import { checkCoverage } from './coverage.js';
import { oncePerRequest, poolFor, runTask } from './run.js';
import { sanitizeDirections, sanitizeIsochrone } from './sanitize/endpoints.js';
import { matchUnits, sanitizeMatch } from './sanitize/match.js';
import { matrixUnits, sanitizeMatrix } from './sanitize/matrix.js';
import { sanitizeOptimize } from './sanitize/optimize.js';
import type { RoutingTask } from '../../workers/routing/task.js';

export function routingRoutes(datasets: DatasetHolder): ServiceRoute[] {
  /** The task run in the pool of its mode, once its points are checked against the dataset's coverage. */
  const answer = (task: RoutingTask, elevation = false) => {
    const pool = poolFor(datasets, task.params.mode, elevation);
    checkCoverage(datasets, task, 'lat,lng');
    return runTask(pool, task);
  };
  const matrixParams = oncePerRequest((req: Request) => sanitizeMatrix(req.query));
  const matchParams = oncePerRequest((req: Request) => sanitizeMatch(req.query));
  const optimizeParams = oncePerRequest((req: Request) => sanitizeOptimize(req.query));
  return [
    {
      path: '/directions',
      service: 'routing',
      handler: (req: Request) => {
        const { params } = sanitizeDirections(req.query);
        return answer({ kind: 'directions', params }, params.elevation);
      },
    },
    {
      path: '/isochrone',
      service: 'routing',
      handler: (req: Request) => {
        const { params } = sanitizeIsochrone(req.query);
        return answer({ kind: 'isochrone', params });
      },
    },
    {
      path: '/matrix',
      service: 'routing',
      // Reserved up front: one unit per started 100 elements. A bad request throws its 400 here, before any reservation.
      units: (req: Request) => {
        const { sources, destinations } = matrixParams(req);
        return matrixUnits(sources.length * destinations.length);
      },
      handler: (req: Request) => {
        const params = matrixParams(req);
        return answer({ kind: 'matrix', params });
      },
    },
    {
      path: '/match',
      service: 'routing',
      // Reserved up front: one unit per started 100 trace points. A bad request throws its 400 here.
      units: (req: Request) => matchUnits(matchParams(req).points.length),
      handler: (req: Request) => {
        const params = matchParams(req);
        return answer({ kind: 'match', params }, params.elevation);
      },
    },
    {
      path: '/optimize',
      service: 'routing',
      // One unit per request; checked here so that a refused request is never metered.
      units: (req: Request) => (optimizeParams(req), 1),
      handler: (req: Request) => {
        const params = optimizeParams(req);
        return answer({ kind: 'trip', params, body: 'optimize' }, params.elevation);
      },
    },
    ...osrmRoutes(datasets),
  ];
}
