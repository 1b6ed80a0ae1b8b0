/**
 * Issue 28's terrain benchmark: the DEM step of `waymark import --dem`, terrain and contour tiles,
 * the elevation API and the elevation store's reader.
 *
 * 1. Import: the shared SRTM tiles (Monaco, Andorra), 64 copies of them renamed onto an 8° × 8°
 *    grid of tiles, and Andorra's OSM with the shared tiles, each a `waymark import` of its own
 *    (bench/lib/measure-command.ts): the elevation step's time (from its progress line), the whole
 *    command's wall time, CPU and peak memory of the process, the store's size; the 64 copies also
 *    with `--memory 512M`.
 * 2. Tiles through `waymark serve` on Andorra with its DEM (tiles.ts): terrain PNG and WebP,
 *    contours, and as baselines raster and vector tiles of the same coordinates, cold and cached,
 *    one request at a time (p50, p95, p99).
 * 3. The API through `waymark serve` on the DEM-only import (an Enterprise key), under wrk in
 *    interleaved rounds beside a baseline of the same run: an empty vector tile, the cheapest
 *    metered maps request (the gateway and the tile cache). One point per request (1,000
 *    different points in turn), 512 points in a 10 KB URL (16 sets in turn), 512 samples along a
 *    path, and 512 points as a POST form. Usage must count every request.
 * 4. The reader in this process (reader.ts): `elevationAt` at random points; the tiles' grids of
 *    samples by `sampleGrid` beside `sampleGridPointwise`, its one-look-up-per-sample reference.
 *
 *   npm run bench:terrain [-- --duration 10 --rounds 3 --connections 16 --tile-rounds 3 --tiles-per-round 12]
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { paths } from '../../core/dataset-layout.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import type { ServerChild } from '../lib/child.js';
import { describeMeasurement, interference, LOAD_ARGS, loadSettings, measureServers, summarize } from '../lib/load.js';
import { measureCommand } from '../lib/measure-command.js';
import { describeSource, fmtInt, fmtMiB, fmtMs, fmtSeconds, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { seededRandom, writeWrkScript, type WrkRequest } from '../lib/request-list.js';
import { checkUsageCounted, usedUnits } from '../lib/usage-check.js';
import { createEnterpriseKey, startWaymarkServe, WAYMARK_BIN } from '../maps/waymark.js';
import { measureReader } from './reader.js';
import { measureTileLatencies } from './tiles.js';

const DEM = join(PACKAGE_ROOT, '..', 'shared', 'data', 'dem');
const ANDORRA_OSM = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'andorra.osm.pbf');
const TILES = ['N43E007.hgt.zip', 'N42E001.hgt.zip'];
/** The two tiles' boxes: the API's points are drawn inside them. */
const BOXES: [number, number, number, number][] = [
  [7, 43, 8, 44],
  [1, 42, 2, 43],
];

interface ImportRun {
  name: string;
  samples: number;
  elevationS: number;
  /** The process's peak resident memory while the elevation step ran. */
  elevationPeakBytes: number;
  wallS: number;
  cpuS: number | null;
  peakBytes: number;
  storeBytes: number;
}

/** `waymark import --dem input` (and `--osm osm`) into a fresh data folder, measured. */
async function measureImport(
  name: string,
  input: string,
  work: string,
  options: { memory?: string; osm?: string } = {},
): Promise<ImportRun & { dataDir: string }> {
  const { memory, osm } = options;
  const dataDir = join(work, `data-${name.replace(/\W+/g, '-')}`);
  let started: number | null = null;
  let finished: number | null = null;
  let samples = 0;
  let elevationPeakBytes = 0;
  const args = [
    WAYMARK_BIN,
    'import',
    '--dem',
    input,
    ...(osm ? ['--osm', osm] : []),
    '--data',
    dataDir,
    ...(memory ? ['--memory', memory] : []),
  ];
  console.error(`import: ${name}…`);
  const run = await measureCommand(process.execPath, args, {
    logPrefix: join(work, `import-${name.replace(/\W+/g, '-')}`),
    onSample(sample) {
      if (started !== null && finished === null) elevationPeakBytes = Math.max(elevationPeakBytes, sample.rssBytes);
    },
    onStderrLine(line, elapsedS) {
      if (line.startsWith('memory:')) started = elapsedS;
      const done = /^elevation: ([\d,]+)\/\1 samples/.exec(line);
      if (done) {
        finished = elapsedS;
        samples = Number(done[1]!.replaceAll(',', ''));
      }
    },
  });
  if (run.exitCode !== 0 || started === null || finished === null)
    throw new Error(`waymark import --dem ${input} failed; see ${run.stderrFile}`);
  return {
    name,
    dataDir,
    samples,
    elevationS: finished - started,
    elevationPeakBytes,
    wallS: run.wallS,
    cpuS: run.cpuS,
    peakBytes: run.maxProcessRssBytes ?? run.peakTreeRssBytes,
    storeBytes: statSync(paths.elevation(join(dataDir, 'current'))).size,
  };
}

