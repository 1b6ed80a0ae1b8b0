/**
 * Issue 4's geocoding benchmark, in one run:
 * (1) `waymark import` of the OSM extracts, Who's On First folders, OpenAddresses files and all
 *     GeoNames places into a fresh data folder: wall time, peak memory, the geocoder index's size
 *     and place counts; then the geocoder index built alone (buildGeocoderIndex);
 * (2) search, autocomplete and reverse through `waymark serve` (the full gateway) with wrk cycling
 *     through a mixed, seeded query set made from the index, at full load and one request at a
 *     time, beside two baselines: the same queries answered in-process by the engine (no HTTP) and
 *     the gateway's cheapest keyed route (TileJSON, scoped but not metered) under the same load.
 *
 *   npm run bench:geocoding [-- --duration 10 --warmup 2 --connections 64 --rounds 3 --queries 300 --seed 4]
 *
 * Timing never fails the run; a wrong answer (a failed import, a query not answered 200 with a
 * FeatureCollection, usage not counted) does.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { osmBounds } from '../../data-pipeline/osm/index.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { ServerChild } from '../lib/child.js';
import { waitForQuiet } from '../lib/cpu.js';
import {
  describeMeasurement,
  interference,
  LOAD_ARGS,
  loadSettings,
  measureServers,
  summarize,
  type Measured,
  type Target,
} from '../lib/load.js';
import { gnuTimeAvailable } from '../lib/measure-command.js';
import { writeWrkScript } from '../lib/request-list.js';
import { describeSource, fmtInt, fmtMiB, fmtMs, fmtPct, fmtSeconds, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { checkRunSettings } from '../lib/settings-check.js';
import { runBenchmark } from '../lib/run.js';
import { checkUsageCounted, usedUnits, type Metered } from '../lib/usage-check.js';
import { createEnterpriseKey, startWaymarkServe } from '../maps/waymark.js';
import { checkAnswers, queryPath } from './answers.js';
import { runEngineBaseline, type EngineTimes } from './engine.js';
import { buildIndexAlone, runImport, type GeocodingSources, type IndexBuild } from './import.js';
import { describeKinds, ENDPOINTS, makeQueries, type Endpoint, type Query } from './queries.js';

/** The data next to the checkout, as the tests use it. */
const DATA_DIR = join(PACKAGE_ROOT, '..', 'shared', 'data');
/** Issue 4's aims for the median latency of a request through the gateway, in ms. */
const P50_AIM_MS: Record<Endpoint, number> = { search: 5, autocomplete: 3, reverse: 3 };
/** TileJSON: behind the key and its scope, but not metered: the gateway's cheapest keyed answer. */
const FLOOR_PATH = '/api/v1/tiles/shortbread.json';

