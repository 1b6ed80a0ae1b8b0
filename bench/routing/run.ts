/**
 * Issue 5's routing benchmark, on one OSM extract (Heidelberg), in one run:
 * (1) each mode's graph built alone in a child process (time, peak memory, size, node/edge/shortcut
 *     counts), and the whole `waymark import --osm` into a fresh data folder (served in 3 and 4);
 * (2) the bare engine in this process on one thread (the baseline): snap, route, the whole
 *     directions answer, and isochrones of 5, 15 and 30 minutes, for seeded random points;
 * (3) directions per mode and 15-minute driving isochrones through the gateway of `waymark serve
 *     --threads 1` and `--threads N`, with wrk on 1 connection and on --connections;
 * (4) tile latency of the N-thread server alone and while a second wrk saturates its routing;
 * (5) when OSRM's binaries are there (osrm.ts): osrm-routed beside the N-thread server, the same
 *     driving pairs through OSRM's route service with steps, with keep-alive and without.
 *
 *   npm run bench:routing [-- --osm heidelberg --duration 10 --warmup 2 --connections 8 --rounds 3 --pairs 1000 --centres 40
 *                            --osrm-bin DIR]
 *
 * The servers are not pinned (the pool is meant to use every core; --no-pin changes nothing).
 * Timing never fails the run; a wrong answer (a failed build or import, a routing request
 * answered other than 200 or 422, a non-2xx under load) does.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { paths } from '../../core/dataset-layout.js';
import { TRAVEL_MODES } from '../../core/routing/network.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { ServerChild } from '../lib/child.js';
import { LOAD_ARGS, loadSettings } from '../lib/load.js';
import { checkRunSettings } from '../lib/settings-check.js';
import { describeSource, publishReport } from '../lib/report.js';
import { runBenchmark } from '../lib/run.js';
import { writeWrkScript } from '../lib/request-list.js';
import { ACCEPT_GZIP, benchmarkTiles, tileKey } from '../maps/tile-load.js';
import { createEnterpriseKey, importedMbtiles, TILE_PATH_PREFIX } from '../maps/waymark.js';
import { measureBareQueries, type BareQueries } from './bare-queries.js';
import { buildGraph, importDataset, type GraphBuild } from './builds.js';
import { measureGateway, routingTarget, type RoutingTarget } from './gateway-load.js';
import { graphBounds, randomPositions } from './random-points.js';
import { bareSection, buildSection, gatewaySection, osrmSection, tileSection, type AgainstOsrm } from './report.js';
import { againstOsrmTargets, buildOsrm, comparePairs, findOsrm, startOsrmRouted } from './osrm.js';
import { checkPaths, directionsPath, isochronePath, type CheckedPaths } from './request-paths.js';
import { startRoutingServe } from './server.js';
import { measureTilesUnderLoad } from './tiles-under-load.js';

const OSM_DIR = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm');

const { values: args } = parseArgs({
  options: {
    ...LOAD_ARGS,
    /** Routing requests take milliseconds: a few connections saturate the pool. */
    connections: { type: 'string', default: '8' },
    osm: { type: 'string', default: 'heidelberg' },
    'osm-dir': { type: 'string', default: OSM_DIR },
    /** Random origin–destination pairs drawn per mode (those where both snap are kept). */
    pairs: { type: 'string', default: '1000' },
    /** Random isochrone centres. */
    centres: { type: 'string', default: '40' },
    /** Pool threads of the second server; the first has 1. */
    threads: { type: 'string', default: String(availableParallelism()) },
    /** Connections of the tile wrk in part 4: a moderate load that leaves the server room. */
    'tile-connections': { type: 'string', default: '4' },
    tiles: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '5' },
    /** The folder of osrm-extract, osrm-contract and osrm-routed (default: beside osrm-routed on the PATH). */
    'osrm-bin': { type: 'string' },
  },
});
const load = { ...loadSettings(args), serverCpu: undefined, wrkCpu: undefined };
const numbers = {
  duration: load.durationS,
  connections: load.connections,
  rounds: load.rounds,
  pairs: Number(args.pairs),
  centres: Number(args.centres),
  threads: Number(args.threads),
  'tile-connections': Number(args['tile-connections']),
  tiles: Number(args.tiles),
};
const seed = Number(args.seed);
checkRunSettings(numbers, load, seed, { whole: true });

