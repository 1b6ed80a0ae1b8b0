/**
 * OSRM's own HTTP API beside `/directions`, `/matrix`, `/match` and `/optimize`: `/osrm/{route,table,nearest,match,trip}/v1/{profile}/{coordinates}`,
 * answered by the same engine tasks with OSRM's bodies and error codes. Each request is checked in
 * the gateway's `units`, so a refused one costs nothing. See docs/ROUTING.md.
 */
import type { DatasetHolder } from '../../dataset/index.js';
import type { ServiceRoute } from '../../gateway/index.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { checkCoverage } from '../coverage.js';
import { oncePerRequest, poolFor, runTask } from '../run.js';
import { matchUnits } from '../sanitize/match.js';
import { matrixUnits } from '../sanitize/matrix.js';
import { OSRM_ERROR_STATUS } from './errors.js';
import { osrmMatchRequest, osrmNearestRequest, osrmRouteRequest, osrmTableRequest, osrmTripRequest, type OsrmRequest } from './requests.js';
import type { OsrmExtras, RoutingTask } from '../../../workers/routing/task.js';

/** The body fields `skip_waypoints=true` leaves out, per task. */
const WAYPOINT_FIELDS: Record<RoutingTask['kind'], readonly string[]> = {
  directions: ['waypoints'],
  matrix: ['sources', 'destinations'],
  nearest: ['waypoints'],
  match: ['tracepoints'],
  trip: ['waypoints'],
  isochrone: [],
};

function withoutFields(reply: Reply, fields: readonly string[]): Reply {
  const body = JSON.parse(reply.body as string) as Record<string, unknown>;
  for (const field of fields) delete body[field];
  return { ...reply, body: JSON.stringify(body) };
}

/** The task run in its pool once the URL's coordinates are checked against the coverage. */
async function answerOsrm(datasets: DatasetHolder, request: OsrmRequest<unknown>, task: RoutingTask): Promise<Reply> {
  const pool = poolFor(datasets, task.params.mode);
  checkCoverage(datasets, task, 'lon,lat');
  const reply = await runTask(pool, task, OSRM_ERROR_STATUS);
  return request.skipWaypoints ? withoutFields(reply, WAYPOINT_FIELDS[task.kind]) : reply;
}

/** An OSRM request's parameters, whose messages write points as its URL does, `lon,lat`. */
const lonLat = <P>(params: P): P & OsrmExtras => ({ ...params, pointOrder: 'lon,lat' });

export function osrmRoutes(datasets: DatasetHolder): ServiceRoute[] {
  const route = oncePerRequest(osrmRouteRequest);
  const table = oncePerRequest(osrmTableRequest);
  const nearest = oncePerRequest(osrmNearestRequest);
  const match = oncePerRequest(osrmMatchRequest);
  const trip = oncePerRequest(osrmTripRequest);
  return [
    {
      path: '/osrm/route/v1/:profile/:coords',
      service: 'routing',
      units: (req: Request) => (route(req), 1),
      handler: (req: Request) => answerOsrm(datasets, route(req), { kind: 'directions', params: lonLat(route(req).params) }),
    },
    {
      path: '/osrm/table/v1/:profile/:coords',
      service: 'routing',
      // As /matrix: one unit per started 100 elements.
      units: (req: Request) => {
        const { sources, destinations } = table(req).params;
        return matrixUnits(sources.length * destinations.length);
      },
      handler: (req: Request) => answerOsrm(datasets, table(req), { kind: 'matrix', params: lonLat(table(req).params) }),
    },
    {
      path: '/osrm/nearest/v1/:profile/:coords',
      service: 'routing',
      units: (req: Request) => (nearest(req), 1),
      handler: (req: Request) => answerOsrm(datasets, nearest(req), { kind: 'nearest', params: lonLat(nearest(req).params) }),
    },
    {
      path: '/osrm/match/v1/:profile/:coords',
      service: 'routing',
      // As /match: one unit per started 100 trace points.
      units: (req: Request) => matchUnits(match(req).params.points.length),
      handler: (req: Request) => answerOsrm(datasets, match(req), { kind: 'match', params: lonLat(match(req).params) }),
    },
    {
      path: '/osrm/trip/v1/:profile/:coords',
      service: 'routing',
      units: (req: Request) => (trip(req), 1),
      handler: (req: Request) => answerOsrm(datasets, trip(req), { kind: 'trip', params: lonLat(trip(req).params), body: 'osrm' }),
    },
  ];
}
