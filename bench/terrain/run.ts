/**
 * Issue 28's terrain benchmark, the part of elevation: the DEM step of `waymark import --dem` and
 * the elevation API.
 *
 * 1. Import: the shared SRTM tiles (Monaco, Andorra) and 64 copies of them renamed onto an 8° × 8°
 *    grid of tiles, each a `waymark import --dem DIR` of its own (bench/lib/measure-command.ts):
 *    the elevation step's time (from its progress line), the whole command's wall time, CPU and
 *    peak memory of the process, the store's size; the 64 copies also with `--memory 512M`.
 * 2. The API through `waymark serve` (an Enterprise key), under wrk in interleaved rounds beside
 *    a baseline of the same run: an empty vector tile, the cheapest metered maps request (the
 *    gateway and the tile cache). One point per request (1,000 different points in turn), 512
 *    points in a 10 KB URL (16 sets in turn), 512 samples along a path, and 512 points as a POST
 *    form. Usage must count every request.
 * 3. The reader in this process: `elevationAt` at random points, `sampleGrid` of a 512 px
 *    web-mercator tile with a 1 px buffer.
 *
 *   npm run bench:terrain [-- --duration 10 --rounds 3 --connections 16]
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { paths } from '../../core/dataset-layout.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { tileAxes } from '../../core/terrain/sample-axes.js';
import type { ServerChild } from '../lib/child.js';
import { describeMeasurement, interference, LOAD_ARGS, loadSettings, measureServers, summarize } from '../lib/load.js';
import { measureCommand } from '../lib/measure-command.js';
import { describeSource, fmtInt, fmtMiB, fmtMs, fmtSeconds, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { seededRandom, writeWrkScript, type WrkRequest } from '../lib/request-list.js';
import { checkUsageCounted, usedUnits } from '../lib/usage-check.js';
import { createEnterpriseKey, startWaymarkServe, WAYMARK_BIN } from '../maps/waymark.js';

const DEM = join(PACKAGE_ROOT, '..', 'shared', 'data', 'dem');
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

/** `waymark import --dem input` into a fresh data folder, measured. */
async function measureImport(name: string, input: string, work: string, memory?: string): Promise<ImportRun & { dataDir: string }> {
  const dataDir = join(work, `data-${name.replace(/\W+/g, '-')}`);
  let started: number | null = null;
  let finished: number | null = null;
  let samples = 0;
  let elevationPeakBytes = 0;
  const args = [WAYMARK_BIN, 'import', '--dem', input, '--data', dataDir, ...(memory ? ['--memory', memory] : [])];
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
  const { values } = parseArgs({ options: { ...LOAD_ARGS, connections: { type: 'string', default: '16' } } });
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
      await measureImport('64 copies, --memory 512M', copies, work, '512M'),
    ];

    // 3. The reader, in this process.
    const store = ElevationStore.open(paths.elevation(join(imports[0]!.dataDir, 'current')));
    const random = seededRandom(28);
    const lookups = randomPoints(random, 1_000_000).map((point) => point.split(',').map(Number) as [number, number]);
    for (const [lat, lon] of lookups.slice(0, 100_000)) store.elevationAt(lon, lat);
    let started = performance.now();
    for (const [lat, lon] of lookups) store.elevationAt(lon, lat);
    const perLookupMs = (performance.now() - started) / lookups.length;
    const { lons, lats } = tileAxes(12, 2132, 1493, 512, 1);
    store.sampleGrid(lons, lats);
    started = performance.now();
    for (let i = 0; i < 20; i++) store.sampleGrid(lons, lats);
    const perGridMs = (performance.now() - started) / 20;
    store.close();

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

    publishReport('terrain', 'Terrain: the DEM import and the elevation API', source, [
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
        '## The reader (core/terrain/elevation-store.ts), in process',
        '',
        `\`elevationAt\` at 1,000,000 random points of the two tiles (blocks cached): ${(perLookupMs * 1e6).toFixed(0)} ns a point. ` +
          `\`sampleGrid\` of a 512 px web-mercator tile with a 1 px buffer (514², z12 over Monaco): ${fmtMs(perGridMs)}.`,
      ],
    ]);
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