const source = describeSource();
const children: ServerChild[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-routing-'));
/** Batch runs take seconds: a shorter wait for quiet than before each load scenario. */
const buildQuietWaitMs = Math.min(load.quietWaitMs, 30_000);
/** The 1-minute load average as each part starts: other jobs on a shared machine disturb the figures. */
const machineLoad: string[] = [];
const notePart = (part: string) => machineLoad.push(`${part} ${loadavg()[0]!.toFixed(1)}`);

function openGraphs(datasetDir: string): RoutingGraph[] {
  return TRAVEL_MODES.map((mode) => openRoutingGraph(loadRoutingGraph(paths.routingGraph(datasetDir, mode)).shared));
}

async function gatewayTargets(dataDir: string, bare: BareQueries[], centres: [number, number][], key: string) {
  // One server per data folder (it holds a lock): the second serves a copy, key included.
  const copy = `${dataDir}-copy`;
  cpSync(dataDir, copy, { recursive: true });
  const servers = [await startRoutingServe(dataDir, 1), await startRoutingServe(copy, numbers.threads)];
  children.push(...servers);
  const base = `http://127.0.0.1:${servers[0]!.port}`;
  console.error('checking every routing request once…');
  const lists = [
    ...bare.map((b) => ({ request: `directions ${b.mode}`, paths: b.pairs.map((p) => directionsPath(b.mode, p, key)) })),
    { request: 'isochrone driving 15 min', paths: centres.map((c) => isochronePath('driving', c, 15, key)) },
  ];
  const requests: ({ request: string } & CheckedPaths)[] = [];
  for (const list of lists) requests.push({ request: list.request, ...(await checkPaths(base, list.paths)) });
  const targets: RoutingTarget[] = servers.flatMap((server, s) =>
    requests.map((r, i) => routingTarget(server, s === 0 ? 1 : numbers.threads, r.request, r.ok, join(workDir, `routing-${s}-${i}.lua`))),
  );
  return { servers, requests, targets };
}

/** Part 5: osrm-routed beside `waymark` (the N-thread server) on the bare part's driving pairs, or why not. */
async function measureAgainstOsrm(osm: string, waymark: ServerChild, bare: BareQueries[], key: string): Promise<AgainstOsrm> {
  const osrm = findOsrm(args['osrm-bin']);
  if (typeof osrm === 'string') {
    console.error(`against OSRM: not measured (${osrm})`);
    return { missing: osrm };
  }
  notePart('OSRM');
  console.error(`${osrm.version}: osrm-extract and osrm-contract of ${osm}…`);
  const build = await buildOsrm(osrm, osm, workDir, buildQuietWaitMs);
  const routed = await startOsrmRouted(osrm, build.dataset, numbers.threads);
  children.push(routed);
  const driving = bare.find((b) => b.mode === 'driving')!.pairs;
  const pairs = await comparePairs(driving, waymark, routed, key);
  const servers = { waymark: { child: waymark, threads: numbers.threads }, osrm: { child: routed, threads: numbers.threads } };
  const targets = againstOsrmTargets(pairs.routed, servers.waymark, servers.osrm, key, workDir);
  console.error(`osrm-routed and waymark serve, ${pairs.routed.length} driving pairs, with and without keep-alive…`);
  return { osrm, build, pairs, figures: await measureGateway(targets, load) };
}

async function main(): Promise<void> {
  const osm = join(args['osm-dir'], `${args.osm}.osm.pbf`);
  notePart('graph builds');
  console.error(`graph builds of ${osm}, one child process per mode…`);
  const builds: GraphBuild[] = [];
  for (const mode of TRAVEL_MODES) builds.push(await buildGraph(osm, mode, workDir, buildQuietWaitMs));
  console.error('waymark import --osm…');
  const dataDir = join(workDir, 'data');
  mkdirSync(dataDir);
  const imported = await importDataset(osm, dataDir, workDir, buildQuietWaitMs);
  const datasetDir = realpathSync(paths.current(dataDir));
  const importedBytes = TRAVEL_MODES.map((mode) => statSync(paths.routingGraph(datasetDir, mode)).size);

  notePart('bare engine');
  console.error('bare engine queries…');
  const graphs = openGraphs(datasetDir);
  const bounds = graphBounds(graphs[0]!);
  const positions = randomPositions(bounds, 2 * numbers.pairs, seed);
  const centres = randomPositions(bounds, numbers.centres, seed + 1);
  const bare = graphs.map((graph) => measureBareQueries(graph, positions, centres));

  const key = createEnterpriseKey(dataDir, ['maps', 'routing']);
  const { servers, requests, targets } = await gatewayTargets(dataDir, bare, centres, key);
  notePart('gateway');
  const gateway = await measureGateway(targets, load);

  const tiles = benchmarkTiles(realpathSync(importedMbtiles(dataDir)), numbers.tiles, seed);
  const tileScript = join(workDir, 'tiles.lua');
  writeWrkScript(
    tileScript,
    tiles.map((c) => `${TILE_PATH_PREFIX}${tileKey(c)}.pbf?key=${key}`),
  );
  const loaded = servers[1]!;
  const base = `http://127.0.0.1:${loaded.port}`;
  const backgroundOf = (index: number) => {
    const t = targets.find((target) => target.child === loaded && target.request === requests[index]!.request)!;
    return { name: `while saturating ${t.request}`, wrk: { url: t.url, script: t.script, connections: load.connections } };
  };
  notePart('tiles');
  console.error(`tile latency of --threads ${numbers.threads}, alone and while routing is saturated…`);
  const tileScenarios = await measureTilesUnderLoad(
    { url: `${base}/`, script: tileScript, headers: ACCEPT_GZIP, connections: numbers['tile-connections'], durationS: load.durationS },
    [backgroundOf(0), backgroundOf(requests.length - 1)],
    load,
  );

  const againstOsrm = await measureAgainstOsrm(osm, loaded, bare, key);

  publishReport(
    'routing',
    'Routing benchmark',
    source,
    [
      buildSection(osm, builds, imported, importedBytes),
      bareSection(bare, bounds, { pairs: numbers.pairs, centres: numbers.centres, seed }),
      gatewaySection(gateway, requests, load, bare),
      tileSection(tileScenarios, tiles.length, numbers['tile-connections'], numbers.threads, load),
      osrmSection(againstOsrm, load),
    ],
    [`1-minute load average (on ${availableParallelism()} cores) as each part started: ${machineLoad.join(', ')}.`],
  );
}

await runBenchmark(main, children, () => rmSync(workDir, { recursive: true, force: true }));
