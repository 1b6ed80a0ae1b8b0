/**
 * bench:scale's inputs (bench/scale/grid-extract.ts): copies of the real Monaco extract on a grid,
 * separate or joined by one road between each pair of neighbouring copies. Joined, the grid is one
 * road network: its biggest connected piece holds every copy's, where the separate grid's is one copy's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gridExtract } from '../bench/scale/grid-extract.js';
import { buildEdgeBasedGraph } from '../data-pipeline/routing/graph/edge-based.js';
import { weakComponents } from '../data-pipeline/routing/graph/weak-components.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');

/** The nodes of the biggest weakly connected piece of the driving network's turn graph. */
async function biggestDrivingPiece(file: string): Promise<number> {
  const networks = await readRoadNetworks([file], () => {});
  const components = weakComponents(buildEdgeBasedGraph(networks.driving));
  let biggest = 0;
  for (let c = 0; c < components.count; c++) biggest = Math.max(biggest, components.first[c + 1]! - components.first[c]!);
  return biggest;
}

const primaryWays = (file: string) =>
  spawnSync('osmium', ['cat', '-f', 'opl,add_metadata=false', file], { encoding: 'utf8', maxBuffer: 1 << 30 })
    .stdout.split('\n')
    .filter((line) => line.startsWith('w') && / Thighway=primary N/.test(line));

dataTest('a joined grid of four copies is one road network, the separate grid four', [MONACO], async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-grid-'));
  try {
    const [single, separate, joined] = ['x1', 'x4', 'x4-joined'].map((name) => join(dir, `${name}.osm.pbf`)) as [string, string, string];
    await gridExtract(MONACO, 1, single);
    await gridExtract(MONACO, 4, separate);
    await gridExtract(MONACO, 4, joined, true);

    // 2 × 2 copies: two roads across, two up, with fresh ids after the renumbered ways, in a sorted file.
    const added = primaryWays(joined).filter((line) => !primaryWays(separate).includes(line));
    t.is(added.length, 4);
    const wayCount = (file: string) =>
      Number(spawnSync('osmium', ['fileinfo', '-e', '-g', 'data.count.ways', file], { encoding: 'utf8' }).stdout);
    t.is(wayCount(joined), wayCount(separate) + 4);
    for (const line of added) t.true(Number(/^w(\d+)/.exec(line)![1]) > wayCount(separate));
    t.is(spawnSync('osmium', ['check-refs', joined]).status, 0, 'every node a joining way names exists');

    const one = await biggestDrivingPiece(single);
    t.is(await biggestDrivingPiece(separate), one);
    t.true((await biggestDrivingPiece(joined)) >= 4 * one);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
