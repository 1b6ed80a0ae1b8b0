/**
 * The tiler within a small memory budget, on Monaco: reading spills many runs and dense tiles are
 * split into their children's jobs, and the archive holds the same tiles with the same features
 * as one made with a roomy budget.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { osmFileSummary } from '../data-pipeline/osm/index.js';
import { writeTiles, type TilerResult } from '../data-pipeline/tiles/tiler.js';
import { decodeTile } from './helpers/vector-tiles.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const MiB = 1024 ** 2;

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-tiler-spill-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

async function tileMonaco(name: string, memoryBytes: number): Promise<{ result: TilerResult; contents: Map<string, string> }> {
  const file = join(dir, `${name}.mbtiles`);
  const { bounds } = await osmFileSummary(MONACO);
  const metadata = {
    name,
    description: name,
    attribution: '© OpenStreetMap contributors',
    bounds,
    center: [7.42, 43.74, 12] as [number, number, number],
  };
  const result = await writeTiles({ osm: [{ file: MONACO, bounds }] }, file, { memoryBytes, metadata }, () => {});
  const db = new Database(file, { readonly: true });
  const contents = new Map<string, string>();
  for (const row of db.prepare('SELECT zoom_level z, tile_column x, tile_row y, tile_data data FROM tiles').all() as {
    z: number;
    x: number;
    y: number;
    data: Buffer;
  }[]) {
    const layers = decodeTile(row.data).layers;
    const counts = Object.keys(layers)
      .sort()
      .map((layer) => `${layer}:${layers[layer]!.length}`);
    contents.set(`${row.z}/${row.x}/${row.y}`, counts.join(' '));
  }
  db.close();
  return { result, contents };
}

dataTest('a small budget spills in many runs and splits dense tiles, and the tiles hold the same features', [MONACO], async (t) => {
  const roomy = await tileMonaco('roomy', 2048 * MiB);
  const small = await tileMonaco('small', 8 * MiB);
  t.is(roomy.result.spill.splits, 0, 'with room, no job is split');
  t.true(small.result.spill.runs > 10, `runs: ${small.result.spill.runs}`);
  t.true(small.result.spill.splits > 0, 'dense tiles are split');
  t.true(small.result.spill.jobs > roomy.result.spill.jobs);
  t.deepEqual([...small.contents.keys()].sort(), [...roomy.contents.keys()].sort(), 'the same tiles');
  const differing = [...roomy.contents].filter(([tile, counts]) => small.contents.get(tile) !== counts);
  t.deepEqual(differing, [], 'the same layers and feature counts in every tile');
});
