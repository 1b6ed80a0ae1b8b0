/**
 * Serving the largest imported dataset against the single copy (issue 10: "serve the ×64 dataset
 * and measure route p50 and geocoding p50 against the small datasets"): the server's start until
 * it answers a driving route; the bare driving route (engine only, one thread, as bench:routing's
 * "route"); search through the gateway one request at a time (wrk -c1, as bench:geocoding's
 * "search p50"), with the engine's own search time beside it (bench/geocoding/engine-baseline.js).
 * Both datasets get the same work: pairs drawn in the single copy's road network, each moved into
 * a random copy of the grid, and one set of searches made from the single copy's index, whose
 * names every copy holds.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../core/dataset-layout.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import { route } from '../../workers/routing/graph/route.js';
import { checkAnswers, queryPath } from '../geocoding/answers.js';
import { runEngineBaseline, type EngineTimes } from '../geocoding/engine.js';
import { makeQueries, type Query } from '../geocoding/queries.js';
import { freePort, startCommand, type ServerChild } from '../lib/child.js';
import { waitForQuiet } from '../lib/cpu.js';
import { fmtMs, fmtSeconds, markdownTable } from '../lib/report.js';
import { seededRandom, writeWrkScript } from '../lib/request-list.js';
import { timeCalls, type CallTimings } from '../lib/timings.js';
import { runWrk } from '../lib/wrk.js';
import { createEnterpriseKey, WAYMARK_BIN } from '../maps/waymark.js';
import { graphBounds, randomPositions, snappedPairs, type Position, type SnappedPair } from '../routing/random-points.js';
import { directionsPath } from '../routing/request-paths.js';

/** As bench:routing (pairs, seed) and bench:geocoding (queries per endpoint, seed). */
const PAIRS = 1000;
const ROUTE_SEED = 5;
const QUERIES = 300;
const QUERY_SEED = 4;
const WARMUP_S = 2;
/** Issue 10's aims for the largest dataset. */
const AIMS = { startS: 10, routeMs: 1, searchMs: 5 };

export interface ServedDataset {
  copies: number;
  dataDir: string;
  /** Copy k's offset from the single copy ([dLon, dLat]; one [0, 0] for ×1). */
  offsets: [number, number][];
}

/** The same work for every dataset, drawn in the single copy. */
interface Workload {
  positions: Position[];
  /** bench:geocoding's whole query set (its engine baseline times every endpoint); only the searches are reported. */
  queries: Query[];
  searches: Query[];
}

export interface ServingFigures {
  copies: number;
  startS: number;
  route: CallTimings;
  /** Pairs where both points snapped but the network does not connect them (left out, as in bench:routing). */
  unconnected: number;
  searchEngine: EngineTimes;
  /** Milliseconds, wrk's median over the measured run. */
  searchP50: number;
  searchRequests: number;
  found: { found: number; total: number };
}

const datasetDir = (dataDir: string) => realpathSync(paths.current(dataDir));

function drivingGraph(dataDir: string): RoutingGraph {
  return openRoutingGraph(loadRoutingGraph(paths.routingGraph(datasetDir(dataDir), 'driving')).shared);
}

/** Random positions in the single copy's road network and searches made from its index (bench:geocoding's mix). */
export function makeWorkload(single: ServedDataset): Workload {
  const bounds = graphBounds(drivingGraph(single.dataDir));
  const bbox: [number, number, number, number] = [bounds.west, bounds.south, bounds.east, bounds.north];
  const queries = makeQueries(paths.geocoder(datasetDir(single.dataDir)), [bbox], QUERIES, QUERY_SEED);
  return { positions: randomPositions(bounds, 2 * PAIRS, ROUTE_SEED), queries, searches: queries.filter((q) => q.endpoint === 'search') };
}

/** Each consecutive pair of positions moved together into a random copy (seeded). */
function intoCopies(positions: Position[], offsets: [number, number][]): Position[] {
  const random = seededRandom(ROUTE_SEED + 1);
  const moved: Position[] = [];
  for (let i = 0; i + 1 < positions.length; i += 2) {
    const [dLon, dLat] = offsets[Math.floor(random() * offsets.length)]!;
    moved.push([positions[i]![0] + dLon, positions[i]![1] + dLat], [positions[i + 1]![0] + dLon, positions[i + 1]![1] + dLat]);
  }
  return moved;
}

function measureRoutes(dataset: ServedDataset, positions: Position[]): { pairs: SnappedPair[]; unconnected: number; timings: CallTimings } {
  const graph = drivingGraph(dataset.dataDir);
  const snapped = snappedPairs(graph, intoCopies(positions, dataset.offsets));
  const pairs = snapped.filter((p) => route(graph, p.from, p.to) !== null);
  if (pairs.length === 0) throw new Error(`×${dataset.copies}: no random pair could be routed`);
  return { pairs, unconnected: snapped.length - pairs.length, timings: timeCalls(pairs, (p) => route(graph, p.from, p.to)) };
}

