/**
 * The route table: the system routes (health, readiness, attribution, metrics), the usage report,
 * and every product's service routes behind the gateway — each public route under both `/api/v1`
 * and `/v1`, a POST beside the GET of a route whose body may carry the query, and the paths that
 * take a longer URL than the server's limit.
 */
import { attributionPage } from '../attribution/index.js';
import type { ControlStore } from '../control-plane/store.js';
import type { DatasetHolder } from '../dataset/index.js';
import type { Sessions } from '../dashboard/sessions.js';
import { findKey } from '../gateway/credentials.js';
import type { Gateway, ServiceRoute } from '../gateway/index.js';
import { ApiError } from '../http/errors.js';
import { json } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Handler, Router } from '../http/router.js';
import type { Metrics } from '../observability/metrics.js';
import { ProtobufBodies } from '../protobuf/index.js';
import { analyticsReport } from '../usage/analytics-report.js';
import { usageReport, type UsageViewer } from '../usage/report.js';

/** Adds a public route under both API prefixes. */
export function publicRouteAdder(router: Router): (path: string, handler: Handler, method?: string) => void {
  return (path, handler, method = 'GET') => {
    router.add(method, `/api/v1${path}`, handler, { public: true });
    router.add(method, `/v1${path}`, handler, { public: true });
  };
}

/** Liveness, readiness, the attribution page and the Prometheus metrics: no key, not under the API prefixes. */
export function addSystemRoutes(router: Router, datasets: DatasetHolder, metrics: Metrics): void {
  // Liveness: the process answers (cheap, never touches the store or the dataset). Readiness: it
  // serves the dataset `current` points at; 503 when that one cannot be opened (the image's health check).
  router.add('GET', '/healthz', () => json(200, { status: 'ok' }), { public: false });
  router.add(
    'GET',
    '/readyz',
    () => {
      const { ready, ...detail } = datasets.readiness();
      return json(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', ...detail }, { 'Cache-Control': 'no-store' });
    },
    { public: false },
  );
  router.add('GET', '/attribution', attributionPage(datasets), { public: false });
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
}

/**
 * The usage report answers to a dashboard session or to any active key of the organization, without
 * scope: a key sees its own usage among the keys, a member the keys it may manage.
 */
/** Who asks for a usage route: an API key of the organization, or else a signed-in member; 401 for neither. */
async function usageViewerOf(req: Request, gateway: Gateway, sessions: Sessions): Promise<{ orgId: string; viewer: UsageViewer }> {
  if (findKey(req) !== null) {
    const caller = await gateway.authenticate(req);
    return { orgId: caller.org.id, viewer: { key: caller.key } };
  }
  const session = await sessions.current(req);
  if (!session) throw new ApiError(401, 'sign in to the dashboard or pass an API key of your organization');
  return { orgId: session.user.orgId, viewer: { user: session.user } };
}

export function usageRoute(store: ControlStore, gateway: Gateway, sessions: Sessions): Handler {
  return async (req) => {
    const { orgId, viewer } = await usageViewerOf(req, gateway, sessions);
    const org = await store.getOrg(orgId);
    if (!org) throw new ApiError(401, 'unknown organization');
    return json(200, await usageReport(store, org, gateway.periods.now(), viewer), { 'Cache-Control': 'no-store' });
  };
}

/** `GET /usage/report`: the usage analytics, as usageRoute authenticates. */
export function usageAnalyticsRoute(store: ControlStore, gateway: Gateway, sessions: Sessions): Handler {
  return async (req) => {
    const { orgId, viewer } = await usageViewerOf(req, gateway, sessions);
    return analyticsReport(store, orgId, viewer, req, gateway.periods.now().day);
  };
}

/**
 * The service routes behind the gateway (scoped, or metered by their units), protobuf bodies
 * included; returns the paths that accept a longer URL than the server's limit, and how long.
 */
export function addServiceRoutes(router: Router, gateway: Gateway, routes: readonly ServiceRoute[]): Map<string, number> {
  const publicRoute = publicRouteAdder(router);
  const longUrlPaths = new Map<string, number>();
  // Protobuf bodies wrap the service handler inside the gateway, so both formats are metered alike.
  const protobufBodies = new ProtobufBodies();
  for (const route of routes) {
    const handler = protobufBodies.wrap(route.path, route.handler);
    const guarded =
      route.metered === false ? gateway.scoped(route.service, handler) : gateway.meter(route.service, handler, route.units, route.path);
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
  return longUrlPaths;
}
