/**
 * The import's routing step (buildRoutingGraphs) on real extracts: the modes built side by side in
 * worker threads give the very files one thread gives, a memory budget too small for two builds
 * runs them one after the other, and an abort stops osmium while reading and the workers while building.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { TRAVEL_MODES } from '../core/routing/network.js';
import { buildRoutingGraphs } from '../data-pipeline/routing/build.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import type { ProgressReporter } from '../data-pipeline/progress.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

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

dataTest('an abort stops the graph builds in their workers', [HEIDELBERG], async (t) => {
  const controller = new AbortController();
  const reason = new Error('stop now');
  let reports = 0;
  let abortedAt = 0;
  const building = buildRoutingGraphs(
    [HEIDELBERG],
    join(dir, 'aborted'),
    (p) => {
      reports++;
      // Abort once the contraction of a mode is under way.
      if (p.phase.endsWith('graph: routing graph: contraction') && p.done > 0 && !controller.signal.aborted) {
        abortedAt = Date.now();
        controller.abort(reason);
      }
    },
    controller.signal,
    { threads: 2 },
  );
  await t.throwsAsync(building, { is: reason });
  // Walking alone takes seconds to contract: a stopped build ends well before.
  t.true(Date.now() - abortedAt < 2000, `${Date.now() - abortedAt} ms after the abort`);
  const reportsAtEnd = reports;
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is(reports, reportsAtEnd, 'no worker reports progress after the build failed');
});

dataTest('an abort while the roads are read stops osmium: the step fails at once, no network is built', [HEIDELBERG], async (t) => {
  let started = Date.now();
  await readRoadNetworks([HEIDELBERG], () => {});
  const readMs = Date.now() - started;

  const controller = new AbortController();
  const reason = new Error('stop reading');
  const phases: string[] = [];
  started = Date.now();
  const building = buildRoutingGraphs([HEIDELBERG], join(dir, 'aborted-read'), (p) => phases.push(p.phase), controller.signal);
  setImmediate(() => controller.abort(reason));
  await t.throwsAsync(building, { is: reason });
  t.true(Date.now() - started < readMs / 2, `${Date.now() - started} ms, where reading takes ${readMs} ms`);
  t.false(phases.includes('build road networks'));
});