/** `waymark serve` on the data folder, timed from the spawn to its first answer to `readyPath` (which must be 200). */
async function startTimed(dataDir: string, readyPath: string): Promise<{ server: ServerChild; startS: number }> {
  const port = await freePort();
  const argv = [WAYMARK_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data', dataDir];
  const readyUrl = `http://127.0.0.1:${port}${readyPath}`;
  const started = process.hrtime.bigint();
  const server = await startCommand('waymark serve', process.execPath, argv, { port, readyUrl, pollMs: 20, startTimeoutMs: 600_000 });
  const startS = Number(process.hrtime.bigint() - started) / 1e9;
  const check = await fetch(readyUrl);
  await check.arrayBuffer();
  if (check.status !== 200) {
    await server.stop();
    throw new Error(`the first route after the start answered ${check.status}`);
  }
  return { server, startS };
}

/** The searches checked once, then cycled by wrk on one connection (a warm-up run, then the measured one). */
async function measureSearch(base: string, key: string, searches: Query[], script: string, durationS: number) {
  const found = (await checkAnswers(base, key, searches)).search;
  const requestPaths = searches.map((q) => queryPath(q, key));
  writeWrkScript(script, requestPaths);
  const wrk = (seconds: number) => runWrk({ url: base + requestPaths[0], script, connections: 1, threads: 1, durationS: seconds });
  await wrk(WARMUP_S);
  const measured = await wrk(durationS);
  if (measured.non2xx) throw new Error(`${measured.non2xx} searches were not answered 2xx`);
  return { found, p50: measured.latency.p50, requests: measured.requests };
}

async function quiet(): Promise<void> {
  if (!(await waitForQuiet(0.15, 60_000))) console.error('  (the machine did not go quiet; measuring anyway)');
}

/** Every measurement on one dataset; the server runs only for its start and the searches. */
export async function serveDataset(dataset: ServedDataset, work: Workload, workDir: string, durationS: number): Promise<ServingFigures> {
  const label = `×${dataset.copies}`;
  mkdirSync(workDir, { recursive: true });
  await quiet();
  console.error(`  ${label}: bare driving routes…`);
  const routes = measureRoutes(dataset, work.positions);
  const queriesFile = join(workDir, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(work.queries));
  console.error(`  ${label}: search engine baseline…`);
  const searchEngine = runEngineBaseline(paths.geocoder(datasetDir(dataset.dataDir)), queriesFile, durationS, undefined).search;
  const key = createEnterpriseKey(dataset.dataDir, ['routing', 'geocoding']);
  await quiet();
  console.error(`  ${label}: waymark serve…`);
  const { server, startS } = await startTimed(dataset.dataDir, directionsPath('driving', routes.pairs[0]!, key));
  try {
    console.error(`  ${label}: searches through the gateway…`);
    const search = await measureSearch(
      `http://127.0.0.1:${server.port}`,
      key,
      work.searches,
      join(workDir, `search-x${dataset.copies}.lua`),
      durationS,
    );
    return {
      copies: dataset.copies,
      startS,
      route: routes.timings,
      unconnected: routes.unconnected,
      searchEngine,
      searchP50: search.p50,
      searchRequests: search.requests,
      found: search.found,
    };
  } finally {
    await server.stop();
  }
}

/** The aim on the largest dataset and whether it is met. */
const aimCell = (value: number, aim: number, unit: string) => `< ${aim} ${unit}: ${value < aim ? 'PASS' : 'MISS'}`;

/** The table: the single copy, then the largest dataset, its ratio to the single copy and the aim. */
export function servingSection(figures: ServingFigures[], durationS: number): string[] {
  const largest = figures[figures.length - 1]!;
  const compare = figures.length > 1;
  const row = (what: string, value: (f: ServingFigures) => number, fmt: (n: number) => string, aim: string) => [
    what,
    ...figures.map((f) => fmt(value(f))),
    ...(compare ? [`${(value(largest) / value(figures[0]!)).toFixed(2)}×`] : []),
    aim,
  ];
  const rows = [
    row('server start, to the first driving route answered', (f) => f.startS, fmtSeconds, aimCell(largest.startS, AIMS.startS, 's')),
    row(
      'driving route p50, engine only (bench:routing "route")',
      (f) => f.route.p50,
      fmtMs,
      aimCell(largest.route.p50, AIMS.routeMs, 'ms'),
    ),
    row(
      'search p50 through the gateway, one request at a time',
      (f) => f.searchP50,
      fmtMs,
      aimCell(largest.searchP50, AIMS.searchMs, 'ms'),
    ),
    row('search p50, engine only', (f) => f.searchEngine.p50, fmtMs, ''),
  ];
  const header = [
    'measure',
    ...figures.map((f) => `×${f.copies}`),
    ...(compare ? [`×${largest.copies} / ×${figures[0]!.copies}`] : []),
    `aim (×${largest.copies})`,
  ];
  return [
    '## Serving the largest dataset',
    '',
    markdownTable(header, rows, ['l', ...figures.map(() => 'r' as const), ...(compare ? ['r' as const] : []), 'l']),
    '',
    `Each data folder served alone by \`waymark serve\` (not pinned; access log to /dev/null) after waiting for a quiet machine. ` +
      'Start: from the spawn to the first 200 to a driving route (the graphs are read before the server listens, the pool threads ' +
      'build their views as they start), polled every 20 ms. ' +
      `Routes: ${PAIRS} random pairs (seed ${ROUTE_SEED}) in the single copy's road network (the central 98 % box), each pair moved into a random copy; ` +
      `the snapped, connected ones timed one by one on one thread after a warm-up pass (${figures.map((f) => `×${f.copies}: ${f.route.calls} pairs, ${f.unconnected} unconnected left out`).join('; ')}). ` +
      `Searches: bench:geocoding's search mix (seed ${QUERY_SEED}, ${largest.found.total} queries) made from the single copy's index and sent to both ` +
      `(every copy holds the same names, so the largest dataset has up to ×${largest.copies} candidates per name); all answered 200 ` +
      `(with features: ${figures.map((f) => `×${f.copies} ${f.found.found}/${f.found.total}`).join(', ')}); ` +
      `${WARMUP_S} s warm-up, then ${durationS} s of \`wrk -t1 -c1 --latency\` (${figures.map((f) => `×${f.copies}: ${f.searchRequests} requests`).join(', ')}). ` +
      `Engine: the same searches in-process (bench/geocoding/engine-baseline.js), ${durationS} s after a warm-up pass.`,
  ];
}
