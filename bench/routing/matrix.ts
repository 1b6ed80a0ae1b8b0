/**
 * Matrix benchmark, in the engine on one thread (no HTTP, pool or gateway): N×N matrices of random
 * points on the Heidelberg driving graph, the many-to-many bucket search (`manyToMany`, and the
 * whole `answerMatrix`: snapping + search + body) beside the baseline of N×N point-to-point
 * hierarchy searches (`searchHierarchy`, weights only, no path unpacking) in the same run.
 * OSRM's own `table` cannot be run here (no osrm-backend binary or package on this machine).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/routing/matrix.js [OSM_FILE]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeRoutingGraph } from '../../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../../data-pipeline/routing/osm-network.js';
import { answerMatrix } from '../../workers/routing/answer/matrix.js';
import { DEFAULT_SNAP_RULE } from '../../workers/routing/answer/place.js';
import { searchHierarchy } from '../../workers/routing/graph/ch-search.js';
import { edgeMetricsOf } from '../../workers/routing/graph/edge-metrics.js';
import { endpointOfSnap, type Endpoint } from '../../workers/routing/graph/endpoint.js';
import { loadRoutingGraph, openRoutingGraph } from '../../core/routing/graph-file.js';
import { manyToMany } from '../../workers/routing/graph/many-to-many.js';
import { snap } from '../../workers/routing/graph/snap.js';
import { workspaceOf } from '../../workers/routing/graph/workspace.js';
import { summarizeTimings } from '../lib/timings.js';
import { randomPositions, type Position } from './random-points.js';
import { SNAP_RADIUS_METRES } from '../../workers/routing/task.js';

const osm = process.argv[2] ?? join(process.cwd(), '..', 'shared', 'data', 'osm', 'heidelberg.osm.pbf');
/** The city, not the whole extract (which reaches Kaiserslautern). */
const CITY = { west: 8.6, south: 49.36, east: 8.78, north: 49.45 };
/** Matrix size, rounds of the bucket search, rounds of the N×N baseline (which is much slower). */
const SIZES: [number, number, number][] = [
  [10, 40, 10],
  [50, 20, 3],
  [100, 20, 2],
];

const dir = mkdtempSync(join(tmpdir(), 'waymark-bench-matrix-'));
try {
  let started = performance.now();
  const networks = await readRoadNetworks([osm], () => undefined);
  const file = join(dir, 'driving.graph');
  writeRoutingGraph(networks.driving, file);
  const graph = openRoutingGraph(loadRoutingGraph(file).shared);
  console.log(`graph built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${graph.segmentCount} segments`);
  started = performance.now();
  edgeMetricsOf(graph);
  console.log(`edge metres and times derived once per thread in ${(performance.now() - started).toFixed(0)} ms`);

  const snappedSet = (count: number, seed: number): { positions: Position[]; endpoints: Endpoint[] } => {
    const positions = randomPositions(CITY, count * 2, seed)
      .filter(([lon, lat]) => snap(graph, lon, lat, SNAP_RADIUS_METRES) !== null)
      .slice(0, count);
    return { positions, endpoints: positions.map(([lon, lat]) => endpointOfSnap(graph, snap(graph, lon, lat, SNAP_RADIUS_METRES)!)) };
  };
  const time = (run: () => void): number => {
    const t0 = performance.now();
    run();
    return performance.now() - t0;
  };
  const fmt = (ms: number) => ms.toFixed(ms < 10 ? 2 : 1);
  console.log(
    '| size | many-to-many p50 / p99 (ms) | answerMatrix (snap + search + body) p50 / p99 | N×N point-to-point p50 / p99 | speed-up (p50) |',
  );
  console.log('|---|---|---|---|---|');
  for (const [size, rounds, baselineRounds] of SIZES) {
    const sets = Array.from({ length: rounds }, (_, i) => snappedSet(size, 1000 * size + i));
    manyToMany(graph, sets[0]!.endpoints, sets[0]!.endpoints); // warm-up
    const search = summarizeTimings(sets.map((set) => time(() => manyToMany(graph, set.endpoints, set.endpoints))));
    const whole = summarizeTimings(
      sets.map((set) => {
        const params = {
          sources: set.positions,
          destinations: set.positions,
          mode: 'driving' as const,
          annotations: ['duration' as const, 'distance' as const],
          sourceRules: set.positions.map(() => DEFAULT_SNAP_RULE),
          destinationRules: set.positions.map(() => DEFAULT_SNAP_RULE),
          avoid: 0,
        };
        return time(() => answerMatrix(graph, params));
      }),
    );
    const workspace = workspaceOf(graph);
    const baseline = summarizeTimings(
      sets.slice(0, baselineRounds).map((set) =>
        time(() => {
          for (const from of set.endpoints) for (const to of set.endpoints) searchHierarchy(graph, workspace, from, to);
        }),
      ),
    );
    console.log(
      `| ${size}×${size} | ${fmt(search.p50)} / ${fmt(search.p99)} (${rounds} runs) | ${fmt(whole.p50)} / ${fmt(whole.p99)} | ${fmt(baseline.p50)} / ${fmt(baseline.p99)} (${baselineRounds} runs) | ${(baseline.p50 / search.p50).toFixed(0)}× |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
