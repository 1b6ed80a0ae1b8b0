/**
 * `--dem` on every way an import runs: the command line (a DEM with an OSM extract), a BullMQ job
 * run by a worker, and the operator API's child process (a DEM alone); each dataset gets its
 * elevation store and lists it in its manifest, and a server switched to it opens it.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths, type DatasetManifest } from '../core/dataset-layout.js';
import { enqueueAndFollow } from '../data-pipeline/queue/client.js';
import type { ImportStatus } from '../data-pipeline/queue/job.js';
import { parseImportRequest } from '../src/operator/import-request.js';
import { silentLogging } from '../src/observability/logger.js';
import { startWaymark } from '../src/serve.js';
import { datasetElevation } from '../src/terrain/index.js';
import { waymark } from './helpers/cli.js';
import { MONACO_DEM } from './helpers/dem.js';
import { deleteKeys, queueFixture, SMALL_OSM, tempDir, TEST_PREFIX_ROOT } from './helpers/queue.js';
import { dataTest } from './helpers/shared-data.js';
import { within } from './helpers/waits.js';

const manifestOf = (datasetDir: string) => JSON.parse(readFileSync(paths.manifest(datasetDir), 'utf8')) as DatasetManifest;
const MONACO_COVERAGE = { bounds: [7, 43, 8, 44], resolution: [3, 3] };

test.after.always('no Redis key is left behind', async (t) => {
  t.is(await deleteKeys(`${TEST_PREFIX_ROOT}-*`), 0);
});

dataTest("waymark import --osm … --dem … adds the elevation store to the extract's dataset", [MONACO_DEM], async (t) => {
  const data = tempDir(t, 'terrain-cli');
  const run = await waymark(['import', '--data', data, '--osm', SMALL_OSM, '--dem', MONACO_DEM, '--json']);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /^elevation: 1,442,401\/1,442,401 samples \(100%\)$/m, 'a progress line like every phase');
  // The routing step reads the store: walking and cycling times along its slopes, driving as it is.
  t.regex(run.stderr, /^walking slopes: ([\d,]+)\/\1 segments \(100%\)$/m);
  t.regex(run.stderr, /^cycling slopes: ([\d,]+)\/\1 segments \(100%\)$/m);
  t.notRegex(run.stderr, /driving slopes/);
  const { dir } = JSON.parse(run.stdout) as { dir: string };
  const manifest = manifestOf(dir);
  t.deepEqual(manifest.inputs, ['osm:queue-small.osm', 'srtm:N43E007.hgt.zip']);
  t.like(manifest.elevation, MONACO_COVERAGE);
  t.deepEqual(manifest.routingModes, ['driving', 'walking', 'cycling'], 'the extract is imported as without a DEM');
  t.notDeepEqual(manifest.bounds, MONACO_COVERAGE.bounds, 'the dataset is bounded by its extract');
});

dataTest('a queued import job carries --dem to the worker', [MONACO_DEM], async (t) => {
  const { redis, startWorker } = queueFixture(t);
  const dataDir = tempDir(t, 'terrain-queue');
  startWorker(dataDir);
  const done = await enqueueAndFollow(
    redis,
    { dataDir, osm: [], world: false, dem: [MONACO_DEM] },
    { onEnqueued: () => {}, onProgress: () => {} },
  );
  t.is(done.status, 'completed', done.failedReason ?? '');
  t.deepEqual(done.dem, [MONACO_DEM]);
  t.like(manifestOf(done.result!.dir).elevation, MONACO_COVERAGE);
});

dataTest('the operator API imports a DEM alone, and the server opens its elevation store', [MONACO_DEM], async (t) => {
  t.deepEqual(parseImportRequest(Buffer.from(JSON.stringify({ dem: [MONACO_DEM] }))).dem, [MONACO_DEM]);
  t.throws(() => parseImportRequest(Buffer.from('{"dem": ["N43E007.hgt"]}')), {
    message: /"dem\[0\]" must be an absolute path on the server/,
  });
  const token = 'operator-token-for-terrain-tests-0123';
  const dataDir = tempDir(t, 'terrain-operator');
  const server = await startWaymark({ dataDir, port: 0, logging: silentLogging(), operator: { token, redis: null } });
  t.teardown(() => server.close());
  const call = async (method: string, path: string, body?: unknown) =>
    (await (
      await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json()) as ImportStatus;
  const started = await call('POST', '/operator/imports', { dem: [MONACO_DEM] });
  t.deepEqual(started.dem, [MONACO_DEM]);
  const done = await within('the import finishes', async () => {
    const status = await call('GET', `/operator/imports/${started.id}`);
    return status.status === 'active' ? undefined : status;
  });
  t.is(done.status, 'completed', done.failedReason ?? '');
  const dataset = await within('the server serves the new dataset', async () => {
    const current = server.datasets.current();
    return current?.id === done.result!.datasetId ? current : undefined;
  });
  const elevation = datasetElevation(dataset);
  t.truthy(elevation);
  t.is(elevation!.elevationAt(7, 43), 0, "the sea at the tile's south-west corner");
  t.like(dataset.manifest.elevation, MONACO_COVERAGE);
  t.is(join(dataset.dir, 'elevation.dem'), paths.elevation(dataset.dir));
});
