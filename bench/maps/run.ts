/**
 * Issue 3's maps benchmark, in one run:
 * (1) import time and peak memory of `waymark import --osm` (OSM only, fresh data folder) against
 *     tilemaker with its OpenMapTiles example config, on the Monaco, Andorra and Heidelberg
 *     extracts, with the tile count and size of each MBTiles;
 * (2) vector tile throughput and latency of `waymark serve` (the full gateway: key, quota, usage,
 *     access log) against tileserver-gl-light serving the same MBTiles file, with wrk cycling
 *     through a fixed shuffled list of existing z10–14 tiles; both pinned to one CPU, wrk to another.
 *
 * (3) one hot tile, the biggest z14 one (issue 12): bare uWebSockets.js sending it from memory, and
 *     `waymark serve` with and without its tile cache (and a baseline checkout's, with --baseline),
 *     side by side (hot-tile.ts).
 *
 *   npm run bench:maps [-- --import-rounds 3 --serve heidelberg --duration 10 --warmup 2 --connections 64 --rounds 3 --tiles 5000]
 *   npm run bench:maps -- --extracts heidelberg --import-rounds 1 --hot-tile-only --baseline ../waymark-before
 *
 * Timing never fails the run; a wrong answer (a failed import, a tile not answered 200 with the
 * stored bytes, usage not counted) does.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ServerChild } from '../lib/child.js';
import { describeMeasurement, interference, measureServers, LOAD_ARGS, loadSettings, summarize, type Target } from '../lib/load.js';
import { gnuTimeAvailable } from '../lib/measure-command.js';
import { checkRunSettings } from '../lib/settings-check.js';
import { describeSource, fmtInt, fmtMiB, fmtMs, fmtPct, fmtSeconds, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { checkUsageCounted, usedUnits, type Metered } from '../lib/usage-check.js';
import { hotTileSection } from './hot-tile.js';
import { aggregate, compareImport, type ImportComparison, type ImportRuns } from './imports.js';
import { tileBytes } from './mbtiles.js';
import { ACCEPT_GZIP, BENCH_ZOOMS, benchmarkTiles, checkRefusedWithoutKey, checkTileAnswers, tileKey } from './tile-load.js';
import { writeWrkScript } from '../lib/request-list.js';
import { prepareTilemaker, type TilemakerSetup } from './tilemaker.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { startTileserver, tileserverPathPrefix, tileserverVersion } from './tileserver.js';
import { createEnterpriseKey, importedMbtiles, importUnavailable, startWaymarkServe, TILE_PATH_PREFIX, TILE_SERVICE } from './waymark.js';
import { runBenchmark } from '../lib/run.js';

/** The OSM extracts next to the checkout, as the tests use them. */
const OSM_DIR = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm');

const { values: args } = parseArgs({
  options: {
    ...LOAD_ARGS,
    /** Extracts (in OSM_DIR or --osm-dir) to import, comma-separated. */
    extracts: { type: 'string', default: 'monaco,andorra,heidelberg' },
    'osm-dir': { type: 'string', default: OSM_DIR },
    /** The extract whose Waymark dataset both servers serve in part 2. */
    serve: { type: 'string', default: 'heidelberg' },
    /** Imports of each extract by each tool. */
    'import-rounds': { type: 'string', default: '3' },
    /** At most this many distinct tiles in the request list. */
    tiles: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '3' },
    /** Only part 3 after the imports (the hot tile), not part 2's comparison with tileserver-gl-light. */
    'hot-tile-only': { type: 'boolean', default: false },
    /** A built checkout (e.g. a worktree at the commit before a change) whose `waymark serve` part 3 measures too. */
    baseline: { type: 'string' },
  },
});
const load = loadSettings(args);
const importRounds = Number(args['import-rounds']);
/** Imports take seconds: a shorter wait for quiet than before each load scenario. */
const importQuietWaitMs = Math.min(load.quietWaitMs, 30_000);
const tileLimit = Number(args.tiles);
const seed = Number(args.seed);
const extracts = args.extracts
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);

