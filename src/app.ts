/**
 * Builds the request handler: the route table (app/routes.ts: system routes, usage, every service
 * route behind the gateway), the dashboard and the operator API on it, and the dispatch over it
 * (app/dispatch.ts: errors to statuses, CORS, logs and metrics).
 */
import type { Clock } from './clock.js';
import type { ControlStore } from './control-plane/store.js';
import type { DatasetHolder } from './dataset/index.js';
import type { DatasetSource } from './dataset/source.js';
import { registerDashboardApi } from './dashboard/api.js';
import { Sessions } from './dashboard/sessions.js';
import { registerDashboardStatic } from './dashboard/static.js';
import { Gateway, type ServiceRoute } from './gateway/index.js';
import { CidrSet } from '../core/cidr.js';
import { clientAddressResolver } from './http/client-address.js';
import { untrustedForwardingDropper } from './http/forwarded.js';
import { publicOriginResolver } from './http/public-origin.js';
import type { Reply } from './http/reply.js';
import type { Request } from './http/request.js';
import { Router } from './http/router.js';
import { addServiceRoutes, addSystemRoutes, publicRouteAdder, usageAnalyticsRoute, usageRoute } from './app/routes.js';
import { dispatcher } from './app/dispatch.js';
import { elevationRoutes } from './elevation/index.js';
import { geocodingRoutes } from './geocoding/index.js';
import { geocoderIndexSource } from './geocoding/source.js';
import { mapsRoutes } from './maps/index.js';
import { routingRoutes } from './routing/index.js';
import { routingPoolSource } from './routing/source.js';
import { rasterPoolSource } from './maps/raster/pool.js';
import { elevationSource } from './terrain/index.js';
import type { Logging } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import type { OperatorApi } from './operator/index.js';

export interface AppDeps {
  store: ControlStore;
  datasets: DatasetHolder;
  clock: Clock;
  logging: Logging;
  metrics: Metrics;
  /** Absolute base URL the platform is reached at, when configured (`WAYMARK_PUBLIC_URL`). */
  publicUrl?: string;
  services?: ServiceRoute[];
  /** The operator API (`/operator/*`), when this node offers one. */
  operator?: OperatorApi;
  /** Reverse proxies whose X-Forwarded-* headers are believed (`WAYMARK_TRUSTED_PROXIES`); none by default. */
  trustedProxies?: CidrSet;
}

/**
 * What the products open per dataset, in this order, with each dataset the DatasetHolder swaps in:
 * geocoding its index, routing its pool of threads over the graphs, maps its raster pool (whose
 * threads start at the first picture), terrain its elevation store. Maps reads the dataset's tiles
 * and files as they are.
 */
export const DATASET_SOURCES: readonly DatasetSource<unknown>[] = [
  geocoderIndexSource,
  routingPoolSource,
  rasterPoolSource,
  elevationSource,
];

export function createApp(deps: AppDeps): {
  handle: (req: Request) => Reply | Promise<Reply>;
  gateway: Gateway;
  /** The client's address, through trusted proxies' X-Forwarded-For (http/client-address.ts). */
  clientAddressOf: (req: Request) => string;
  /** Paths that accept a longer URL than the server's limit, and how long (for `listen`). */
  longUrlPaths: ReadonlyMap<string, number>;
} {
  const { store, clock, logging, metrics } = deps;
  const originOf = publicOriginResolver(deps.publicUrl);
  const trustedProxies = deps.trustedProxies ?? CidrSet.parse([]);
  const clientAddressOf = clientAddressResolver(trustedProxies);
  const dropUntrustedForwarding = untrustedForwardingDropper(trustedProxies);
  const billingUrl = (req: Request) => `${originOf(req) ?? ''}/dashboard/#billing`;
  const gateway = new Gateway(
    store,
    clock,
    billingUrl,
    { onQuotaRejected: (s) => metrics.quotaRejected(s), onWindowRejected: (s) => metrics.windowRejected(s) },
    clientAddressOf,
  );
  const sessions = new Sessions(store, () => clock.now(), deps.publicUrl?.startsWith('https:') ?? false);
  const router = new Router();

  addSystemRoutes(router, deps.datasets, metrics);
  const addPublic = publicRouteAdder(router);
  addPublic('/usage/current', usageRoute(store, gateway, sessions));
  addPublic('/usage/report', usageAnalyticsRoute(store, gateway, sessions));
  const longUrlPaths = addServiceRoutes(router, gateway, [
    ...mapsRoutes(deps.datasets, deps.publicUrl),
    ...geocodingRoutes(deps.datasets, deps.publicUrl),
    ...routingRoutes(deps.datasets),
    ...elevationRoutes(deps.datasets),
    ...(deps.services ?? []),
  ]);
  registerDashboardApi(router, { store, sessions, periods: gateway.periods, now: () => clock.now(), originOf, clientAddressOf });
  registerDashboardStatic(router, deps.publicUrl);
  deps.operator?.register(router);

  const handle = dispatcher({ router, logging, metrics, operatorOn: deps.operator?.enabled ?? false, prepare: dropUntrustedForwarding });
  return { handle, gateway, clientAddressOf, longUrlPaths };
}
