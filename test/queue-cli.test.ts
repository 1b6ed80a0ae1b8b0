/**
 * The queue from the command line, as operators run it: `waymark import --queue` following a job to
 * completion and to failure, and `waymark worker` consuming the queue until SIGTERM.
 */
import test from 'ava';
import { Redis } from 'ioredis';
import { createInterface } from 'node:readline';
import { enqueueAndFollow } from '../data-pipeline/queue/client.js';
import { spawnWaymark, waymark } from './helpers/cli.js';
import { ownRedis } from './helpers/cluster.js';
import { corruptPbf, deleteKeys, queueFixture, SMALL_OSM, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { within } from './helpers/waits.js';

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

test.after.always('no Redis key is left behind', async (t) => {
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

test('import --queue and worker need WAYMARK_REDIS_URL (exit 2, one line)', async (t) => {
  const data = tempDir(t, 'queue-cli');
  for (const args of [['import', '--queue', '--osm', SMALL_OSM], ['worker']]) {
    const run = await waymark([...args, '--data', data]);
    t.is(run.code, 2, run.stderr);
    t.regex(run.stderr, /^waymark: [^\n]*needs WAYMARK_REDIS_URL[^\n]*\n$/);
  }
});

test('import --queue against a hung Redis (SIGSTOP) exits 1 within its 10 s, naming Redis, and queues nothing', async (t) => {
  const redis = await ownRedis(t, tempDir(t, 'queue-cli-redis'));
  const data = tempDir(t, 'queue-cli');
  // The command's own start (seconds on a loaded machine): one that exits at once, without a Redis URL.
  let started = performance.now();
  t.is((await waymark(['import', '--queue', '--osm', SMALL_OSM, '--data', data])).code, 2);
  const startMs = performance.now() - started;
  redis.pause();
  started = performance.now();
  let run: Awaited<ReturnType<typeof waymark>>;
  try {
    run = await waymark(['import', '--queue', '--osm', SMALL_OSM, '--data', data], {
      WAYMARK_REDIS_URL: redis.url,
      WAYMARK_REDIS_PREFIX: `${TEST_PREFIX_ROOT}-hung`,
    });
  } finally {
    redis.resume();
  }
  const ms = performance.now() - started;
  t.is(run.code, 1, run.stderr);
  t.regex(lastLine(run.stderr), /^waymark: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(WAYMARK_REDIS_URL\): no answer within 10 s/);
  t.true(ms - startMs < 10_000 + 3000, `exited after ${Math.round(ms)} ms, of which ${Math.round(startMs)} ms to start`);
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());
  t.deepEqual(await client.keys(`${TEST_PREFIX_ROOT}-hung:*`), [], 'nothing reached Redis');
});

test('import --queue follows a job to completion (exit 0) and to failure (exit 1, the reason on one line)', async (t) => {
  const { redis, startWorker } = queueFixture(t);
  const data = tempDir(t, 'queue-cli');
  startWorker(data);
  const env = { WAYMARK_REDIS_URL: redis.url, WAYMARK_REDIS_PREFIX: redis.prefix };

  const done = await waymark(['import', '--queue', '--osm', SMALL_OSM, '--data', data, '--json'], env);
  t.is(done.code, 0, done.stderr);
  const outcome = JSON.parse(done.stdout) as { id: string; status: string; result: { datasetId: string } };
  t.is(outcome.status, 'completed');
  t.regex(done.stderr, new RegExp(`Queued import job ${outcome.id}`));
  t.regex(done.stderr, /^[a-z][\w -]*: [\d,./]+/m, 'progress lines');

  const failed = await waymark(['import', '--queue', '--osm', corruptPbf(t), '--data', data], env);
  t.is(failed.code, 1, failed.stderr);
  t.is(failed.stdout, '');
  t.regex(lastLine(failed.stderr), /^waymark: import job [\w-]+ failed: .*broken\.osm\.pbf/);
  t.notRegex(failed.stderr, /\n\s+at /);
});

test('waymark worker runs queued imports, writes JSON lines, and stops on SIGTERM with exit 0', async (t) => {
  const { redis, onEnd } = queueFixture(t);
  const data = tempDir(t, 'queue-worker');
  const child = spawnWaymark(['worker', '--data', data], { WAYMARK_REDIS_URL: redis.url, WAYMARK_REDIS_PREFIX: redis.prefix });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onEnd(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    return exited;
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  await within(
    'the worker prints "worker waiting for import jobs"',
    async () => lines.some((line) => line.includes('worker waiting for import jobs')) || undefined,
  );

  const outcome = await enqueueAndFollow(
    redis,
    { dataDir: data, osm: [SMALL_OSM], world: false },
    { onEnqueued: () => {}, onProgress: () => {} },
  );
  t.is(outcome.status, 'completed', outcome.failedReason ?? '');

  child.kill('SIGTERM');
  t.is(await exited, 0);
  const logs = lines.map((line) => JSON.parse(line) as { msg?: string; jobId?: string; stopped?: boolean });
  t.true(logs.some((log) => log.msg === 'import completed' && log.jobId === outcome.id));
  t.true(logs.some((log) => log.msg?.startsWith('stopping')));
  t.true(logs.some((log) => log.stopped === true));
});