const positive = {
  duration: load.durationS,
  connections: load.connections,
  rounds: load.rounds,
  'import-rounds': importRounds,
  tiles: tileLimit,
};
if (!extracts.includes(args.serve)) {
  console.error(`--serve ${args.serve} must be one of the imported --extracts (${extracts.join(', ')})`);
  process.exit(2);
}
checkRunSettings(positive, load, seed);

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
// Before anything runs: src/ may change while the benchmark runs.
const source = describeSource();
const children: ServerChild[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-maps-'));

// ---- part 1: imports ----

function importRow(extract: string, tool: string, result: ImportRuns, vsTilemaker: string): string[] {
  const failed = result.failure ? `FAILED (${result.failure.split('\n')[0]})` : null;
  const na = (value: number | null, fmt: (n: number) => string) => (value === null ? 'n/a' : fmt(value));
  const m = result.runs.length ? aggregate(result.runs) : null;
  const zooms = result.mbtiles?.perZoom.length ? `${result.mbtiles.perZoom[0]![0]}–${result.mbtiles.perZoom.at(-1)![0]}` : 'n/a';
  return [
    extract,
    tool,
    failed ?? na(m?.wallS ?? null, fmtSeconds),
    result.runs.map((r) => r.wallS.toFixed(2)).join(' / ') || 'n/a',
    na(m?.cpuS ?? null, fmtSeconds),
    na(m?.peakTreeRssBytes ?? null, fmtMiB),
    na(m?.maxProcessRssBytes ?? null, fmtMiB),
    na(result.mbtiles?.tiles ?? null, fmtInt),
    zooms,
    na(result.mbtiles?.bytes ?? null, fmtMiB),
    vsTilemaker,
  ];
}

/** Waymark's median wall (or CPU) time over tilemaker's, or why there is none. */
function timeRatio(c: ImportComparison, figure: 'wallS' | 'cpuS'): number | string {
  if (!c.waymark || c.waymark.failure) return 'Waymark failed';
  if (c.tilemaker.failure) return 'tilemaker failed';
  const [waymark, tilemaker] = [aggregate(c.waymark.runs)[figure], aggregate(c.tilemaker.runs)[figure]];
  return waymark === null || tilemaker === null ? 'n/a' : waymark / tilemaker;
}

const fmtRatio = (ratio: number | string) => (typeof ratio === 'number' ? `${ratio.toFixed(2)}×` : ratio);

function ratioLine(comparisons: ImportComparison[], figure: 'wallS' | 'cpuS', title: string): string {
  const ratios = comparisons.map((c) => timeRatio(c, figure));
  return (
    `- ${title}: ` +
    comparisons.map((c, i) => `${c.extract} ${fmtRatio(ratios[i]!)}`).join(', ') +
    `: ${verdict(ratios.every((r) => typeof r === 'number' && r <= 1))}`
  );
}

function importSection(comparisons: ImportComparison[], tilemaker: TilemakerSetup, waymarkUnavailable: string | null): string[] {
  const rows = comparisons.flatMap((c) => {
    const extract = `${c.extract} (${fmtMiB(c.inputBytes)})`;
    const tilemakerRow = importRow(extract, tilemaker.version, c.tilemaker, '');
    if (!c.waymark) return [tilemakerRow];
    return [tilemakerRow, importRow(extract, 'waymark import --osm', c.waymark, fmtRatio(timeRatio(c, 'wallS')))];
  });
  const table = markdownTable(
    [
      'Extract (.osm.pbf size)',
      'Importer',
      'wall time',
      'wall time per round (s)',
      'CPU time (user+sys)',
      'peak RSS, process tree',
      'peak RSS, largest process',
      'tiles',
      'zooms',
      'MBTiles size',
      'time vs tilemaker',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const aims = waymarkUnavailable
    ? [`- Import time vs tilemaker (aim: no slower): not measured: ${waymarkUnavailable}: MISS`]
    : [
        ratioLine(comparisons, 'wallS', 'Waymark / tilemaker import wall time (aim: no slower, ≤ 1.00× on every extract)'),
        ...(gnuTimeAvailable()
          ? [ratioLine(comparisons, 'cpuS', 'The same in CPU time (steadier when other jobs share the machine; informative)')]
          : []),
      ];
  const busy = comparisons.reduce((n, c) => n + c.tilemaker.busyStarts + (c.waymark?.busyStarts ?? 0), 0);
  return [
    '## Import: waymark import vs tilemaker',
    '',
    `tilemaker: ${tilemaker.version}, the Debian package's OpenMapTiles example config and Lua profile, z0–14. ` +
      `Its shapefile layers were removed from the copy because their files are not on this machine: ` +
      `${tilemaker.removedLayers.map((l) => `\`${l.layer}\` (${l.source})`).join(', ')}. ` +
      'Waymark: `waymark import --osm FILE --data DIR` (OSM only, no `--world`) into a fresh data folder. ' +
      `${importRounds} round(s), tilemaker then Waymark in each, every run after waiting up to ${importQuietWaitMs / 1000} s for an idle machine ` +
      `(${busy === 0 ? 'it always was' : `${busy} run(s) started with the machine still busy`}); neither is pinned (both may use every core). ` +
      'Wall and CPU time: median over the rounds; memory: highest over the rounds; tiles and size: last run. ' +
      'Peak RSS, process tree: the largest sum of the resident sets of the command and all its descendants ' +
      '(osmium included), sampled from /proc every 100 ms. ' +
      (gnuTimeAvailable()
        ? 'Peak RSS, largest process, and CPU time: GNU time (`/usr/bin/time`), exact ' +
          '(the kernel high-water mark of the largest single process; CPU of the whole tree).'
        : 'GNU time is not installed: no CPU time nor per-process high-water mark.'),
    '',
    table,
    '',
    ...aims,
    ...comparisons.filter((c) => c.waymark?.failure).map((c) => `- waymark import of ${c.extract} failed: ${c.waymark!.failure}`),
    ...comparisons.filter((c) => c.tilemaker.failure).map((c) => `- tilemaker on ${c.extract} failed: ${c.tilemaker.failure}`),
  ];
}

// ---- part 2: tile serving ----

interface TileTarget extends Target {
  child: ServerChild;
  metered?: Metered;
}

async function tileSection(comparison: ImportComparison, dataDir: string, key: string): Promise<string[]> {
  const heading = `## Tile serving: waymark serve vs ${tileserverVersion()}, ${comparison.extract} dataset`;
  const mbtiles = realpathSync(importedMbtiles(dataDir));
  const tiles = benchmarkTiles(mbtiles, tileLimit, seed);
  if (tiles.length === 0) return [heading, '', `Not measured: the archive has no tiles at z${BENCH_ZOOMS.min}–${BENCH_ZOOMS.max}.`];
  const stored = tileBytes(mbtiles, tiles);

  const waymark = await startWaymarkServe(dataDir, load.serverCpu);
  children.push(waymark);
  const tileserver = await startTileserver(mbtiles, workDir, load.serverCpu);
  children.push(tileserver);
  const waymarkPath = (t: string) => `${TILE_PATH_PREFIX}${t}.pbf?key=${key}`;
  const tileserverPath = (t: string) => `${tileserverPathPrefix}${t}.pbf`;
  const base = (c: ServerChild) => `http://127.0.0.1:${c.port}`;

  console.error(`checking that both servers answer all ${tiles.length} tiles with the stored bytes…`);
  await checkRefusedWithoutKey('waymark serve', `${base(waymark)}${TILE_PATH_PREFIX}${tileKey(tiles[0]!)}.pbf`);
  const waymarkCheck = await checkTileAnswers('waymark serve', (c) => base(waymark) + waymarkPath(tileKey(c)), tiles, stored);
  const tileserverCheck = await checkTileAnswers(tileserver.name, (c) => base(tileserver) + tileserverPath(tileKey(c)), tiles, stored);

  const script = (name: string, pathOf: (t: string) => string) => {
    const file = join(workDir, `${name}.lua`);
    writeWrkScript(
      file,
      tiles.map((c) => pathOf(tileKey(c))),
    );
    return file;
  };
  const metered: Metered = { port: waymark.port, key, service: TILE_SERVICE };
  const targets: TileTarget[] = [
    {
      name: 'waymark serve (gateway: ?key=, quota, usage, access log)',
      child: waymark,
      pid: waymark.pid,
      url: base(waymark) + waymarkPath(tileKey(tiles[0]!)),
      headers: ACCEPT_GZIP,
      script: script('waymark', waymarkPath),
      metered,
    },
    {
      name: tileserver.name,
      child: tileserver,
      pid: tileserver.pid,
      url: base(tileserver) + tileserverPath(tileKey(tiles[0]!)),
      headers: ACCEPT_GZIP,
      script: script('tileserver', tileserverPath),
    },
  ];
  const usageBefore = await usedUnits(metered);

  const measured = await measureServers('tile serving', targets, load, `, ${tiles.length} distinct tiles`);
  const usageLine = checkUsageCounted((await usedUnits(metered)) - usageBefore, measured[0]!, load.connections);

  const [waymarkRow, tileserverRow] = measured.map((m) => summarize(m.runs)) as [
    ReturnType<typeof summarize>,
    ReturnType<typeof summarize>,
  ];
  const table = markdownTable(
    ['Server', 'tiles/s', 'p50', 'p99', 'tiles/s vs tileserver-gl-light', 'server CPU busy', 'server CPU per tile', 'tiles/s per round'],
    measured.map((m) => {
      const r = summarize(m.runs);
      return [
        m.target.name,
        fmtInt(r.rps),
        fmtMs(r.p50),
        fmtMs(r.p99),
        `${(r.rps / tileserverRow.rps).toFixed(2)}×`,
        r.cpuUse === null ? 'n/a' : fmtPct(r.cpuUse),
        r.cpuPerReq === null ? 'n/a' : fmtUs(r.cpuPerReq),
        r.perRound,
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const ratio = waymarkRow.rps / tileserverRow.rps;
  const aims = [`- Waymark / tileserver-gl-light in tiles/s (aim ≥ 10×): ${ratio.toFixed(2)}×: ${verdict(ratio >= 10)}`];
  if (waymarkRow.cpuPerReq !== null && tileserverRow.cpuPerReq !== null) {
    const cpuRatio = tileserverRow.cpuPerReq / waymarkRow.cpuPerReq;
    aims.push(
      `- The same in server CPU per tile (the throughput of a saturated core): ${cpuRatio.toFixed(2)}×: ${verdict(cpuRatio >= 10)}`,
    );
  }
  const sizes = [...stored.values()].reduce((sum, b) => sum + b.length, 0);
  const perZoom = new Map<number, number>();
  for (const c of tiles) perZoom.set(c.z, (perZoom.get(c.z) ?? 0) + 1);
  const zoomCounts = [...perZoom]
    .sort(([a], [b]) => a - b)
    .map(([z, n]) => `z${z}: ${n}`)
    .join(', ');
  return [
    heading,
    '',
    `Both serve \`${mbtiles.replace(workDir, '$TMP')}\` (the Waymark import of ${comparison.extract}): Waymark through \`waymark serve\` ` +
      `(Enterprise organization and a maps key made with the CLI, key as \`?key=\`, access log at the default level to /dev/null), ` +
      `tileserver-gl-light with that file as its one data source (NODE_ENV=production, request log to /dev/null). ` +
      `Request list: ${tiles.length} distinct tiles that exist (${zoomCounts}; ${fmtMiB(sizes)} stored), shuffled with seed ${seed}, ` +
      `cycled by a wrk Lua script; every request sends \`Accept-Encoding: gzip\`. ` +
      `Before measuring, each server answered every tile of the list with 200 and the stored tile (compared after gunzip); ` +
      `gzip-encoded replies: Waymark ${waymarkCheck.gzipped}/${tiles.length}, tileserver-gl-light ${tileserverCheck.gzipped}/${tiles.length}; ` +
      'Waymark refused a tile without key with 401.',
    describeMeasurement(load, 'server'),
    interference(measured.flatMap((m) => m.runs)),
    '',
    table,
    '',
    ...aims,
    `- Usage check: ${usageLine}`,
  ];
}

async function main(): Promise<void> {
  const tilemaker = prepareTilemaker(workDir);
  const waymarkUnavailable = importUnavailable();
  if (waymarkUnavailable) console.error(`waymark import cannot run (${waymarkUnavailable}); measuring tilemaker only`);
  console.error(`imports: ${extracts.join(', ')}`);
  const comparisons: ImportComparison[] = [];
  const importOptions = { rounds: importRounds, quietWaitMs: importQuietWaitMs };
  for (const extract of extracts) {
    const osm = join(args['osm-dir'], `${extract}.osm.pbf`);
    comparisons.push(await compareImport(osm, workDir, importOptions, tilemaker, waymarkUnavailable));
  }
  const imports = importSection(comparisons, tilemaker, waymarkUnavailable);
  console.error(imports.join('\n'));
  const served = comparisons.find((c) => c.extract === args.serve)!;
  const dataDir = served.waymarkDataDir;
  if (!dataDir) {
    const missing = `Not measured: the Waymark import of ${served.extract} did not produce a dataset.`;
    return publishReport('maps', 'Maps benchmark', source, [imports, ['## Tile serving', '', missing]]);
  }
  const key = createEnterpriseKey(dataDir);
  const serving = args['hot-tile-only'] ? [] : await tileSection(served, dataDir, key);
  const hotTile = await hotTileSection({ dataDir, key, workDir, load, baseline: args.baseline, children });

  publishReport('maps', 'Maps benchmark', source, [imports, serving, hotTile]);
}

await runBenchmark(main, children, () => rmSync(workDir, { recursive: true, force: true }));
