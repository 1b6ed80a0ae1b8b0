/**
 * The routing product behind the gateway (scope `routing`, one unit per request): OSRM-style
 * directions and isochrones. Parameters are checked here; the work runs in the dataset's worker
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
  ];
}