/** `count` random `lat,lng` points with 6 decimals inside the tiles. */
function randomPoints(random: () => number, count: number): string[] {
  return Array.from({ length: count }, () => {
    const [west, south, east, north] = BOXES[Math.floor(random() * BOXES.length)]!;
    return `${(south + random() * (north - south)).toFixed(6)},${(west + random() * (east - west)).toFixed(6)}`;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...LOAD_ARGS,
      connections: { type: 'string', default: '16' },
      'tile-rounds': { type: 'string', default: '3' },
      'tiles-per-round': { type: 'string', default: '12' },
    },
  });
  const load = loadSettings(values);
  const source = describeSource();
  const work = mkdtempSync(join(tmpdir(), 'waymark-bench-terrain-'));
  let server: ServerChild | undefined;
  try {
    // 1. Import.
    const copies = join(work, 'copies');
    mkdirSync(copies);
    for (let i = 0; i < 64; i++) {
      const [lat, lon] = [40 + Math.floor(i / 8), i % 8];
      copyFileSync(join(DEM, TILES[i % 2]!), join(copies, `N${lat}E${String(lon).padStart(3, '0')}.hgt.zip`));
    }
    const shared = join(work, 'shared');
    mkdirSync(shared);
    for (const tile of TILES) copyFileSync(join(DEM, tile), join(shared, tile));
    const imports = [
      await measureImport('the shared tiles (2)', shared, work),
      await measureImport('64 copies', copies, work),
      await measureImport('64 copies, --memory 512M', copies, work, { memory: '512M' }),
      await measureImport("Andorra's OSM and the shared tiles", shared, work, { osm: ANDORRA_OSM }),
    ];
    const andorra = imports[3]!.dataDir;

    // 2. Tiles, on Andorra.
    const andorraKey = createEnterpriseKey(andorra, ['maps']);
    server = await startWaymarkServe(andorra, undefined, { name: 'waymark serve (Andorra)' });
    const tileRounds = Number(values['tile-rounds']);
    const tilesPerRound = Number(values['tiles-per-round']);
    const tileTable = await measureTileLatencies({
      base: `http://127.0.0.1:${server.port}/api/v1`,
      key: andorraKey,
      bounds: BOXES[1]!,
      zooms: [12, 14],
      rounds: tileRounds,
      perRound: tilesPerRound,
    });
    await server.stop();
    server = undefined;

    // 4. The reader, in this process.
    const store = ElevationStore.open(paths.elevation(join(andorra, 'current')));
    const random = seededRandom(28);
    const lookups = randomPoints(random, 1_000_000).map((point) => point.split(',').map(Number) as [number, number]);
    const readerSection = measureReader(store, lookups, 5);
    store.close();

    // 3. The API.
    // 2. The API.
    const { dataDir } = imports[0]!;
    const key = createEnterpriseKey(dataDir, ['maps']);
    server = await startWaymarkServe(dataDir, load.serverCpu);
    const base = `http://127.0.0.1:${server.port}`;
    const api = (query: string) => `/api/v1/elevation?${query}&key=${key}`;
    const script = (name: string, requests: (string | WrkRequest)[]) => {
      const file = join(work, `${name}.lua`);
      writeWrkScript(file, requests);
      return file;
    };
    const sets = Array.from({ length: 16 }, () => randomPoints(random, 512).join('|'));
    const targets = [
      {
        name: 'baseline: an empty vector tile (gateway, tile cache)',
        points: 0,
        path: `/api/v1/tiles/shortbread/14/8529/5975.pbf?key=${key}`,
      },
      {
        name: 'elevation: 1 point (1,000 points in turn)',
        points: 1,
        requests: randomPoints(random, 1000).map((point) => api(`locations=${point}`)),
      },
      {
        name: 'elevation: 512 points, GET (10 KB URL; 16 sets in turn)',
        points: 512,
        requests: sets.map((set) => api(`locations=${set}`)),
      },
      { name: 'elevation: 512 samples along a path across Andorra', points: 512, path: api('path=42.45,1.42|42.6,1.75&samples=512') },
      {
        name: 'elevation: 512 points, POST form (16 sets in turn)',
        points: 512,
        requests: sets.map((set) => ({
          method: 'POST',
          path: `/api/v1/elevation?key=${key}`,
          body: `locations=${set}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })),
      },
    ].map((target, i) => ({
      ...target,
      pid: server!.pid,
      child: server!,
      url: `${base}${target.path ?? ''}`,
      script: target.requests ? script(`requests-${i}`, target.requests) : undefined,
    }));
    for (const target of targets) {
      const first = target.requests?.[0];
      const response =
        typeof first === 'object'
          ? await fetch(`${base}${first.path}`, { method: first.method, headers: first.headers, body: first.body })
          : await fetch(first === undefined ? target.url : `${base}${first}`);
      if (response.status >= 300) throw new Error(`${target.name} answered ${response.status}: ${await response.text()}`);
    }
    const before = await usedUnits({ port: server.port, key, service: 'maps' });
    const measured = await measureServers('elevation API', targets, load);
    const counted = (await usedUnits({ port: server.port, key, service: 'maps' })) - before;
    const sent = measured.reduce((sum, m) => sum + m.sent, 0);
    const usage = checkUsageCounted(
      counted,
      { target: { name: 'all targets', pid: 0, url: '' }, runs: [], sent, wrkRuns: measured.reduce((sum, m) => sum + m.wrkRuns, 0) },
      load.connections,
    );

    publishReport('terrain', 'Terrain: the DEM import, terrain and contour tiles, the elevation API, the reader', source, [
      [
        '## The DEM step of `waymark import --dem`',
        '',
        "SRTM 3″ tiles; each import into a fresh data folder (the rest of a DEM-only import — empty tiles, glyphs, sprites, an empty geocoder index — takes the remaining wall time). Elevation step: from the `memory:` line to the `elevation: N/N samples` line, and the peak resident memory of the process (its threads included) sampled every 100 ms meanwhile; the whole import's peak: the largest process (GNU time).",
        '',
        markdownTable(
          [
            'input',
            'samples',
            'elevation step',
            'its peak memory',
            'import wall',
            'import CPU',
            'import peak memory',
            'store',
            'bytes/sample',
          ],
          imports.map((run) => [
            run.name,
            fmtInt(run.samples),
            fmtSeconds(run.elevationS),
            fmtMiB(run.elevationPeakBytes),
            fmtSeconds(run.wallS),
            run.cpuS === null ? '–' : fmtSeconds(run.cpuS),
            fmtMiB(run.peakBytes),
            fmtMiB(run.storeBytes),
            (run.storeBytes / run.samples).toFixed(2),
          ]),
          ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
      ],
      [
        '## The elevation API',
        '',
        `${describeMeasurement(load, 'target')} The points are random inside the two tiles.`,
        '',
        markdownTable(
          ['request', 'req/s', 'points/s', 'p50', 'p99', 'server CPU/request', 'req/s per round'],
          measured.map((m) => {
            const summary = summarize(m.runs);
            return [
              m.target.name,
              fmtInt(summary.rps),
              m.target.points === 0 ? '–' : fmtInt(summary.rps * m.target.points),
              fmtMs(summary.p50),
              fmtMs(summary.p99),
              summary.cpuPerReq === null ? '–' : fmtUs(summary.cpuPerReq),
              summary.perRound,
            ];
          }),
          ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
        ),
        '',
        interference(measured.flatMap((m) => m.runs)),
        '',
        `Metering: ${usage}.`,
      ],
      [
        '## Terrain and contour tiles',
        '',
        `\`waymark serve\` on Andorra's OSM with the shared tiles (default threads, not pinned). ${tileRounds} rounds; each draws ${tilesPerRound} new tiles per zoom at random in Andorra's SRTM cell (1°–2° E, 42°–43° N; Andorra's roads in its middle), none in a 2×2 metatile used before, and requests every kind of them in turn (the order turned each round), one request at a time: cold (first request: nothing cached, the tile drawn or read) then cached (again: the memory tile cache). Raster and vector tiles of the same coordinates are the same run's baselines; contour and vector tiles without a line are empty answers (204).`,
        '',
        tileTable,
      ],
      readerSection,
    ]);
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
