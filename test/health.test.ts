/**
 * Liveness and readiness (issues 22, 34): `/healthz` answers while the process runs; `/readyz`, which
 * the image's health check uses, fails without a dataset (saying when the first import runs, as the
 * API's 503s do) and while the dataset `current` points at cannot be opened. Also the
 * addresses a node gives to people and other machines (the serve banner, `waymark status`).
 */
import test from 'ava';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { takeImportLock } from '../data-pipeline/import-lock.js';
import { progressFile } from '../data-pipeline/progress-file.js';
import { waymarkCommand } from '../src/cli/invocation.js';
import { listeningOn } from '../src/cli/serve.js';
import { advertisedUrl } from '../src/cluster/address.js';
import { startDatasetOffers } from '../src/cluster/dataset-offer.js';
import { silentLogging } from '../src/observability/logger.js';
import { cluster } from './helpers/cluster.js';
import { customer, serve, tempDataDir } from './helpers/fixtures.js';
import { writeTestDataset } from './helpers/dataset.js';
import { assertError, call } from './helpers/http.js';
import { queueFixture } from './helpers/queue.js';

/** Points `current` at `id` the way an import does (a new link renamed over the old one). */
function pointCurrentAt(dataDir: string, id: string): void {
  const next = `${paths.current(dataDir)}.next`;
  symlinkSync(join('datasets', id), next);
  renameSync(next, paths.current(dataDir));
}

test('/readyz is 503 without a dataset, saying when the first import runs, and so are the API answers; 200 once one is served', async (t) => {
  const dataDir = tempDataDir(t);
  const server = await serve(t, { dataDir });
  const { key } = await customer(server);
  const empty = await call(`${server.url}/readyz`);
  t.is(empty.status, 503, 'an empty node serves no map: not ready (the image calls it unhealthy)');
  t.deepEqual(empty.body, { status: 'unavailable', dataset: null, error: 'no dataset has been imported yet' });
  t.deepEqual((await call(`${server.url}/healthz`)).body, { status: 'ok' });
  const tiles = `${server.url}/api/v1/tiles/shortbread.json?key=${key.value}`;
  t.regex(assertError(t, await call(tiles), 503), /^no dataset has been imported yet: the operator must run `waymark import`/);

  // An import running on the folder holds its lock (this process, here).
  const release = takeImportLock(dataDir);
  const importing = await call(`${server.url}/readyz`);
  t.is(importing.status, 503);
  t.regex(
    importing.body.error,
    new RegExp(`^the first dataset is being imported \\(waymark import, pid ${process.pid}, running for \\d+ s\\)`),
  );
  const answer = await call(tiles);
  t.is(
    assertError(t, answer, 503),
    `${importing.body.error}; try again in a minute`,
    'the API says the import runs, not that the operator must run one',
  );
  t.is(answer.headers.get('retry-after'), '10');
  // `waymark import` writes its latest phase beside the lock: the words name it.
  const phases = progressFile(dataDir, () => {});
  phases.report({ phase: 'cutting tiles', done: 51, total: 100, unit: 'tiles' });
  t.regex((await call(`${server.url}/readyz`)).body.error, /, running for \d+ s; cutting tiles, 51 %\): maps, geocoding/);
  t.regex(
    assertError(t, await call(tiles), 503),
    /; cutting tiles, 51 %\): maps, geocoding, routing and elevation answer once it is done; try again in a minute$/,
  );
  phases.remove();
  t.false(existsSync(paths.importProgress(dataDir)));
  const good = await writeTestDataset(dataDir, 'first-1');
  release();
  server.datasets.reload();
  t.deepEqual((await call(`${server.url}/readyz`)).body, { status: 'ready', dataset: good.id });
});