const { values: args } = parseArgs({
  options: {
    ...LOAD_ARGS,
    'data-dir': { type: 'string', default: DATA_DIR },
    /** OSM extracts in DATA/osm, Who's On First folders in DATA/wof, comma-separated; every DATA/oa/*.csv is imported. */
    extracts: { type: 'string', default: 'monaco,andorra,heidelberg' },
    wof: { type: 'string', default: 'mc,ad' },
    /** Queries per endpoint. */
    queries: { type: 'string', default: '300' },
    /** Connections of the latency runs: one request at a time shows a request's own latency, not queueing. */
    'latency-connections': { type: 'string', default: '1' },
    seed: { type: 'string', default: '4' },
  },
});
const load = loadSettings(args);
const queryCount = Number(args.queries);
const latencyConnections = Number(args['latency-connections']);
const seed = Number(args.seed);
const positive = {
  duration: load.durationS,
  connections: load.connections,
  rounds: load.rounds,
  queries: queryCount,
  'latency-connections': latencyConnections,
};
checkRunSettings(positive, load, seed);

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const sources: GeocodingSources = {
  osm: list(args.extracts).map((name) => join(args['data-dir'], 'osm', `${name}.osm.pbf`)),
  wof: list(args.wof).map((name) => join(args['data-dir'], 'wof', name)),
  oa: readdirSync(join(args['data-dir'], 'oa'))
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => join(args['data-dir'], 'oa', f)),
};
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const orNa = (value: number | null, fmt: (n: number) => string) => (value === null ? 'n/a' : fmt(value));
// Before anything runs: src/ may change while the benchmark runs.
const source = describeSource();
const children: ServerChild[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-geocoding-'));
const shortPath = (file: string) => file.replace(args['data-dir'], 'DATA');

// ---- part 1: import and index build ----

async function quietFor(what: string): Promise<void> {
  // Batch runs take seconds: a shorter wait than before each load scenario.
  if (load.quietWaitMs > 0 && !(await waitForQuiet(0.15, Math.min(load.quietWaitMs, 30_000)))) {
    console.error(`  (the machine did not go quiet before ${what}; measuring anyway)`);
  }
}

function buildRow(what: string, build: IndexBuild, ownSeconds?: number): string[] {
  const { command } = build;
  return [
    what,
    fmtSeconds(command.wallS),
    ownSeconds === undefined ? '' : fmtSeconds(ownSeconds),
    orNa(command.cpuS, fmtSeconds),
    fmtMiB(command.peakTreeRssBytes),
    orNa(command.maxProcessRssBytes, fmtMiB),
    fmtMiB(build.bytes),
    fmtInt(build.stats.places),
  ];
}

const counts = (byKey: Record<string, number>) =>
  Object.entries(byKey)
    .sort(([, a], [, b]) => b - a)
    .map(([key, n]) => `${key} ${fmtInt(n)}`)
    .join(', ');

function importSection(imported: IndexBuild, alone: IndexBuild & { seconds: number }): string[] {
  const table = markdownTable(
    [
      'Command',
      'wall time',
      'of which building the index',
      'CPU time (user+sys)',
      'peak RSS, process tree',
      'peak RSS, largest process',
      'geocoder.sqlite',
      'places',
    ],
    [
      buildRow('`waymark import` (tiles, glyphs, sprites, geocoder index, routing graphs)', imported),
      buildRow('geocoder index alone (`buildGeocoderIndex`, `bench/geocoding/build-index.js`)', alone, alone.seconds),
    ],
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const { stats } = imported;
  return [
    '## Import and index build',
    '',
    `Sources: ${sources.osm.map(shortPath).join(', ')}; Who's On First ${sources.wof.map(shortPath).join(', ')}; ` +
      `OpenAddresses ${sources.oa.map(shortPath).join(', ')}; all GeoNames places (\`--geonames\`). ` +
      'One run each, into a fresh data folder, after waiting up to 30 s for an idle machine; not pinned. ' +
      (gnuTimeAvailable()
        ? 'CPU time and the largest process: GNU time; '
        : 'GNU time is not installed: no CPU time nor per-process peak; ') +
      'process tree: /proc sampled every 100 ms. "Of which building the index": buildGeocoderIndex\'s own time, without Node\'s start-up.',
    '',
    table,
    '',
    `- Places in the index: ${fmtInt(stats.places)} (${stats.duplicates} duplicate GIDs dropped), ${stats.adminAreas} admin polygons. ` +
      `By layer: ${counts(stats.byLayer)}. By source: ${counts(stats.bySource)}.`,
  ];
}

// ---- part 2: serving ----

interface GeocodingTarget extends Target {
  child: ServerChild;
  /** Null for the HTTP floor. */
  endpoint: Endpoint | null;
}

/** The geocoding targets' runs as one metered load, for the usage check. */
function meteredLoad(measured: Measured<GeocodingTarget>[]): Measured<Target> {
  const geocoding = measured.filter((m) => m.target.endpoint !== null);
  return {
    target: { ...geocoding[0]!.target, name: 'search, autocomplete and reverse' },
    runs: geocoding.flatMap((m) => m.runs),
    sent: geocoding.reduce((n, m) => n + m.sent, 0),
    wrkRuns: geocoding.reduce((n, m) => n + m.wrkRuns, 0),
  };
}

/** One load phase (all targets, `connections` each), and the usage check over it. */
async function measurePhase(what: string, targets: GeocodingTarget[], metered: Metered, connections: number) {
  const before = await usedUnits(metered);
  const measured = await measureServers(what, targets, { ...load, connections }, `, ${queryCount} queries per endpoint`);
  const usage = checkUsageCounted((await usedUnits(metered)) - before, meteredLoad(measured), connections);
  return { measured, usage };
}

const targetName = (endpoint: Endpoint | null) =>
  endpoint === null ? `HTTP floor: GET ${FLOOR_PATH}?key=` : `${endpoint} through the gateway`;

function latencyTable(measured: Measured<GeocodingTarget>[], engine: Record<Endpoint, EngineTimes>): string {
  return markdownTable(
    ['Endpoint', 'engine p50', 'engine p90', 'engine p99', 'request p50', 'request p90', 'request p99', 'req/s', 'p50 aim'],
    measured.map(({ target, runs }) => {
      const r = summarize(runs);
      const e = target.endpoint === null ? null : engine[target.endpoint];
      const aim = target.endpoint === null ? '' : `< ${P50_AIM_MS[target.endpoint]} ms: ${verdict(r.p50 < P50_AIM_MS[target.endpoint])}`;
      return [
        target.name,
        e ? fmtMs(e.p50) : '',
        e ? fmtMs(e.p90) : '',
        e ? fmtMs(e.p99) : '',
        fmtMs(r.p50),
        fmtMs(r.p90),
        fmtMs(r.p99),
        fmtInt(r.rps),
        aim,
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
}

function throughputTable(measured: Measured<GeocodingTarget>[], engine: Record<Endpoint, EngineTimes>): string {
  return markdownTable(
    [
      'Scenario',
      'req/s',
      'p50',
      'p90',
      'p99',
      'server CPU busy',
      'server CPU per request',
      'engine alone, calls/s (1 thread)',
      'req/s per round',
    ],
    measured.map(({ target, runs }) => {
      const r = summarize(runs);
      const e = target.endpoint === null ? '' : fmtInt(engine[target.endpoint].perSecond);
      return [
        target.name,
        fmtInt(r.rps),
        fmtMs(r.p50),
        fmtMs(r.p90),
        fmtMs(r.p99),
        orNa(r.cpuUse, fmtPct),
        orNa(r.cpuPerReq, fmtUs),
        e,
        r.perRound,
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

async function servingSection(dataDir: string, index: string, queries: Query[]): Promise<string[]> {
  const queriesFile = join(workDir, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(queries));
  // Before the server starts: the driver waits for it synchronously, which would leave kept-alive sockets unread.
  await quietFor('the engine baseline');
  console.error(`engine baseline: ${load.durationS} s per endpoint, in-process, one thread…`);
  const engine = runEngineBaseline(index, queriesFile, load.durationS, load.serverCpu);
  for (const endpoint of ENDPOINTS)
    console.error(`  ${endpoint}: p50 ${fmtMs(engine[endpoint].p50)}, ${fmtInt(engine[endpoint].perSecond)} calls/s`);

  const key = createEnterpriseKey(dataDir, ['geocoding', 'maps']);
  const waymark = await startWaymarkServe(dataDir, load.serverCpu);
  children.push(waymark);
  const base = `http://127.0.0.1:${waymark.port}`;

  console.error(`checking that all ${queries.length} queries are answered 200 through the gateway…`);
  const found = await checkAnswers(base, key, queries);
  const floor = await fetch(`${base}${FLOOR_PATH}?key=${key}`);
  await floor.arrayBuffer();
  if (floor.status !== 200) throw new Error(`${FLOOR_PATH} answered ${floor.status}`);

  const target = (endpoint: Endpoint | null): GeocodingTarget => {
    const paths =
      endpoint === null ? [`${FLOOR_PATH}?key=${key}`] : queries.filter((q) => q.endpoint === endpoint).map((q) => queryPath(q, key));
    const script = join(workDir, `${endpoint ?? 'floor'}.lua`);
    writeWrkScript(script, paths);
    return { name: targetName(endpoint), child: waymark, pid: waymark.pid, url: base + paths[0], script, endpoint };
  };
  const targets = [target(null), ...ENDPOINTS.map(target)];
  const metered: Metered = { port: waymark.port, key, service: 'geocoding' };
  const throughput = await measurePhase('throughput', targets, metered, load.connections);
  const latency = await measurePhase('latency', targets, metered, latencyConnections);

  return [
    '## Search, autocomplete and reverse through the gateway',
    '',
    `\`waymark serve\` on the imported data folder (Enterprise organization, a key with the geocoding and maps scopes made with the CLI, ` +
      `key as \`?key=\`, access log at the default level to /dev/null). Query set (seed ${seed}), ${queryCount} per endpoint, cycled by a wrk Lua script: ` +
      ENDPOINTS.map((e) => `${e}: ${describeKinds(queries.filter((q) => q.endpoint === e))}`).join('; ') +
      '. About 30 % of the searches and autocompletes carry a focus.point, 15 % of the searches layers, 15 % boundary.country.',
    `Before measuring, every query was answered 200 with a FeatureCollection (with at least one feature: ` +
      ENDPOINTS.map((e) => `${e} ${found[e].found}/${found[e].total}`).join(', ') +
      '), and a search without key was refused with 401.',
    `Engine: the same queries answered in-process by \`bench/geocoding/engine-baseline.js\` (sanitizer, then the engine's search or reverse; ` +
      `no gateway, JSON reply nor network), one thread${load.serverCpu === undefined ? '' : ` pinned to CPU ${load.serverCpu}`}, ` +
      `${load.durationS} s per endpoint after one pass of warm-up, every call timed.`,
    `HTTP floor: \`GET ${FLOOR_PATH}?key=\` on the same server (key and scope checked, not metered) under the same wrk settings.`,
    interference([...throughput.measured, ...latency.measured].flatMap((m) => m.runs)),
    '',
    `**One request at a time**: a request's own latency, engine time beside it. ${describeMeasurement(load, 'scenario', latencyConnections)}`,
    '',
    latencyTable(latency.measured, engine),
    '',
    `**Throughput**: with every connection waiting for its reply, p50 is about connections / throughput. ${describeMeasurement(load, 'scenario')}`,
    '',
    throughputTable(throughput.measured, engine),
    '',
    ...ENDPOINTS.map((e) => {
      const p50 = summarize(latency.measured.find((m) => m.target.endpoint === e)!.runs).p50;
      return `- ${e} p50 through the gateway, one request at a time (aim: under ${P50_AIM_MS[e]} ms): ${fmtMs(p50)}: ${verdict(p50 < P50_AIM_MS[e])}`;
    }),
    `- Usage check, throughput runs: ${throughput.usage}`,
    `- Usage check, latency runs: ${latency.usage}`,
  ];
}

async function main(): Promise<void> {
  const dataDir = join(workDir, 'data');
  mkdirSync(dataDir);
  await quietFor('the import');
  console.error(
    `waymark import of ${sources.osm.length} extracts, ${sources.wof.length} WOF folders, ${sources.oa.length} OA files and GeoNames…`,
  );
  const imported = await runImport(sources, dataDir, workDir);
  await quietFor('the index build');
  console.error('geocoder index alone…');
  const alone = await buildIndexAlone(sources, join(workDir, 'geocoder-alone.sqlite'), workDir);
  const imports = importSection(imported, alone);
  console.error(imports.join('\n'));

  const extracts = await Promise.all(sources.osm.map((file) => osmBounds(file)));
  const queries = makeQueries(imported.index, extracts, queryCount, seed);
  const serving = await servingSection(dataDir, imported.index, queries);

  publishReport('geocoding', 'Geocoding benchmark', source, [imports, serving]);
}

await runBenchmark(main, children, () => rmSync(workDir, { recursive: true, force: true }));
