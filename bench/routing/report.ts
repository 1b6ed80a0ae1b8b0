/** The Markdown sections of the routing benchmark's report, with the aims of issue 5. */
import type { CommandMeasurement } from '../lib/measure-command.js';
import { gnuTimeAvailable } from '../lib/measure-command.js';
import type { loadSettings, Summary } from '../lib/load.js';
import { fmtInt, fmtMiB, fmtMs, fmtPct, fmtSeconds, fmtUs, markdownTable } from '../lib/report.js';
import type { CallTimings } from '../lib/timings.js';
import type { BareQueries } from './bare-queries.js';
import type { GraphBuild } from './builds.js';
import type { ComparedPairs, OsrmBuild, OsrmInstall } from './osrm.js';
import type { TargetFigures } from './gateway-load.js';
import type { Bounds } from './random-points.js';
import type { CheckedPaths } from './request-paths.js';
import { medianWrk, type TileScenario } from './tiles-under-load.js';

/** Issue 5's aims; `tileSlowdown`: how much slower tiles may be while routing is saturated and still count as not degraded. */
const AIMS = { bareRouteP50Ms: 1, requestP50Ms: 5, isochrone15P50Ms: 100, tileSlowdown: 2 } as const;
const verdict = (ok: boolean) => (ok ? '**PASS**' : '**MISS**');
const na = (value: number | null, fmt: (n: number) => string) => (value === null ? 'n/a' : fmt(value));
const p50p99 = (t: { p50: number; p99: number }) => `${fmtMs(t.p50)} / ${fmtMs(t.p99)}`;

