/**
 * The operator API (`/operator/imports`) on a real server: absent without a token, 401 for a wrong
 * one, 400 naming the field of a bad body, and imports that report progress and complete — in a
 * child process of the server (no Redis) and through the BullMQ queue and a worker (real Redis).
 */
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import type { ImportStatus } from '../data-pipeline/queue/job.js';
import { setting } from '../core/config.js';
import { silentLogging } from '../src/observability/logger.js';
import type { OperatorOptions } from '../src/operator/index.js';
import { startWaymark, type Waymark } from '../src/serve.js';
import { startImportWorker } from '../data-pipeline/queue/worker.js';
import { ownRedis } from './helpers/cluster.js';
import { corruptPbf, deleteKeys, queueFixture, SMALL_OSM, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { within } from './helpers/waits.js';

const TOKEN = 'operator-token-for-tests-0123456789';

interface OperatorServer extends Waymark {
  dataDir: string;
  call(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  /** Polls the import until it has finished. */
  finished(id: string): Promise<ImportStatus>;
}

async function operatorServer(
  t: ExecutionContext,
  operator: OperatorOptions,
  onEnd = (close: () => Promise<void>) => t.teardown(close),
): Promise<OperatorServer> {
  const dataDir = tempDir(t, 'operator');
  const server = await startWaymark({ dataDir, port: 0, logging: silentLogging(), operator });
  onEnd(() => server.close());
  const call: OperatorServer['call'] = async (method, path, { token = TOKEN, body } = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const finished = (id: string) =>
    within(`import ${id} finishes`, async () => {
      const { body } = await call('GET', `/operator/imports/${id}`);
      return body.status === 'completed' || body.status === 'failed' ? (body as ImportStatus) : undefined;
    });
  return { ...server, dataDir, call, finished };
}

const embedded: OperatorOptions = { token: TOKEN, redis: null };

test.after.always('no Redis key is left behind', async (t) => {
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

test('without a configured token every /operator/* path is 404, saying that WAYMARK_OPERATOR_TOKEN turns the API on', async (t) => {
  const server = await operatorServer(t, { token: undefined, redis: null });
  for (const [method, path] of [
    ['POST', '/operator/imports'],
    ['GET', '/operator/imports'],
    ['GET', '/operator/imports/x'],
    ['GET', '/operator'],
    ['DELETE', '/operator/anything/else'],
  ] as const) {
    const res = await server.call(method, path, { body: method === 'POST' ? { osm: [SMALL_OSM] } : undefined });
    t.is(res.status, 404);
    t.deepEqual(res.body, {
      statusCode: 404,
      error: 'Not Found',
      message: `no route ${method} ${path}: the operator API is off on this server; set WAYMARK_OPERATOR_TOKEN to turn it on (docs/OPERATIONS.md, "The operator API")`,
    });
  }
  const elsewhere = await server.call('GET', '/operatorx');
  t.is(elsewhere.status, 404);
  t.notRegex(elsewhere.body.message, /WAYMARK_OPERATOR_TOKEN/, 'only the operator paths mention it');
});

test('with a token, an unknown /operator/* path is the plain 404', async (t) => {
  const server = await operatorServer(t, embedded);
  const res = await server.call('GET', '/operator/nothing-here');
  t.is(res.status, 404);
  t.notRegex(res.body.message, /WAYMARK_OPERATOR_TOKEN|off/);
});

test('a missing or wrong token is 401, whatever the request', async (t) => {
  const server = await operatorServer(t, embedded);
  for (const token of [null, 'wrong-token-but-long-enough', `${TOKEN}x`]) {
    for (const [method, path] of [
      ['POST', '/operator/imports'],
      ['GET', '/operator/imports'],
      ['GET', '/operator/imports/x'],
    ] as const) {
      const res = await server.call(method, path, { token, body: method === 'POST' ? { osm: 'not even valid' } : undefined });
      t.is(res.status, 401, `${method} ${path} with ${token}`);
      t.like(res.body, { statusCode: 401, error: 'Unauthorized' });
      t.regex(res.headers.get('www-authenticate') ?? '', /^Bearer /);
    }
  }
  const customerKey = await server.call('GET', '/operator/imports', { token: 'wmk_notAnOperatorToken' });
  t.is(customerKey.status, 401);
});

test('a bad body is 400 naming the field', async (t) => {
  const server = await operatorServer(t, embedded);
  const cases: [unknown, RegExp][] = [
    ['{not json', /must be JSON/],
    [[SMALL_OSM], /JSON object/],
    [{}, /nothing to import/],
    [{ osm: SMALL_OSM }, /"osm" must be an array/],
    [{ wof: ['relative/wof'] }, /"wof\[0\]" must be an absolute path on the server, not/],
    [{ oa: [7] }, /"oa\[0\]"/],
    [{ geonames: 1 }, /"geonames" must be true or false/],
    [{ osm: ['relative/file.osm.pbf'] }, /"osm\[0\]" must be an absolute path/],
    [{ osm: [SMALL_OSM, 42] }, /"osm\[1\]"/],
    [{ osm: [SMALL_OSM], world: 'yes' }, /"world" must be true or false/],
    [{ osm: [], world: false }, /nothing to import/],
    [{ osm: [SMALL_OSM], region: 'monaco' }, /unknown field "region"/],
  ];
  for (const [body, message] of cases) {
    const res = await server.call('POST', '/operator/imports', { body });
    t.is(res.status, 400, JSON.stringify(body));
    t.like(res.body, { statusCode: 400, error: 'Bad Request' });
    t.regex(res.body.message, message);
  }
  t.is((await server.call('GET', '/operator/imports/no-such-import')).status, 404);
});

test('without Redis an import runs in a child process: 202, 409 while it runs, progress, completed, and the server switches', async (t) => {
  const server = await operatorServer(t, embedded);
  const started = await server.call('POST', '/operator/imports', { body: { osm: [SMALL_OSM] } });
  t.is(started.status, 202);
  t.like(started.body, { status: 'active', osm: [SMALL_OSM], world: false });
  t.is(started.headers.get('location'), `/operator/imports/${started.body.id}`);
  t.is(started.headers.get('access-control-allow-origin'), null, 'no CORS');

  const second = await server.call('POST', '/operator/imports', { body: { osm: [SMALL_OSM] } });
  t.is(second.status, 409);
  t.regex(second.body.message, new RegExp(started.body.id));

  const done = await server.finished(started.body.id);
  t.is(done.status, 'completed', done.failedReason ?? '');
  t.is(typeof done.progress?.phase, 'string');
  t.truthy(done.finishedAt);
  t.is(server.datasets.current()?.id, done.result!.datasetId);

  const failed = await server.finished((await server.call('POST', '/operator/imports', { body: { osm: [corruptPbf(t)] } })).body.id);
  t.is(failed.status, 'failed');
  t.regex(failed.failedReason ?? '', /broken\.osm\.pbf/);
  t.is(server.datasets.current()?.id, done.result!.datasetId, 'a failed import leaves the served dataset');

  const list = await server.call('GET', '/operator/imports');
  t.deepEqual(
    list.body.imports.map((i: ImportStatus) => [i.id, i.status]),
    [
      [failed.id, 'failed'],
      [done.id, 'completed'],
    ],
  );
});

test('with Redis an import is a BullMQ job run by a worker: 202 waiting, progress, completed, and the server switches', async (t) => {
  const { redis, startWorker, onEnd } = queueFixture(t);
  const server = await operatorServer(t, { token: TOKEN, redis }, onEnd);
  const started = await server.call('POST', '/operator/imports', { body: { osm: [SMALL_OSM] } });
  t.is(started.status, 202);
  t.like(started.body, { status: 'waiting', osm: [SMALL_OSM], progress: null, result: null });
  t.like((await server.call('GET', `/operator/imports/${started.body.id}`)).body, { id: started.body.id, status: 'waiting' });

  startWorker(server.dataDir);
  const done = await server.finished(started.body.id);
  t.is(done.status, 'completed', done.failedReason ?? '');
  t.is(typeof done.progress?.phase, 'string');
  t.truthy(done.createdAt);
  t.truthy(done.finishedAt);
  t.is(server.datasets.current()?.id, done.result!.datasetId);

  const list = await server.call('GET', '/operator/imports');
  t.deepEqual(
    list.body.imports.map((i: ImportStatus) => i.id),
    [done.id],
  );
});

test('with Redis unreachable the operator API answers 503', async (t) => {
  const server = await operatorServer(t, { token: TOKEN, redis: { url: 'redis://127.0.0.1:1', prefix: `${TEST_PREFIX_ROOT}-down` } });
  const res = await server.call('POST', '/operator/imports', { body: { osm: [SMALL_OSM] } });
  t.is(res.status, 503);
  t.regex(res.body.message, /import queue is unavailable: cannot reach Redis/);
});

/** The operator API's time limit (5 s unless WAYMARK_OPERATOR_TIMEOUT_MS says otherwise, as the tests' settings do): a request not answered within ten times it has hung. */
const ANSWER_MS = setting('operatorTimeoutMs');
const UUID = /:[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}/;

test('with Redis hung (SIGSTOP) an import request is 503 within its time limit — the first one (probing Redis) and one on a connected queue — and once Redis is back no job is queued and the dataset is unchanged', async (t) => {
  const redis = await ownRedis(t, tempDir(t, 'operator-redis'));
  const settings = { url: redis.url, prefix: `${TEST_PREFIX_ROOT}-hung` };
  const connected = await operatorServer(t, { token: TOKEN, redis: settings });
  const fresh = await operatorServer(t, { token: TOKEN, redis: settings });
  // A worker would import a job as soon as one is queued, and switch the servers to its dataset.
  const worker = startImportWorker(settings, connected.dataDir, silentLogging().logger);
  t.teardown(() => worker.close());
  t.deepEqual((await connected.call('GET', '/operator/imports')).body, { imports: [] }, 'the queue is connected');

  redis.pause();
  let answers: { status: number; ms: number; message: string }[];
  try {
    answers = await Promise.all(
      [connected, fresh].map(async (server) => {
        const started = performance.now();
        const res = await fetch(`${server.url}/operator/imports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ osm: [SMALL_OSM] }),
          signal: AbortSignal.timeout(10 * ANSWER_MS),
        });
        return { status: res.status, ms: performance.now() - started, message: ((await res.json()) as any).message as string };
      }),
    );
  } finally {
    redis.resume();
  }
  for (const answer of answers) {
    t.is(answer.status, 503);
    // The first request's probe or the queue's own call, whichever limit ends first.
    t.regex(
      answer.message,
      new RegExp(
        `^the import queue is unavailable: (cannot reach Redis at \\S+ \\(WAYMARK_REDIS_URL\\): no answer|Redis at \\S+ did not answer) within ${ANSWER_MS / 1000} s`,
      ),
    );
    // How soon is a benchmark's question (a loaded machine delays it): here, that the limit answered, not the fetch's own timeout.
    t.log(`answered after ${Math.round(answer.ms)} ms`);
  }

  // Answered on the connection the first request went out on, so after anything it had left for Redis.
  for (const server of [connected, fresh]) t.deepEqual((await server.call('GET', '/operator/imports')).body, { imports: [] });
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());
  const jobKeys = (await client.keys(`${settings.prefix}:waymark-import:*`)).filter((key) => UUID.test(key));
  t.deepEqual(jobKeys, [], 'no job, nor anything of one');
  t.is(connected.datasets.current(), null);
  t.is(fresh.datasets.current(), null);
});
