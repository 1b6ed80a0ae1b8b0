/**
 * Dataset transfer without a shared folder, against the real Redis: a worker's folder with an
 * imported dataset offers it (src/cluster/dataset-offer.ts), nodes' folders follow the offers
 * (src/cluster/dataset-follow.ts) — fetching, checking and switching, refusing a corrupt download, or
 * switching at once to a dataset they already have.
 */
import test from 'ava';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pino from 'pino';
import { paths } from '../core/dataset-layout.js';
import { runImport } from '../data-pipeline/index.js';
import type { RedisSettings } from '../core/redis-settings.js';
import { followDatasetOffers } from '../src/cluster/dataset-follow.js';
import { startDatasetOffers } from '../src/cluster/dataset-offer.js';
import { offerKey, type DatasetOffer } from '../src/cluster/dataset-transfer.js';
import { silentLogging } from '../src/observability/logger.js';
import { writeTestDataset } from './helpers/dataset.js';
import { deleteKeys, queueFixture, SMALL_OSM, tempDir, TEST_PREFIX_ROOT, type QueueFixture } from './helpers/queue.js';
import { within } from './helpers/waits.js';

const TOKEN = 'operator-token-for-tests-0123456789';
const quiet = silentLogging().logger;

/** The worker's data folder, with one dataset imported from OSM (tiles, geocoder, routing graphs). */
let workerDir: string;
let datasetId: string;

test.before(async () => {
  workerDir = mkdtempSync(join(tmpdir(), 'waymark-offering-'));
  datasetId = (await runImport({ dataDir: workerDir, osm: [SMALL_OSM], world: false }, () => {})).datasetId;
});

test.after.always('no Redis key is left behind', async (t) => {
  rmSync(workerDir, { recursive: true, force: true });
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function readOffer(redis: RedisSettings): Promise<DatasetOffer | undefined> {
  const client = new Redis(redis.url);
  try {
    const json = await client.get(offerKey(redis.prefix));
    return json === null ? undefined : (JSON.parse(json) as DatasetOffer);
  } finally {
    client.disconnect();
  }
}

async function writeOffer(redis: RedisSettings, offer: DatasetOffer): Promise<void> {
  const client = new Redis(redis.url);
  await client.set(offerKey(redis.prefix), JSON.stringify(offer));
  client.disconnect();
}

/** Starts offering the worker folder's dataset; resolves once it is offered. */
async function offering(fixture: QueueFixture): Promise<{ url: string; offer: DatasetOffer }> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const offers = await startDatasetOffers(fixture.redis, workerDir, { url, host: '127.0.0.1', token: TOKEN }, quiet);
  fixture.onEnd(() => offers.close());
  return { url, offer: await within('the dataset is offered', () => readOffer(fixture.redis)) };
}

/** Follows the offers into `dataDir`; `switched` resolves on the first switch, `errors` collects the logged errors (`msg: err.message`). */
async function following(fixture: QueueFixture, dataDir: string): Promise<{ switched: Promise<void>; errors: string[] }> {
  const errors: string[] = [];
  const logger = pino(
    { level: 'error' },
    {
      write(line: string) {
        const { msg, err } = JSON.parse(line) as { msg: string; err?: { message: string } };
        errors.push(err ? `${msg}: ${err.message}` : msg);
      },
    },
  );
  let onSwitched!: () => void;
  const switched = new Promise<void>((resolve) => (onSwitched = resolve));
  const follower = await followDatasetOffers(fixture.redis, dataDir, { token: TOKEN, logger, onSwitched });
  fixture.onEnd(() => follower.close());
  return { switched, errors };
}

/** Every file under `dir` by relative path, with its SHA-256. */
function fileHashes(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files[relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return files;
}

const currentOf = (dataDir: string) => readlinkSync(paths.current(dataDir));

test('a node with an empty folder fetches the offered dataset, checks it and switches to it', async (t) => {
  const nodeDir = tempDir(t, 'node');
  const fixture = queueFixture(t);
  const node = await following(fixture, nodeDir);
  await offering(fixture); // Offered after the node subscribed: it learns of it from the channel.
  await node.switched;
  t.deepEqual(node.errors, []);
  t.is(currentOf(nodeDir), join('datasets', datasetId));
  const fetched = fileHashes(paths.dataset(nodeDir, datasetId));
  t.true(
    Object.keys(fetched).some((file) => file.startsWith('routing/')),
    'subfolders came along',
  );
  t.deepEqual(fetched, fileHashes(paths.dataset(workerDir, datasetId)));
  t.deepEqual(readdirSync(paths.datasets(nodeDir)), [datasetId], 'no partial folder is left');
});

test('a download that does not match the offered SHA-256 is refused and the node keeps its dataset', async (t) => {
  const nodeDir = tempDir(t, 'node');
  const fixture = queueFixture(t);
  await writeTestDataset(nodeDir, 'old-dataset');
  const { offer } = await offering(fixture);
  await writeOffer(fixture.redis, { ...offer, sha256: '0'.repeat(64) });
  const node = await following(fixture, nodeDir);
  await within('the node logs the corrupt download', async () => (node.errors.length > 0 ? true : undefined));
  t.is(node.errors.length, 1);
  t.regex(node.errors[0]!, /^cannot fetch the offered dataset; still serving the previous one: the download of dataset \S+ is corrupt/);
  t.is(currentOf(nodeDir), join('datasets', 'old-dataset'));
  t.deepEqual(readdirSync(paths.datasets(nodeDir)), ['old-dataset'], 'neither the dataset nor a partial folder is left');
});

test('the offering server answers 401 without the operator token or with a wrong one, the tar with it', async (t) => {
  const fixture = queueFixture(t);
  const { url, offer } = await offering(fixture);
  t.is(offer.url, `${url}/datasets/${datasetId}.tar`);
  const get = (path: string, token?: string) =>
    fetch(`${url}${path}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  for (const token of [undefined, 'wrong-token-but-long-enough']) {
    const res = await get(`/datasets/${datasetId}.tar`, token);
    t.is(res.status, 401);
    t.like(await res.json(), { statusCode: 401 });
  }
  t.is((await get('/datasets/other-dataset.tar', TOKEN)).status, 404);
  const res = await get(`/datasets/${datasetId}.tar`, TOKEN);
  t.is(res.status, 200);
  const tar = Buffer.from(await res.arrayBuffer());
  t.is(tar.length, offer.bytes);
  t.is(createHash('sha256').update(tar).digest('hex'), offer.sha256, 'the tar served is the one hashed');
});

test('a node whose folder already has the offered dataset switches to it without downloading', async (t) => {
  const nodeDir = tempDir(t, 'node');
  const fixture = queueFixture(t);
  await writeTestDataset(nodeDir, 'old-dataset');
  cpSync(paths.dataset(workerDir, datasetId), paths.dataset(nodeDir, datasetId), { recursive: true });
  // Nothing listens there: a download would fail.
  await writeOffer(fixture.redis, {
    id: datasetId,
    sha256: 'a'.repeat(64),
    bytes: 1,
    url: 'http://127.0.0.1:9/nowhere.tar',
    at: new Date().toISOString(),
  });
  const node = await following(fixture, nodeDir);
  await node.switched;
  t.deepEqual(node.errors, []);
  t.is(currentOf(nodeDir), join('datasets', datasetId));
  t.true(existsSync(paths.dataset(nodeDir, 'old-dataset')), 'the previous dataset stays for requests still using it');
});
