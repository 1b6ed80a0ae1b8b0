/**
 * Metered requests while the control-plane Redis hangs (issue 34), on a server over a Redis store:
 * a crowd of requests that need a new quota block, sent to a Redis stopped with SIGSTOP (it keeps
 * its connections and answers nothing), each get their 503 within the command time limit — not one
 * limit more per request ahead of it — and none of them is counted; a request whose client went away
 * before its answer is not counted either.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../src/http/errors.js';
import { json } from '../src/http/reply.js';
import type { Request } from '../src/http/request.js';
import type { ServiceRoute } from '../src/gateway/index.js';
import { ownRedis } from './helpers/cluster.js';
import { customer } from './helpers/fixtures.js';
import { REDIS_URL, tempDir, TEST_PREFIX_ROOT, deleteKeys } from './helpers/queue.js';
import { startTestServer, testRoutes } from './helpers/server.js';
import { within } from './helpers/waits.js';

/** The documented default (docs/OPERATIONS.md), read when a store opens its connection; the test configuration's is 20 s. */
const TIMEOUT_MS = 2000;
process.env.WAYMARK_REDIS_COMMAND_TIMEOUT_MS = String(TIMEOUT_MS);
/** On a node whose timers run late the limit is counted in time it could have read the reply: up to twice the limit in all. */
const BOUND_MS = 2 * TIMEOUT_MS;
/** How late a loaded test machine may answer on top of that. */
const SLACK_MS = 1500;

const heavy: ServiceRoute = {
  path: '/test/heavy',
  service: 'routing',
  units: (req: Request) => {
    const units = Number(req.query.get('units'));
    if (!Number.isInteger(units) || units < 1) throw new ApiError(400, 'units must be a positive whole number');
    return units;
  },
  handler: () => json(200, { ok: true }),
};

const prefix = () => `${TEST_PREFIX_ROOT}-hang-${randomBytes(3).toString('hex')}`;

test.after.always('no Redis key is left behind', async (t) => {
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

test('while Redis hangs, a crowd of requests needing a new block each get a 503 within the time limit, and none is counted', async (t) => {
  const redis = await ownRedis(t, tempDir(t, 'hang-redis'));
  const server = await startTestServer({ redis: { url: redis.url, prefix: prefix() }, services: [...testRoutes, heavy] });
  t.teardown(() => server.close());
  const { key } = await customer(server);
  const url = (units: number) => `${server.url}/api/v1/test/heavy?key=${key.value}&units=${units}`;
  t.is((await fetch(url(1))).status, 200, 'a first block, and the lease scripts loaded');

  redis.pause();
  let answers: { status: number; retryAfter: string | null; ms: number }[];
  try {
    // More units each than the block held: every one needs a grant, and all wait on the first.
    answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const started = performance.now();
        const res = await fetch(url(100), { signal: AbortSignal.timeout(60_000) });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
      }),
    );
  } finally {
    redis.resume();
  }
  t.log('answered after (ms):', answers.map((answer) => Math.round(answer.ms)).join(' '));
  for (const answer of answers) {
    t.like(answer, { status: 503, retryAfter: '1' });
    t.true(answer.ms < BOUND_MS + SLACK_MS, `answered after ${Math.round(answer.ms)} ms`);
  }
  const usage = (await (await fetch(`${server.url}/api/v1/usage/current?key=${key.value}`)).json()) as any;
  t.is(usage.services.routing.used, 1, 'only the request answered 200');
});

test('a metered request whose client went away before its answer is not counted', async (t) => {
  const settings = { url: REDIS_URL, prefix: prefix() };
  t.teardown(() => deleteKeys(`${settings.prefix}:*`)); // Registered first, so it runs after the server has closed.
  let started: () => void = () => {};
  let answered: () => void = () => {};
  const handling = new Promise<void>((resolve) => {
    started = resolve;
  });
  const handled = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const abandoned: ServiceRoute = {
    path: '/test/abandoned',
    service: 'maps',
    // Answers 200 once the server has seen its client go.
    handler: async (req) => {
      started();
      await within('the server sees the client go', async () => req.clientGone || undefined);
      answered(); // The gateway settles the reservation right after, before any other request is read.
      return json(200, { ok: true });
    },
  };
  const server = await startTestServer({ redis: settings, services: [...testRoutes, abandoned] });
  t.teardown(() => server.close());
  const { key } = await customer(server);

  const client = new AbortController();
  const gone = fetch(`${server.url}/api/v1/test/abandoned?key=${key.value}`, { signal: client.signal }).catch(() => 'aborted');
  await handling;
  client.abort();
  t.is(await gone, 'aborted');
  await handled;
  t.is((await fetch(`${server.url}/api/v1/test/maps?key=${key.value}`)).status, 200);
  const usage = (await (await fetch(`${server.url}/api/v1/usage/current?key=${key.value}`)).json()) as any;
  t.is(usage.services.maps.used, 1, 'only the request answered');
});
