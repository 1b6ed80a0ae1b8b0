/** What every routing route does once its parameters are checked: find the dataset's pool, run the task there, shape the reply. */
import { currentDataset, openedBy, type DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { RoutingPool } from './pool.js';
import { routingPoolSource } from './source.js';
import { NO_ELEVATION } from '../terrain/index.js';
import type { RoutingTask } from '../../workers/routing/task.js';

/** No road near a point, or no route between points: the request is well-formed but cannot be answered. */
const UNROUTABLE = 422;

/** The served dataset's pool for `mode`; 503 without its graph, or without elevations for a request that asks them. */
export function poolFor(datasets: DatasetHolder, mode: string, elevation = false): RoutingPool {
  const pool = openedBy(currentDataset(datasets), routingPoolSource);
  if (pool === null || !pool.modes.has(mode)) {
    throw new ApiError(
      503,
      `the served dataset has no ${mode} routing graph: the operator must import an OSM extract (waymark import --osm)`,
    );
  }
  if (elevation && !pool.hasElevation) throw new ApiError(503, `elevation=true: ${NO_ELEVATION}`);
  return pool;
}

/** Runs the task in the pool; a NoSegment / NoRoute answer is `unroutableStatus` with its code. */
export async function runTask(pool: RoutingPool, task: RoutingTask, unroutableStatus = UNROUTABLE): Promise<Reply> {
  let answered: Awaited<ReturnType<RoutingPool['run']>>;
  try {
    answered = await pool.run(task);
  } catch (error) {
    if (/queue is at limit/i.test((error as Error).message))
      throw new ApiError(503, 'routing is busy: too many requests are waiting; try again shortly', { 'Retry-After': '1' });
    throw error;
  }
  if (!answered.ok) throw new ApiError(unroutableStatus, answered.message, {}, answered.code);
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: answered.body };
}

/**
 * `parse` run at most once per request: the gateway's `units` checks a request before metering it,
 * and its handler then reuses the checked parameters.
 */
export function oncePerRequest<T>(parse: (req: Request) => T): (req: Request) => T {
  const parsed = new WeakMap<Request, T>();
  return (req) => {
    let value = parsed.get(req);
    if (value === undefined) parsed.set(req, (value = parse(req)));
    return value;
  };
}
