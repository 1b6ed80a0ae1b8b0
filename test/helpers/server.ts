/**
 * A real Waymark server for black-box tests: a fresh SQLite file in a temporary folder, real HTTP
 * on a free loopback port, a hand-moved clock, and metered test routes of the tests' own
 * (`/api/v1/test/{maps,geocoding,routing}`; `?status=N` makes one answer N).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisSettings } from '../../core/redis-settings.js';
import type { ServiceRoute } from '../../src/gateway/index.js';
import { ManualClock } from '../../src/clock.js';
import type { SqliteStore } from '../../src/control-plane/sqlite/index.js';
import { SERVICES } from '../../src/control-plane/types.js';
import { CidrSet } from '../../core/cidr.js';
import { json } from '../../src/http/reply.js';
import { silentLogging } from '../../src/observability/logger.js';
import { startWaymark, type Waymark } from '../../src/serve.js';

export const testRoutes: ServiceRoute[] = SERVICES.map((service) => ({
  path: `/test/${service}`,
  service,
  handler: (req) => {
    const status = Number(req.query.get('status') ?? 200);
    const delay = Number(req.query.get('delay') ?? 0);
    const reply = json(status, { service, ok: status < 400 });
    return delay > 0 ? new Promise((resolve) => setTimeout(() => resolve(reply), delay)) : reply;
  },
}));

export interface Account {
  cookie: string;
  csrfToken: string;
  orgId: string;
  email: string;
}

export interface TestServer extends Waymark {
  /** The embedded store, unless the server was started on Redis (`options.redis`). */
  store: SqliteStore;
  dataDir: string;
  clock: ManualClock;
  /** Signs up a new user (and organization) through the dashboard API. */
  signUp(email?: string, organization?: string): Promise<Account>;
  /** Creates a key through the dashboard API and returns its value. */
  createKey(account: Account, body?: Record<string, unknown>): Promise<{ id: string; value: string }>;
  /** Calls the dashboard API as the account, with its cookie and CSRF token. */
  dashboard(account: Account, method: string, path: string, body?: unknown): Promise<Response>;
}

let counter = 0;
/** The password of every account the tests sign up. */
export const PASSWORD = 'correct horse battery';

export async function startTestServer(
  options: {
    now?: string;
    services?: ServiceRoute[];
    dataDir?: string;
    publicUrl?: string;
    redis?: RedisSettings;
    trustedProxies?: CidrSet;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'waymark-test-'));
  const clock = new ManualClock(Date.parse(options.now ?? '2026-11-15T12:00:00Z'));
  const waymark = await startWaymark({
    dataDir,
    port: 0,
    clock,
    publicUrl: options.publicUrl,
    logging: silentLogging(),
    services: options.services ?? testRoutes,
    redis: options.redis ?? null,
    trustedProxies: options.trustedProxies ?? CidrSet.parse([]),
  });

  const dashboard = (account: Account | null, method: string, path: string, body?: unknown) =>
    fetch(`${waymark.url}/dashboard/api${path}`, {
      method,
      headers: {
        ...(account ? { cookie: account.cookie, 'x-csrf-token': account.csrfToken } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Signs up with `body` (and the tests' password); the account of the new session. */
  const signedUp = async (body: Record<string, unknown>): Promise<Account> => {
    const res = await dashboard(null, 'POST', '/signup', { ...body, password: PASSWORD });
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
    const answer = (await res.json()) as { csrfToken: string; organization: { id: string } };
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    return { cookie, csrfToken: answer.csrfToken, orgId: answer.organization.id, email: body.email as string };
  };

  return {
    ...waymark,
    store: waymark.store as SqliteStore,
    dataDir,
    clock,
    dashboard,
    signUp: (email = `user${process.pid}-${++counter}@example.com`, organization?: string) => signedUp({ email, organization }),
    async createKey(account, body = {}) {
      const res = await dashboard(account, 'POST', '/keys', { ...body, name: body.name ?? 'test key' });
      if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
      const created = (await res.json()) as { key: { id: string }; value: string };
      return { id: created.key.id, value: created.value };
    },
    async close() {
      await waymark.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
