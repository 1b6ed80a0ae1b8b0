/**
 * The operator API, for scripts that trigger and watch dataset rebuilds:
 *   POST /operator/imports        {"osm", "world", "wof", "oa", "geonames", "dem"} → 202 and the import's status
 *   GET  /operator/imports/{id}   one import's status
 *   GET  /operator/imports        the recent imports
 * Authenticated by the operator token; without `WAYMARK_OPERATOR_TOKEN` the routes do not exist:
 * every `/operator/*` path answers 404 saying that the token turns the API on. Imports go to the BullMQ queue when Redis is configured, else to a child process. Not
 * metered, no CORS.
 */
import { setting } from '../../core/config.js';
import { redisSettingsFromEnv, type RedisSettings } from '../../core/redis-settings.js';
import { notFound } from '../http/errors.js';
import { json } from '../http/reply.js';
import type { Router } from '../http/router.js';
import type { Logger } from '../observability/logger.js';
import { operatorAuth } from './auth.js';
import { ChildProcessImports } from './child-runner.js';
import { parseImportRequest } from './import-request.js';
import { QueuedImports } from './queued-runner.js';

export interface OperatorOptions {
  /** The bearer token operators present; undefined disables the operator API. */
  token: string | undefined;
  /** The import queue's Redis; null runs imports in a child process of the server. */
  redis: RedisSettings | null;
}

export function operatorOptionsFromEnv(): OperatorOptions {
  return { token: setting('operatorToken'), redis: redisSettingsFromEnv() };
}

export interface OperatorApi {
  /** False without an operator token: no route is registered. */
  enabled: boolean;
  register(router: Router): void;
  /** Closes the queue connection, or aborts a running child-process import. */
  close(): Promise<void>;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

const OPERATOR_PATH = /^\/operator(?:\/|$)/;

/** Why a path of the operator API is not found on a server without the API, or undefined for other paths. */
export function operatorOffMessage(method: string, path: string): string | undefined {
  if (!OPERATOR_PATH.test(path)) return undefined;
  return `no route ${method} ${path}: the operator API is off on this server; set WAYMARK_OPERATOR_TOKEN to turn it on (docs/OPERATIONS.md, "The operator API")`;
}

export function createOperatorApi(dataDir: string, options: OperatorOptions, logger: Logger): OperatorApi {
  if (options.token === undefined) return { enabled: false, register: () => {}, close: async () => {} };
  const authorize = operatorAuth(options.token);
  const runner = options.redis ? new QueuedImports(options.redis, dataDir, logger) : new ChildProcessImports(dataDir, logger);
  return {
    enabled: true,
    register(router) {
      router.add(
        'POST',
        '/operator/imports',
        async (req) => {
          authorize(req);
          const status = await runner.start(parseImportRequest(req.body));
          return json(202, status, { ...NO_STORE, Location: `/operator/imports/${status.id}` });
        },
        { public: false },
      );
      router.add(
        'GET',
        '/operator/imports',
        async (req) => {
          authorize(req);
          return json(200, { imports: await runner.recent() }, NO_STORE);
        },
        { public: false },
      );
      router.add(
        'GET',
        '/operator/imports/:id',
        async (req) => {
          authorize(req);
          const id = req.params.id!;
          const status = await runner.status(id);
          if (!status) throw notFound(`no import ${JSON.stringify(id)} for this data folder; GET /operator/imports lists the recent ones`);
          return json(200, status, NO_STORE);
        },
        { public: false },
      );
    },
    close: () => runner.close(),
  };
}
