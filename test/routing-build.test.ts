/**
 * The import's routing step (buildRoutingGraphs) on real extracts: the modes built side by side in
 * worker threads give the very files one thread gives, a memory budget too small for two builds
 * runs them one after the other, and an abort stops osmium while reading and the workers while building.
 */
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { TRAVEL_MODES } from '../core/routing/network.js';
import { buildRoutingGraphs } from '../data-pipeline/routing/build.js';
import type { ProgressReporter } from '../data-pipeline/progress.js';
import { descendants } from './helpers/processes.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { within } from './helpers/waits.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-routing-build-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** The mode of each graph progress report, in the order they came (one entry per run of reports of one mode). */
function modeRuns(phases: string[]): string[] {
  const runs: string[] = [];
  for (const phase of phases) {
    const mode = /^(\w+) graph: /.exec(phase)?.[1];
    if (mode !== undefined && runs[runs.length - 1] !== mode) runs.push(mode);
  }
  return runs;
}

dataTest("graphs built in parallel are the files one thread builds, with each mode's progress", [MONACO], async (t) => {
  const phases: string[] = [];
  const onProgress: ProgressReporter = (p) => phases.push(p.phase);
  const one = join(dir, 'one-thread');
  const three = join(dir, 'three-threads');
  const stats = await buildRoutingGraphs([MONACO], one, () => {}, undefined, { threads: 1 });
  const parallelStats = await buildRoutingGraphs([MONACO], three, onProgress, undefined, { threads: 3 });
  t.deepEqual(Object.keys(parallelStats), [...TRAVEL_MODES]);
  for (const mode of TRAVEL_MODES) {
    t.true(readFileSync(paths.routingGraph(three, mode)).equals(readFileSync(paths.routingGraph(one, mode))), mode);
    t.like(parallelStats[mode], {
      nodes: stats[mode].nodes,
      edges: stats[mode].edges,
      shortcuts: stats[mode].shortcuts,
      bytes: stats[mode].bytes,
    });
    t.true(phases.includes(`${mode} graph: routing graph: contraction`), mode);
  }
  t.true(phases.includes('read OSM roads'));
});

dataTest('a memory budget too small for two builds at once runs the modes one after the other', [HEIDELBERG], async (t) => {
  const phases: string[] = [];
  await buildRoutingGraphs([HEIDELBERG], join(dir, 'budget'), (p) => phases.push(p.phase), undefined, { threads: 3, memoryBytes: 1 });
  t.deepEqual([...modeRuns(phases)].sort(), [...TRAVEL_MODES].sort(), "each mode's reports in one run, not interleaved");
});

/** The ids of this process's threads: the event loop's, libuv's and V8's, and every worker thread's (a build's cells included). */
const liveThreads = () => new Set(readdirSync('/proc/self/task'));

// Serial: these two look at the process's threads and processes, which the file's other builds would change.
dataTest(
  'an abort stops the graph builds in their workers: when the step has failed, the threads that built have ended',
  [HEIDELBERG],
  async (t) => {
    // libuv starts its threads at the first file-system task: before the count, not during the build.
    await stat(dir);
    const before = liveThreads();
    const controller = new AbortController();
    const reason = new Error('stop now');
    const datasetDir = join(dir, 'aborted');
    const graphsBuilt = () => TRAVEL_MODES.filter((mode) => existsSync(paths.routingGraph(datasetDir, mode)));
    let building: string[] = [];
    let builtAtAbort: string[] = [];
    const build = buildRoutingGraphs(
      [HEIDELBERG],
      datasetDir,
      (p) => {
        // Abort once the contraction of a mode is under way.
        if (p.phase.endsWith('graph: routing graph: contraction') && p.done > 0 && !controller.signal.aborted) {
          building = [...liveThreads()].filter((id) => !before.has(id));
          builtAtAbort = graphsBuilt();
          controller.abort(reason);
        }
      },
      controller.signal,
      { threads: 2 },
    );
    await t.throwsAsync(build, { is: reason });
    t.not(building.length, 0, 'the builds ran in threads of their own');
    // Piscina ends an aborted task's thread in the background: the step has failed by then.
    await within('the threads that built to have ended', async () => {
      const live = liveThreads();
      return building.some((id) => live.has(id)) ? undefined : true;
    });
    // A build that ran on to its end would have written its graph.
    t.not(builtAtAbort.length, TRAVEL_MODES.length, 'a mode was still building');
    t.deepEqual(graphsBuilt(), builtAtAbort, 'no graph was written after the abort');
  },
  true,
);

dataTest(
  'an abort while the roads are read stops osmium: the step fails before the read ends, no network is built',
  [HEIDELBERG],
  async (t) => {
    const controller = new AbortController();
    const reason = new Error('stop reading');
    const phases: string[] = [];
    const building = buildRoutingGraphs([HEIDELBERG], join(dir, 'aborted-read'), (p) => phases.push(p.phase), controller.signal);
    setImmediate(() => controller.abort(reason));
    await t.throwsAsync(building, { is: reason });
    t.false(phases.includes('turn restrictions usable (incomplete ones skipped)'), 'the read did not finish');
    t.false(phases.includes('build road networks'));
    await within('osmium to have exited', async () =>
      descendants(process.pid).some((p) => p.command.includes('osmium') && p.state !== 'Z') ? undefined : true,
    );
  },
  true,
);
