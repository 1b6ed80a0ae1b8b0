/**
 * Dispatch: a request matched against the route table and answered — 404 and 405 in the uniform
 * error body, a CORS preflight's 204, the handler's reply or its error mapped to a status
 * (ApiError as given, a store outage 503, a full disk 507, anything else 500 with its request id
 * logged) — then CORS headers on public paths, the access-log line and the request's metrics.
 */
import { StoreUnavailable } from '../control-plane/store.js';
import { ApiError, storageFull } from '../http/errors.js';
import { empty, errorReply, presetHeaders, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Router } from '../http/router.js';
import type { Logging } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { operatorOffMessage } from '../operator/index.js';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, X-Request-Id, ETag',
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

export interface DispatchDeps {
  router: Router;
  logging: Logging;
  metrics: Metrics;
  /** Whether this node offers the operator API (a 404 under /operator/ says how to turn it on otherwise). */
  operatorOn: boolean;
  /** Runs first on every request: drops X-Forwarded-* headers of untrusted peers (http/forwarded.ts). */
  prepare: (req: Request) => void;
}

/** The request handler over the route table. */
export function dispatcher({ router, logging, metrics, operatorOn, prepare }: DispatchDeps): (req: Request) => Reply | Promise<Reply> {
  const { logger } = logging;
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

  return (req: Request): Reply | Promise<Reply> => {
    const started = performance.now();
    prepare(req);
    const match = router.match(req.method, req.path);
    if (match.kind === 'none') {
      const isApi = API_PATH.test(req.path);
      return finish(req, started, isApi, errorReply(404, notFoundMessage(req, isApi, operatorOn)));
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
}