test('/readyz is 503 while the dataset current points at cannot be opened, /healthz stays 200', async (t) => {
  const dataDir = tempDataDir(t);
  const server = await serve(t, { dataDir });

  const good = await writeTestDataset(dataDir, 'good-1');
  server.datasets.reload();
  const ready = await call(`${server.url}/readyz`);
  t.is(ready.status, 200);
  t.deepEqual(ready.body, { status: 'ready', dataset: good.id });
  t.is(ready.headers.get('cache-control'), 'no-store');

  // A dataset this Waymark cannot open, as after an import whose parser was missing from the image.
  mkdirSync(paths.dataset(dataDir, 'broken-2'), { recursive: true });
  writeFileSync(paths.manifest(paths.dataset(dataDir, 'broken-2')), JSON.stringify({ formatVersion: -1, id: 'broken-2' }));
  pointCurrentAt(dataDir, 'broken-2');
  server.datasets.reload();
  const broken = await call(`${server.url}/readyz`);
  t.is(broken.status, 503);
  t.is(broken.body.status, 'unavailable');
  t.is(broken.body.dataset, good.id, 'the previous dataset is still served');
  t.regex(broken.body.error, /^cannot open dataset broken-2: .*format version -1/);
  t.deepEqual((await call(`${server.url}/healthz`)).body, { status: 'ok' }, 'liveness does not depend on the dataset');

  pointCurrentAt(dataDir, good.id);
  server.datasets.reload();
  t.deepEqual((await call(`${server.url}/readyz`)).body, { status: 'ready', dataset: good.id }, 'ready again once current opens');
});

test('a node advertises WAYMARK_NODE_URL, else where it listens with every interface named by the machine', (t) => {
  t.is(advertisedUrl('0.0.0.0', 8080, {}, 'node-7'), 'http://node-7:8080');
  t.is(advertisedUrl('::', 8080, {}, 'node-7'), 'http://node-7:8080');
  t.is(advertisedUrl('127.0.0.1', 9000, {}, 'node-7'), 'http://127.0.0.1:9000', 'loopback only: reachable on this machine alone');
  t.is(advertisedUrl('10.0.0.5', 8080, {}, 'node-7'), 'http://10.0.0.5:8080');
  t.is(advertisedUrl('fd00::5', 8080, {}, 'node-7'), 'http://[fd00::5]:8080');
  t.is(advertisedUrl('0.0.0.0', 8080, { WAYMARK_NODE_URL: 'http://api-1:8080/' }, 'node-7'), 'http://api-1:8080');
});

test('the serve banner names the addresses that work, and the CLI form WAYMARK_CLI_HINT gives', (t) => {
  t.is(listeningOn('127.0.0.1', 8080, 'http://127.0.0.1:8080', {}), 'http://127.0.0.1:8080');
  t.regex(
    listeningOn('0.0.0.0', 8080, 'http://127.0.0.1:8080', {}),
    /^every interface, port 8080: http:\/\/127\.0\.0\.1:8080 on this machine, http:\/\/\S+:8080 from others$/,
  );
  t.is(
    listeningOn('0.0.0.0', 8080, 'http://127.0.0.1:8080', { WAYMARK_NODE_URL: 'http://maps-1.internal:8080' }),
    'every interface, port 8080: http://127.0.0.1:8080 on this machine, http://maps-1.internal:8080 from others',
  );
  const invocation = { script: '/app/bin/waymark.js', cwd: '/app', env: {} };
  t.is(
    waymarkCommand({ ...invocation, env: { WAYMARK_CLI_HINT: ' docker exec <container> waymark ' } }),
    'docker exec <container> waymark',
  );
  t.is(waymarkCommand(invocation), 'node bin/waymark.js', 'without it, the form this process was started with');
});

test('waymark status lists a node at WAYMARK_NODE_URL', async (t) => {
  const c = cluster(t, tempDataDir(t));
  c.env.WAYMARK_NODE_URL = 'http://maps-1.internal:8080';
  await c.startNode();
  const status = await c.cliJson(['status']);
  t.deepEqual(
    status.nodes.map((node: { url: string }) => node.url),
    ['http://maps-1.internal:8080'],
  );
});

test("a worker's dataset server answers /healthz without the token, and nothing else", async (t) => {
  const fixture = queueFixture(t);
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const url = `http://127.0.0.1:${port}`;
  const offers = await startDatasetOffers(
    fixture.redis,
    tempDataDir(t),
    { url, host: '127.0.0.1', token: 'operator-token-for-tests-0123456789' },
    silentLogging().logger,
  );
  fixture.onEnd(() => offers.close());
  const health = await call(`${url}/healthz`);
  t.is(health.status, 200);
  t.deepEqual(health.body, { status: 'ok' });
  t.is((await call(`${url}/healthz/x`)).status, 401);
  t.is((await call(`${url}/datasets/x.tar`)).status, 401);
});