export function buildSection(osm: string, builds: GraphBuild[], imported: CommandMeasurement, importedBytes: number[]): string[] {
  const commandCells = (m: CommandMeasurement) => [
    fmtSeconds(m.wallS),
    na(m.cpuS, fmtSeconds),
    fmtMiB(m.peakTreeRssBytes),
    na(m.maxProcessRssBytes, fmtMiB),
  ];
  const rows = builds.map((b) => [
    b.mode,
    ...commandCells(b.command),
    fmtSeconds(b.readSeconds),
    fmtSeconds(b.stats.seconds),
    fmtInt(b.stats.nodes),
    fmtInt(b.stats.edges),
    fmtInt(b.stats.shortcuts),
    fmtInt(b.stats.core),
    fmtInt(b.stats.excludable),
    fmtInt(b.stats.overlayEdges),
    fmtMiB(b.stats.bytes),
  ]);
  rows.push([
    '`waymark import --osm` (all modes, tiles, geocoder)',
    ...commandCells(imported),
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    `${fmtMiB(importedBytes.reduce((a, b) => a + b, 0))} (${importedBytes.map((n) => fmtMiB(n)).join(' + ')})`,
  ]);
  return [
    '## Graph build',
    '',
    `\`${osm.replace(/^.*\//, '')}\`. Each mode's graph is built alone by \`bench/routing/build-graph.ts\` in a child process: ` +
      "the road networks of all modes read in one osmium pass (as an import does), then this mode's edge-based graph, " +
      'contraction hierarchy and file. Then the whole import into a fresh data folder (served below). ' +
      'One run each, after waiting for a quiet machine. Peak RSS, process tree: sampled from /proc every 100 ms (Node and osmium); ' +
      (gnuTimeAvailable() ? 'largest process and CPU time: GNU time.' : 'GNU time is not installed: no CPU time nor per-process peak.') +
      ' Nodes: edge-based nodes the mode may travel (segment directions); edges: turns; shortcuts: added by the contraction; core: nodes left uncontracted; ' +
      'excludable: nodes of a road class a route may exclude (contracted last); overlay: their edges kept for routes that exclude some (docs/ROUTING-ENGINE.md).',
    '',
    markdownTable(
      [
        'Mode',
        'wall time',
        'CPU time',
        'peak RSS, tree',
        'peak RSS, largest process',
        'read networks',
        'build + write graph',
        'nodes',
        'edges',
        'shortcuts',
        'core',
        'excludable',
        'overlay',
        'graph file',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  ];
}

const timingCells = (t: CallTimings) => [fmtMs(t.p50), fmtMs(t.p90), fmtMs(t.p99), fmtInt(t.perSecond)];

export function bareSection(bare: BareQueries[], bounds: Bounds, settings: { pairs: number; centres: number; seed: number }): string[] {
  const box = [bounds.west, bounds.south, bounds.east, bounds.north].map((v) => v.toFixed(4)).join(', ');
  const calls = bare.flatMap((b) => [
    [b.mode, 'snap (one point)', fmtInt(b.snap.calls), ...timingCells(b.snap)],
    [b.mode, '**route** (hierarchy search + leg)', fmtInt(b.route.calls), ...timingCells(b.route)],
    [b.mode, 'directions answer (2 snaps, route, OSRM body with steps)', fmtInt(b.directions.calls), ...timingCells(b.directions)],
    [b.mode, 'match answer (100-point trace: candidates, HMM, legs, OSRM body with steps)', fmtInt(b.match.calls), ...timingCells(b.match)],
    ...b.trips.map((trip) => [
      b.mode,
      `trip ${trip.points} points (snaps, travel-time table, visit order, legs, OSRM body with steps)`,
      fmtInt(trip.timings.calls),
      ...timingCells(trip.timings),
    ]),
    ...b.isochrones.map((i) => [
      b.mode,
      `isochrone ${i.minutes} min (snap, reach, contours)`,
      fmtInt(i.timings.calls),
      ...timingCells(i.timings),
    ]),
  ]);
  const exclusionRows = bare.flatMap((b) =>
    b.excluding.map((e) => [
      b.mode,
      `exclude=${e.classes.join(',')}`,
      fmtMs(b.route.p50),
      fmtMs(e.route.p50),
      fmtMs(e.route.p99),
      fmtInt(e.pairs),
      fmtMs(e.viewMs),
    ]),
  );
  const driving = bare.find((b) => b.mode === 'driving')!;
  const iso15 = driving.isochrones.find((i) => i.minutes === 15)!.timings;
  return [
    '## Bare engine (baseline: no HTTP, no pool)',
    '',
    `The graph files of the import loaded in the benchmark process; each call timed alone on one thread after a warm-up pass over the same inputs. ` +
      `Points: ${2 * settings.pairs} uniform random positions (seed ${settings.seed}) in the box of the central 98 % of the road network's points in each axis (${box}; whole ways reach beyond the extract), ` +
      `taken as ${settings.pairs} origin–destination pairs; timed: pairs where both snap within 2 km and the network connects them ` +
      `(${bare.map((b) => `${b.mode} ${b.pairs.length}, and ${b.unconnected} more that snap but are not connected`).join('; ')}; ` +
      'snap is timed on every position). ' +
      `Isochrone centres: ${settings.centres} more random positions (those that snap). ` +
      'Match traces: the routes of consecutive timed pairs joined end to start, sampled every 30–60 m with 5–15 m of seeded noise, 100 points each. ' +
      `Trips: round trips over 10 or 25 consecutive points of the timed pairs, each set one point further (at most 40 of each size), among the points all reachable from one another. ` +
      'Calls/s: back to back on one thread.',
    '',
    markdownTable(['Mode', 'call', 'calls', 'p50', 'p90', 'p99', 'calls/s'], calls, ['l', 'l', 'r', 'r', 'r', 'r', 'r']),
    '',
    `- Bare driving query p50 (aim < ${AIMS.bareRouteP50Ms} ms): ${fmtMs(driving.route.p50)}: ${verdict(driving.route.p50 < AIMS.bareRouteP50Ms)}`,
    `- Bare 15-minute driving isochrone p50 (for the aim below): ${fmtMs(iso15.p50)}`,
    `- Bare match p50 of a 100-point trace beside a plain route: ${bare.map((b) => `${b.mode} ${fmtMs(b.match.p50)} (route ${fmtMs(b.route.p50)}, directions answer ${fmtMs(b.directions.p50)})`).join('; ')}`,
    '',
    "Route with road classes excluded (OSRM's `exclude`, Waymark's `avoid`) beside the plain route: the same positions, " +
      "pairs that snap off the excluded roads and connect without them; view: making the exclusion's graph view on first use (once per class set and thread).",
    '',
    markdownTable(['Mode', 'exclude', 'route p50, plain', 'route p50, excluding', 'p99, excluding', 'pairs', 'view'], exclusionRows, [
      'l',
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
    ]),
  ];
}

export function gatewaySection(
  figures: TargetFigures[],
  requests: ({ request: string } & CheckedPaths)[],
  load: ReturnType<typeof loadSettings>,
  bare: BareQueries[],
): string[] {
  const rows = figures.map(({ target, light, saturated }) => [
    target.request,
    String(target.threads),
    p50p99(light),
    fmtMs(light.p90),
    fmtInt(light.rps),
    fmtInt(saturated.rps),
    fmtMs(saturated.p50),
    fmtMs(saturated.p90),
    fmtMs(saturated.p99),
    na(saturated.cpuUse, fmtPct),
    na(saturated.cpuPerReq, fmtUs),
    saturated.perRound,
  ]);
  const find = (request: string, threads: number) => figures.find((f) => f.target.request === request && f.target.threads === threads)!;
  const threadCounts = [...new Set(figures.map((f) => f.target.threads))];
  const [one, many] = [threadCounts[0]!, threadCounts.at(-1)!];
  const scaling = requests.map(
    (r) => `${r.request} ${(find(r.request, many).saturated.rps / find(r.request, one).saturated.rps).toFixed(2)}×`,
  );
  const drivingLight = threadCounts.map((t) => find('directions driving', t).light);
  const isoLight = threadCounts.map((t) => find('isochrone driving 15 min', t).light);
  const worst = (list: Summary[]) => Math.max(...list.map((s) => s.p50));
  const drivingBare = bare.find((b) => b.mode === 'driving')!;
  return [
    '## Through the gateway: `waymark serve --threads 1` and `--threads N`',
    '',
    `Both servers on the imported data folder at once (not pinned), an Enterprise key with scopes maps and routing as \`?key=\`, ` +
      "access log to /dev/null. Request lists: the bare part's pairs as `/api/v1/directions?origin=…&destination=…&mode=…&steps=true`, " +
      'and its isochrone centres as `/api/v1/isochrone?center=…&time=15&mode=driving`; every request was sent once first, ' +
      `and only those answered 200 are in the list (${requests.map((r) => `${r.request}: ${r.ok.length} (${r.unroutable} answered 422)`).join('; ')}); ` +
      'none answered otherwise. wrk cycles through the list with a Lua script.',
    `Median of ${load.rounds} interleaved round(s); per round and target: ${load.warmupS} s warm-up, then ${load.durationS} s of \`wrk -t1 --latency\`, ` +
      `first with 1 connection (one request at a time: the latency of an idle server), then with ${load.connections} (saturation). ` +
      'Server CPU: all its threads, over the saturated runs (200 % = two cores).',
    '',
    markdownTable(
      [
        'Request',
        'pool threads',
        '1 conn: p50 / p99',
        '1 conn: p90',
        '1 conn: req/s',
        `${load.connections} conns: req/s`,
        'p50',
        'p90',
        'p99',
        'server CPU',
        'server CPU per request',
        'req/s per round',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    `- Scaling of saturated req/s from ${one} to ${many} pool threads: ${scaling.join(', ')}.`,
    `- Full driving request p50 on an idle server (aim < ${AIMS.requestP50Ms} ms): ` +
      `${threadCounts.map((t, i) => `--threads ${t} ${fmtMs(drivingLight[i]!.p50)}`).join(', ')} ` +
      `(bare route ${fmtMs(drivingBare.route.p50)}, bare answer ${fmtMs(drivingBare.directions.p50)}): ${verdict(worst(drivingLight) < AIMS.requestP50Ms)}`,
    `- 15-minute driving isochrone p50 through the gateway (aim < ${AIMS.isochrone15P50Ms} ms): ` +
      `${threadCounts.map((t, i) => `--threads ${t} ${fmtMs(isoLight[i]!.p50)}`).join(', ')}: ${verdict(worst(isoLight) < AIMS.isochrone15P50Ms)}`,
  ];
}

export function tileSection(
  scenarios: TileScenario[],
  tileCount: number,
  connections: number,
  threads: number,
  load: ReturnType<typeof loadSettings>,
): string[] {
  const alone = medianWrk(scenarios[0]!.tiles);
  const rows = scenarios.map((s) => {
    const t = medianWrk(s.tiles);
    const b = s.background.length ? medianWrk(s.background) : null;
    return [
      s.name,
      fmtInt(t.rps),
      fmtMs(t.p50),
      fmtMs(t.p99),
      `${(t.p50 / alone.p50).toFixed(2)}× / ${(t.p99 / alone.p99).toFixed(2)}×`,
      b ? `${fmtInt(b.rps)} req/s, p50 ${fmtMs(b.p50)}` : '',
    ];
  });
  const loaded = scenarios.slice(1).map((s) => ({ name: s.name, t: medianWrk(s.tiles) }));
  const ok = loaded.every(({ t }) => t.p50 <= AIMS.tileSlowdown * alone.p50 && t.p99 <= AIMS.tileSlowdown * alone.p99);
  return [
    `## Front end while routing: tile latency of \`--threads ${threads}\``,
    '',
    `${tileCount} stored z10–14 tiles of the import, \`wrk -t1 -c${connections}\` (a moderate load) with \`Accept-Encoding: gzip\`, ` +
      `alone and while a second wrk (-c${load.connections}) saturates the same server's routing; ${load.rounds} interleaved round(s), ` +
      `${load.warmupS} s warm-up then ${load.durationS} s per scenario; medians over the rounds. ` +
      'Nothing is pinned: on a small machine the pool threads, the event loop and both wrk processes share the cores.',
    '',
    markdownTable(['Tiles', 'tiles/s', 'p50', 'p99', 'p50 / p99 vs alone', 'the routing load meanwhile'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
      'l',
    ]),
    '',
    `- Tile latency while routing is saturated (aim: no degradation; counted as p50 and p99 within ${AIMS.tileSlowdown}× of alone): ` +
      `${loaded.map(({ name, t }) => `${name}: p50 ${(t.p50 / alone.p50).toFixed(2)}×, p99 ${(t.p99 / alone.p99).toFixed(2)}×`).join('; ')}: ${verdict(ok)}`,
  ];
}

/** Part 5's outcome: the figures, or why OSRM was not measured. */
export type AgainstOsrm = { missing: string } | { osrm: OsrmInstall; build: OsrmBuild; pairs: ComparedPairs; figures: TargetFigures[] };

export function osrmSection(against: AgainstOsrm, load: ReturnType<typeof loadSettings>): string[] {
  const title = '## Against OSRM: osrm-routed beside `waymark serve`';
  if ('missing' in against) {
    return [title, '', `Not measured: ${against.missing}. docs/BENCHMARKS.md says how to build OSRM for this part.`, ''];
  }
  const { osrm, build, pairs, figures } = against;
  const buildRow = (name: string, m: CommandMeasurement) => [name, fmtSeconds(m.wallS), na(m.cpuS, fmtSeconds), fmtMiB(m.peakTreeRssBytes)];
  const rows = figures.map(({ target, light, saturated }) => [
    target.request,
    p50p99(light),
    fmtInt(light.rps),
    fmtInt(saturated.rps),
    p50p99(saturated),
    na(saturated.cpuPerReq, fmtUs),
    saturated.perRound,
  ]);
  const rps = (request: string) => figures.find((f) => f.target.request === request)!.saturated.rps;
  const ratio = (connection: string) => (rps(`waymark serve, ${connection}`) / rps(`osrm-routed, ${connection}`)).toFixed(2);
  return [
    title,
    '',
    `osrm-routed ${osrm.version} (\`--algorithm CH --threads ${figures[0]!.target.threads}\`), on the same extract built with OSRM's car.lua, ` +
      `beside the N-thread \`waymark serve\` above. Both get the bare part's driving pairs as OSRM route requests with \`steps=true\` ` +
      `(Waymark's under \`/api/v1/osrm\` with the key); the ${fmtInt(pairs.routed.length)} pairs both answered 200 are measured ` +
      `(${pairs.onlyWaymark} routed by Waymark only, ${pairs.onlyOsrm} by OSRM only). Each with keep-alive and with a new ` +
      `connection per request (\`Connection: close\`: wrk reconnects after each answer), ${load.rounds} interleaved round(s) of ` +
      `${load.durationS} s on 1 connection, then on ${load.connections}.`,
    '',
    markdownTable(
      ['OSRM build', 'wall', 'CPU', 'peak RSS'],
      [buildRow('osrm-extract -p car.lua', build.extract), buildRow('osrm-contract', build.contract)],
      ['l', 'r', 'r', 'r'],
    ),
    '',
    markdownTable(
      [
        'Server, connections',
        '1 conn: p50 / p99',
        '1 conn: req/s',
        `${load.connections} conns: req/s`,
        'p50 / p99',
        'server CPU per request',
        'req/s per round',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    `Waymark's saturated routes/s over OSRM's: ${ratio('keep-alive')}× with keep-alive, ${ratio('new connection per request')}× with a new connection per request.`,
    '',
  ];
}
