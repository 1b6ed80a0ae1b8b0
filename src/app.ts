/**
 * Builds the request handler: system routes, the dashboard, usage, and every service route behind
 * the gateway, each public route under both `/api/v1` and `/v1`. Adds CORS, logs and metrics.
 */
import { attributionPage } from './attribution/index.js';
import type { Clock } from './clock.js';
import { StoreUnavailable, type ControlStore } from './control-plane/store.js';
import type { DatasetHolder } from './dataset/index.js';
import type { DatasetSource } from './dataset/source.js';
import { registerDashboardApi } from './dashboard/api.js';
import { Sessions } from './dashboard/sessions.js';
import { registerDashboardStatic } from './dashboard/static.js';
import { findKey } from './gateway/credentials.js';
import { Gateway, type ServiceRoute } from './gateway/index.js';
import { ApiError, storageFull } from './http/errors.js';
import { CidrSet } from '../core/cidr.js';
import { clientAddressResolver } from './http/client-address.js';
import { untrustedForwardingDropper } from './http/forwarded.js';
import { publicOriginResolver } from './http/public-origin.js';
import { empty, errorReply, json, presetHeaders, type Reply } from './http/reply.js';
import type { Request } from './http/request.js';
import { Router, type Handler } from './http/router.js';
import { elevationRoutes } from './elevation/index.js';
import { geocodingRoutes } from './geocoding/index.js';
import { geocoderIndexSource } from './geocoding/source.js';
import { mapsRoutes } from './maps/index.js';
import { ProtobufBodies } from './protobuf/index.js';
import { routingRoutes } from './routing/index.js';
import { routingPoolSource } from './routing/source.js';
import { elevationSource } from './terrain/index.js';
import type { Logging } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { operatorOffMessage, type OperatorApi } from './operator/index.js';
import { usageReport, type UsageViewer } from './usage/report.js';

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
 * geocoding its index, routing its pool of threads over the graphs, terrain its elevation store.
 * (Maps reads the dataset's tiles and files as they are, and starts its raster pool at the first
 * raster request: src/maps/raster/pool.ts.)
 */
export const DATASET_SOURCES: readonly DatasetSource<unknown>[] = [geocoderIndexSource, routingPoolSource, elevationSource];

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, ETag',
};
const CORS_PRESET = presetHeaders(CORS_HEADERS);
const CORS_ONLY = [CORS_PRESET];
const withCors = (preset: Reply['preset']) =>
  preset === undefined ? CORS_ONLY : preset.at(-1) === CORS_PRESET ? preset : [...preset, CORS_PRESET];
/** A preflight's answer: the methods the path takes (GET; POST too where a body can carry the query). */
const preflightHeaders = (allowed: readonly string[]) => ({
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': [...allowed, 'OPTIONS'].join(', '),
  'Access-Control-Allow-Headers': 'Authorization, X-API-Key, Content-Type, If-None-Match, X-Request-Id',
  'Access-Control-Max-Age': '86400',
});
/** Paths under the public API prefixes: even their 404s carry CORS headers, so browsers can read them. */
const API_PATH = /^\/(?:api\/v1|v1)(?:\/|$)/;
const INTERNAL_ERROR = 'internal error; the X-Request-Id of this response identifies it in the server logs';

/** A 404's message: where the API is, unless the path already is there; how to turn on the operator API when it is off. */
function notFoundMessage(req: Request, isApi: boolean, operatorOn: boolean): string {
  const operatorOff = operatorOn ? undefined : operatorOffMessage(req.method, req.path);
  if (operatorOff !== undefined) return operatorOff;
  const asked = `no route ${req.method} ${req.path}`;
  if (isApi) return `${asked}: there is no such endpoint in the API; docs/API.md lists the routes`;
  return `${asked}; the API is served under /api/v1 and the dashboard at /dashboard/`;
}

