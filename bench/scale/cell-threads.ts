/**
 * The contraction of one big road component with its cells on 1 thread and on more (issue 27,
 * data-pipeline/routing/graph/cell-threads.ts): a joined grid of copies of an extract (one road
 * network, grid-extract.ts; cached in bench/results/scale/inputs/) read once, then each mode's
 * contraction alone (as writeRoutingGraph's contractNetwork runs it) timed with the thread counts
 * taking turns, round after round, so that a machine shared with other work loads both alike. Prints
 * per run the wall time and the process's CPU time (all its threads), of the whole contraction and of
 * its round of cells, the cells the helpers took, and the load average; and checks that every run
 * gives the same hierarchy.
 *
 *   node dist/bench/scale/cell-threads.js [--copies 64] [--base ../shared/data/osm/monaco.osm.pbf] [--modes walking,cycling,driving] [--threads 1,2] [--rounds 2]
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { TRAVEL_MODES, type TravelMode } from '../../core/routing/network.js';
import { buildEdgeBasedGraph } from '../../data-pipeline/routing/graph/edge-based.js';
import { CellThreads } from '../../data-pipeline/routing/graph/cell-threads.js';
import { spatialKeys } from '../../data-pipeline/routing/graph/cells.js';
import { type CellRunner, cellsHere, contractHierarchy } from '../../data-pipeline/routing/graph/contract.js';
import { excludableNodes } from '../../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../../data-pipeline/routing/osm-network.js';
import { RESULTS_DIR } from '../lib/report.js';
import { gridExtract } from './grid-extract.js';

const flags = new Map<string, string>();
for (let i = 2; i + 1 < process.argv.length; i += 2) flags.set(process.argv[i]!, process.argv[i + 1]!);
const copies = Number(flags.get('--copies') ?? 64);
const base = resolve(flags.get('--base') ?? join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'monaco.osm.pbf'));
const modes = (flags.get('--modes') ?? 'walking,cycling,driving').split(',') as TravelMode[];
const threadCounts = (flags.get('--threads') ?? '1,2').split(',').map(Number);
const rounds = Number(flags.get('--rounds') ?? 2);
if (!(copies >= 1) || !(rounds >= 1) || modes.some((mode) => !TRAVEL_MODES.includes(mode)) || threadCounts.some((n) => !(n >= 1))) {
  console.error('usage: cell-threads.js [--copies N] [--base FILE] [--modes walking,cycling,driving] [--threads 1,2] [--rounds N]');
  process.exit(2);
}

mkdirSync(join(RESULTS_DIR, 'scale', 'inputs'), { recursive: true });
const input = join(RESULTS_DIR, 'scale', 'inputs', `${basename(base, '.osm.pbf')}-x${copies}-joined.osm.pbf`);
await gridExtract(base, copies, input, true);
const networks = await readRoadNetworks([input], () => undefined);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
console.log(`${basename(input)}; load before: ${load()}`);
console.log(
  '| mode | threads | round | wall s | CPU s | cells: wall s | cells: CPU s | cells on helpers | shortcuts | core | load (1, 5, 15 min) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
/** Wall and CPU seconds (the process's, all threads) of `run`. */
function timed<T>(run: () => T): { value: T; wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const { user, system } = process.cpuUsage(cpu);
  return { value, wall: (performance.now() - started) / 1000, cpu: (user + system) / 1e6 };
}

for (const mode of modes) {
  const network = networks[mode];
  const edgeBased = buildEdgeBasedGraph(network);
  const excludable = excludableNodes(network, edgeBased);
  const spatialKey = spatialKeys(network, edgeBased);
  let first: string | undefined;
  for (let round = 1; round <= rounds; round++) {
    for (const threads of threadCounts) {
      // As contractNetwork runs it, with the cells' round timed apart: the part the helpers share.
      const helpers = threads > 1 ? new CellThreads(threads - 1) : undefined;
      const runner = helpers?.run ?? cellsHere;
      let cells = { wall: 0, cpu: 0 };
      const cellsTimed: CellRunner = (...args) => {
        const { wall, cpu } = timed(() => runner(...args));
        cells = { wall: cells.wall + wall, cpu: cells.cpu + cpu };
      };
      const whole = timed(() => {
        try {
          return contractHierarchy(edgeBased, undefined, { excludable, spatialKey, cells: cellsTimed });
        } finally {
          helpers?.close();
        }
      });
      const hierarchy = whole.value;
      const shape = `${hierarchy.up.shortcuts + hierarchy.down.shortcuts} | ${hierarchy.core}`;
      first ??= shape;
      if (shape !== first) throw new Error(`${mode}, ${threads} threads: shortcuts | core ${shape}, not ${first} as the first run`);
      const figures = [whole.wall, whole.cpu, cells.wall, cells.cpu].map((seconds) => seconds.toFixed(1)).join(' | ');
      console.log(`| ${mode} | ${threads} | ${round} | ${figures} | ${helpers?.sent ?? 0} | ${shape} | ${load()} |`);
    }
  }
}
