/**
 * The routing product behind the gateway (scope `routing`, one unit per request; a matrix one per
 * started 100 elements): OSRM-style directions, isochrones and matrices. Parameters are checked here; the work runs in the dataset's worker
 * pool, so the event loop only waits for the answer. See docs/ROUTING.md.
 */
import type { ServiceRoute } from '../gateway/index.js';
import type { DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { currentDataset } from '../maps/dataset-files.js';
import type { RoutingTask } from './answer/task.js';
import type { RoutingPool } from './pool.js';
import { sanitizeDirections, sanitizeIsochrone } from './sanitize/endpoints.js';
import { matrixUnits, sanitizeMatrix, type MatrixParams } from './sanitize/matrix.js';

/** No road near a point, or no route between points: the request is well-formed but cannot be answered. */
const UNROUTABLE = 422;

function poolFor(datasets: DatasetHolder, mode: string): RoutingPool {
  const pool = currentDataset(datasets).routing;
  if (pool === null || !pool.modes.has(mode)) {
    throw new ApiError(503, `the served dataset has no ${mode} routing graph: the operator must import an OSM extract (waymark import --osm)`);
  }
  return pool;
}

async function answer(pool: RoutingPool, task: RoutingTask): Promise<Reply> {
  let answered;
  try {
    answered = await pool.run(task);
  } catch (error) {
    if (/queue is at limit/i.test((error as Error).message)) throw new ApiError(503, 'routing is busy: too many requests are waiting; try again shortly', { 'Retry-After': '1' });
    throw error;
  }
  if (!answered.ok) throw new ApiError(UNROUTABLE, answered.message, {}, answered.code);
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: answered.body };
}

/** The checked parameters of a matrix request: parsed once, by its metering, and reused by its handler. */
const matrixRequests = new WeakMap<Request, MatrixParams>();
function matrixParams(req: Request): MatrixParams {
  let params = matrixRequests.get(req);
  if (!params) matrixRequests.set(req, (params = sanitizeMatrix(req.query)));
  return params;
}

export function routingRoutes(datasets: DatasetHolder): ServiceRoute[] {
  return [
    {
      path: '/directions',
      service: 'routing',
      handler: (req: Request) => {
        const { params } = sanitizeDirections(req.query);
        return answer(poolFor(datasets, params.mode), { kind: 'directions', params });
      },
    },
    {
      path: '/isochrone',
      service: 'routing',
      handler: (req: Request) => {
        const { params } = sanitizeIsochrone(req.query);
        return answer(poolFor(datasets, params.mode), { kind: 'isochrone', params });
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
        return answer(poolFor(datasets, params.mode), { kind: 'matrix', params });
      },
    },
  ];
}