export function createApp(deps: AppDeps): {
  handle: (req: Request) => Reply | Promise<Reply>;
  gateway: Gateway;
  /** The client's address, through trusted proxies' X-Forwarded-For (http/client-address.ts). */
  clientAddressOf: (req: Request) => string;
  /** Paths that accept a longer URL than the server's limit, and how long (for `listen`). */
  longUrlPaths: ReadonlyMap<string, number>;
} {
  const { store, clock, logging, metrics } = deps;
  const { logger } = logging;
  const originOf = publicOriginResolver(deps.publicUrl);
  const trustedProxies = deps.trustedProxies ?? CidrSet.parse([]);
  const clientAddressOf = clientAddressResolver(trustedProxies);
  const dropUntrustedForwarding = untrustedForwardingDropper(trustedProxies);
  const billingUrl = (req: Request) => `${originOf(req) ?? ''}/dashboard/#billing`;
  const gateway = new Gateway(store, clock, billingUrl, { onQuotaRejected: (s) => metrics.quotaRejected(s) }, clientAddressOf);
  const sessions = new Sessions(store, () => clock.now(), deps.publicUrl?.startsWith('https:') ?? false);
  const router = new Router();

  const longUrlPaths = new Map<string, number>();
  const publicRoute = (path: string, handler: Handler, method = 'GET') => {
    router.add(method, `/api/v1${path}`, handler, { public: true });
    router.add(method, `/v1${path}`, handler, { public: true });
  };

  // Liveness: the process answers (cheap, never touches the store or the dataset). Readiness: it
  // serves the dataset `current` points at; 503 when that one cannot be opened (the image's health check).
  router.add('GET', '/healthz', () => json(200, { status: 'ok' }), { public: false });
  router.add(
    'GET',
    '/readyz',
    () => {
      const { ready, ...detail } = deps.datasets.readiness();
      return json(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', ...detail }, { 'Cache-Control': 'no-store' });
    },
    { public: false },
  );
  router.add('GET', '/attribution', attributionPage(deps.datasets), { public: false });
  router.add(
    'GET',
    '/metrics',
    async () => ({
      status: 200,
      headers: { 'Content-Type': metrics.contentType },
      body: await metrics.text(),
    }),
    { public: false },
  );

  // Usage answers to a dashboard session or to any active key of the organization, without scope:
  // a key sees its own usage among the keys, a member the keys it may manage.
  publicRoute('/usage/current', async (req) => {
    let orgId: string;
    let viewer: UsageViewer;
    if (findKey(req) !== null) {
      const caller = await gateway.authenticate(req);
      orgId = caller.org.id;
      viewer = { key: caller.key };
    } else {
      const session = await sessions.current(req);
      if (!session) throw new ApiError(401, 'sign in to the dashboard or pass an API key of your organization');
      orgId = session.user.orgId;
      viewer = { user: session.user };
    }
    const org = await store.getOrg(orgId);
    if (!org) throw new ApiError(401, 'unknown organization');
    return json(200, await usageReport(store, org, gateway.periods.now(), viewer), { 'Cache-Control': 'no-store' });
  });

  // Protobuf bodies wrap the service handler inside the gateway, so both formats are metered alike.
  const protobufBodies = new ProtobufBodies();
  for (const route of [
    ...mapsRoutes(deps.datasets, deps.publicUrl),
    ...geocodingRoutes(deps.datasets, deps.publicUrl),
    ...routingRoutes(deps.datasets),
    ...elevationRoutes(deps.datasets),
    ...(deps.services ?? []),
  ]) {
    const handler = protobufBodies.wrap(route.path, route.handler);
    const guarded = route.metered === false ? gateway.scoped(route.service, handler) : gateway.meter(route.service, handler, route.units);
    publicRoute(route.path, guarded);
    const { bodyAsQuery, maxUrlLength } = route;
    // The body joins the query before the key is looked for: a POST is the GET it stands for.
    if (bodyAsQuery)
      publicRoute(
        route.path,
        (req) => {
          req.appendQuery(bodyAsQuery(req));
          return guarded(req);
        },
        'POST',
      );
    if (maxUrlLength) for (const prefix of ['/api/v1', '/v1']) longUrlPaths.set(`${prefix}${route.path}`, maxUrlLength);
  }
  for (const route of protobufBodies.schemaRoutes()) publicRoute(route.path, route.handler);

  registerDashboardApi(router, { store, sessions, periods: gateway.periods, now: () => clock.now(), originOf, clientAddressOf });
  registerDashboardStatic(router, deps.publicUrl);
  deps.operator?.register(router);

  const finish = (req: Request, started: number, isPublic: boolean, reply: Reply): Reply => {
    if (isPublic) reply.preset = withCors(reply.preset);
    const ms = performance.now() - started;
    metrics.request(req.route, reply.status, ms / 1000);
    logging.access(req.id, req.method, req.path, req.route, reply.status, ms);
    return reply;
  };

  const failure = (req: Request, error: unknown): Reply => {
    if (error instanceof ApiError) return errorReply(error.statusCode, error.message, error.headers, error.code);
    if (error instanceof StoreUnavailable) {
      logger.warn({ reqId: req.id, err: error }, 'control-plane store unavailable');
      return errorReply(503, `the account store is unavailable (${error.message}); try again shortly`, { 'Retry-After': '1' });
    }
    const full = storageFull(error);
    if (full !== null) {
      logger.error({ reqId: req.id, err: error }, `${full}: a write was refused`);
      return errorReply(507, `${full}, so nothing was saved; try again once its operator has made room`, { 'Retry-After': '60' });
    }
    logger.error({ reqId: req.id, err: error }, 'unhandled error');
    return errorReply(500, INTERNAL_ERROR);
  };

  const handle = (req: Request): Reply | Promise<Reply> => {
    const started = performance.now();
    dropUntrustedForwarding(req);
    const match = router.match(req.method, req.path);
    if (match.kind === 'none') {
      const isApi = API_PATH.test(req.path);
      return finish(req, started, isApi, errorReply(404, notFoundMessage(req, isApi, deps.operator?.enabled ?? false)));
    }
    if (match.kind === 'wrong-method') {
      if (req.method === 'OPTIONS' && match.public) return finish(req, started, false, empty(204, preflightHeaders(match.allowed)));
      const allow = match.allowed.join(', ');
      return finish(req, started, match.public, errorReply(405, `${req.method} is not allowed here; use ${allow}`, { Allow: allow }));
    }
    const { route, params } = match;
    req.route = route.pattern;
    req.params = params;
    let result: Reply | Promise<Reply>;
    try {
      result = route.handler(req);
    } catch (error) {
      return finish(req, started, route.public, failure(req, error));
    }
    if (result instanceof Promise) {
      return result.then(
        (reply) => finish(req, started, route.public, reply),
        (error: unknown) => finish(req, started, route.public, failure(req, error)),
      );
    }
    return finish(req, started, route.public, result);
  };

  return { handle, gateway, clientAddressOf, longUrlPaths };
}
