/**
 * Import jobs on BullMQ against the real Redis: progress events and completion, the server switching
 * to the finished dataset, a corrupt input failing once with a clear reason and the served dataset
 * untouched, and workers refusing jobs of another data folder.
 */
import test from 'ava';
import { Queue, type Job } from 'bullmq';
import { mkdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { paths } from '../core/dataset-layout.js';
import { enqueueAndFollow, ImportQueue } from '../data-pipeline/queue/client.js';
import { FolderLock } from '../data-pipeline/queue/folder-lock.js';
import type { ImportProgress } from '../data-pipeline/queue/job.js';
import type { RedisSettings } from '../core/redis-settings.js';
import { redisConnection } from '../data-pipeline/queue/connection.js';
import { IMPORT_QUEUE_NAME } from '../data-pipeline/queue/settings.js';
import { corruptPbf, deleteKeys, queueFixture, SMALL_OSM, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { WAIT_CEILING_MS, within } from './helpers/waits.js';
import { ownRedis } from './helpers/cluster.js';
import { AddTooLate, REPLY_MARGIN_MS } from '../data-pipeline/queue/add-before.js';
import { Redis } from 'ioredis';
import { startTestServer } from './helpers/server.js';

const quiet = { onEnqueued: () => {}, onProgress: () => {} };

test.after.always('no Redis key is left behind', async (t) => {
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

test('a queued import reports progress and completes; the server switches to it; a corrupt input fails once and changes nothing', async (t) => {
  const { redis, startWorker, onEnd } = queueFixture(t);
  const dataDir = tempDir(t, 'queue');
  const server = await startTestServer({ dataDir });
  onEnd(() => server.close());
  startWorker(dataDir);

  const progress: ImportProgress[] = [];
  let enqueuedAs: string | undefined;
  const done = await enqueueAndFollow(
    redis,
    { dataDir, osm: [SMALL_OSM], world: false },
    {
      onEnqueued: (id) => void (enqueuedAs = id),
      onProgress: (report) => void progress.push(report),
    },
  );
  t.is(done.status, 'completed', done.failedReason ?? '');
  t.is(enqueuedAs, done.id);
  t.true(progress.length > 0, 'progress events arrived through QueueEvents');
  t.true(progress.every((p) => typeof p.phase === 'string' && typeof p.done === 'number'));
  t.truthy(done.result?.datasetId);
  t.is(server.datasets.current()?.id, done.result!.datasetId, 'the server serves the new dataset as soon as the job completes');
  const served = readlinkSync(paths.current(dataDir));

  const failed = await enqueueAndFollow(redis, { dataDir, osm: [corruptPbf(t)], world: false }, quiet);
  t.is(failed.status, 'failed');
  t.is(failed.attempts, 1, 'bad input is not retried');
  t.regex(failed.failedReason ?? '', /broken\.osm\.pbf/, 'the reason names the input');
  t.notRegex(failed.failedReason ?? '', /\n/, 'the reason is one line');
  t.is(failed.result, null);
  const queue = new ImportQueue(redis, () => {});
  onEnd(() => queue.close());
  const job = await queue.status(failed.id, dataDir);
  t.is(job?.status, 'failed');
  t.is(server.datasets.current()?.id, done.result!.datasetId, 'the served dataset is untouched');
  t.is(readlinkSync(paths.current(dataDir)), served);
});

/** While `holdLock(dataDir, work)` holds a lock of the data folder, a queued job is delayed (no attempt used); once free, it runs. */
type HoldLock = (dataDir: string, redis: RedisSettings, work: () => Promise<void>) => Promise<void>;

const waitsForTheLock = test.macro(async (t, holdLock: HoldLock) => {
  const { redis, startWorker, onEnd } = queueFixture(t);
  const dataDir = tempDir(t, 'queue-locked');
  startWorker(dataDir);
  const queue = new Queue(IMPORT_QUEUE_NAME, { connection: redisConnection(redis), prefix: redis.prefix });
  onEnd(() => queue.close());

  let id: string | undefined;
  let following: ReturnType<typeof enqueueAndFollow> | undefined;
  let delayed: Job | undefined;
  await holdLock(dataDir, redis, async () => {
    following = enqueueAndFollow(
      redis,
      { dataDir, osm: [SMALL_OSM], world: false },
      { onEnqueued: (jobId) => void (id = jobId), onProgress: () => {} },
    );
    delayed = await within('the job is delayed while the lock is held', async () => {
      const job = id === undefined ? undefined : await queue.getJob(id);
      return job && (await job.getState()) === 'delayed' ? job : undefined;
    });
  });
  t.is(delayed!.attemptsMade, 0, 'waiting for the lock costs no attempt');
  await delayed!.promote();
  const outcome = await following!;
  t.is(outcome.status, 'completed', outcome.failedReason ?? '');
});

test(
  'a job for a data folder whose pipeline import lock a live import holds is delayed, then runs',
  waitsForTheLock,
  async (dataDir, _redis, work) => {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(paths.importLock(dataDir), String(process.pid)); // A live import: this process.
    await work();
    rmSync(paths.importLock(dataDir));
  },
);

test(
  'a job for a data folder another worker imports into (Redis folder lock, e.g. on another machine) is delayed, then runs',
  waitsForTheLock,
  async (dataDir, redis, work) => {
    const lock = new FolderLock(redis, dataDir);
    try {
      if ((await lock.acquire('import-on-another-machine')) !== null) throw new Error('the folder lock is taken');
      await lock.hold('import-on-another-machine', work);
    } finally {
      await lock.close();
    }
  },
);

test('a worker fails jobs for another data folder, without retrying, and says which worker to run', async (t) => {
  const { redis, startWorker } = queueFixture(t);
  startWorker(tempDir(t, 'worker-a'));
  let attempts = 0;
  const other = tempDir(t, 'worker-b');
  const outcome = await enqueueAndFollow(
    redis,
    { dataDir: other, osm: [SMALL_OSM], world: false },
    {
      onEnqueued: () => {},
      onProgress: () => void attempts++,
    },
  );
  t.is(outcome.status, 'failed');
  t.regex(outcome.failedReason ?? '', new RegExp(`imports into ${other}.*WAYMARK_REDIS_PREFIX`));
  t.is(attempts, 0);
});

test('enqueueing with Redis unreachable fails with one clear line', async (t) => {
  const error = await t.throwsAsync(
    enqueueAndFollow(
      { url: 'redis://127.0.0.1:1', prefix: `${TEST_PREFIX_ROOT}-unreachable` },
      { dataDir: '/nowhere', osm: [SMALL_OSM], world: false },
      quiet,
    ),
  );
  t.regex(error!.message, /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
});

test('an add Redis runs only after its caller gave up is refused (no job), one in time goes through', async (t) => {
  const redis = await ownRedis(t, tempDir(t, 'queue-redis'));
  const settings = { url: redis.url, prefix: `${TEST_PREFIX_ROOT}-late` };
  const dataDir = tempDir(t, 'queue-late');
  const queue = new ImportQueue(settings, () => {});
  t.teardown(() => queue.close());
  t.deepEqual(await queue.recent(dataDir, 10), [], 'the queue is connected');
  const control = new Redis(redis.url);
  t.teardown(() => control.disconnect());

  // Writes (the add's MULTI) wait while Redis is paused for them, as on a hung Redis; TIME, a read, is answered.
  await control.call('CLIENT', 'PAUSE', String(WAIT_CEILING_MS), 'WRITE');
  const answerBy = performance.now() + REPLY_MARGIN_MS + 200;
  const adding = queue.enqueue({ dataDir, osm: [SMALL_OSM], world: false }, answerBy);
  adding.catch(() => {});
  await within(
    'the add waits in Redis',
    async () => / cmd=(eval|evalsha|exec) /.test(String(await control.call('CLIENT', 'LIST'))) || undefined,
  );
  await within('its caller gives up', async () => performance.now() > answerBy || undefined);
  await control.call('CLIENT', 'UNPAUSE');
  const refused = await t.throwsAsync(adding, { instanceOf: AddTooLate });
  t.deepEqual(await queue.recent(dataDir, 10), [], 'no job');
  const id = /import job (\S+) in time/.exec(refused.message)![1]!;
  t.is(await queue.status(id, dataDir), null, 'its id names no import (a placeholder holds it)');
  t.is(await control.hget(`${settings.prefix}:waymark-import:${id}`, 'refused'), 'added after its caller had given up');

  const job = await queue.enqueue({ dataDir, osm: [SMALL_OSM], world: false }, performance.now() + 5000);
  t.like(await queue.status(job.id!, dataDir), { id: job.id, status: 'waiting', osm: [SMALL_OSM] });
});
