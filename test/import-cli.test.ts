/**
 * `waymark import` as operators run it: the built bin/waymark.js in a child process, with its
 * usage errors, a one-line failure, plain progress lines on a pipe, and `--json`; and its progress
 * bar on a terminal.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../data-pipeline/dataset-layout.js';
import { progressDisplay } from '../src/cli/progress.js';
import { waymark } from './helpers/cli.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');


function dataFolder(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-import-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('without any input it is a usage error', async (t) => {
  const run = await waymark(['import', '--data', dataFolder(t)]);
  t.is(run.code, 2);
  t.regex(run.stderr, /^waymark: name at least one input: --osm FILE_OR_URL, --wof DIR, --oa FILE_OR_URL, --geonames or --world/);
});

test('a missing WOF folder or OpenAddresses file is a one-line error', async (t) => {
  const wof = await waymark(['import', '--data', dataFolder(t), '--wof', '/nowhere/wof']);
  t.is(wof.code, 1);
  t.is(wof.stderr, 'waymark: cannot read /nowhere/wof: no such folder\n');
  const oa = await waymark(['import', '--data', dataFolder(t), '--oa', '/nowhere/a.csv']);
  t.is(oa.code, 1);
  t.is(oa.stderr, 'waymark: cannot read /nowhere/a.csv: no such file\n');
});

test('a failure is one line on stderr, exit status 1, and no dataset', async (t) => {
  const data = dataFolder(t);
  const run = await waymark(['import', '--data', data, '--osm', '/nowhere/x.osm.pbf', '--world']);
  t.is(run.code, 1);
  t.is(run.stderr, 'waymark: cannot read /nowhere/x.osm.pbf: no such file\n');
  t.throws(() => readlinkSync(paths.current(data)));
});

test('--help shows the flags', async (t) => {
  const run = await waymark(['import', '--help']);
  t.is(run.code, 0);
  t.regex(run.stdout, /usage: waymark import \[--osm FILE_OR_URL\]\.\.\. \[--wof DIR\]\.\.\. \[--oa FILE_OR_URL\]\.\.\. \[--geonames\] \[--world\]/);
});

dataTest('--osm FILE --json imports, prints the result, and shows plain progress lines on a pipe', [MONACO], async (t) => {
  const data = dataFolder(t);
  const run = await waymark(['import', '--data', data, '--osm', MONACO, '--json']);
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { datasetId: string; dir: string; tiles: number; seconds: number };
  t.is(readlinkSync(paths.current(data)), join('datasets', result.datasetId));
  t.is(result.dir, paths.dataset(data, result.datasetId));
  t.true(result.tiles > 0 && result.seconds > 0);
  t.regex(run.stderr, /^tiles z14: (\d+)\/\1 tiles \(100%\)$/m);
  t.notRegex(run.stderr, /\r/, 'no bar redrawing when stderr is not a terminal');
});

test('on a terminal, progress is one bar per phase, redrawn in place', (t) => {
  const written: string[] = [];
  const terminal = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  const display = progressDisplay(terminal);
  display.report({ phase: 'downloading x.osm.pbf', done: 0, total: 2_000_000, unit: 'bytes' });
  display.report({ phase: 'downloading x.osm.pbf', done: 2_000_000, total: 2_000_000, unit: 'bytes' });
  display.report({ phase: 'tiles z3', done: 16, total: 64, unit: 'tiles' });
  display.finish();
  const screen = written.join('');
  t.true(screen.includes('\r\x1b[Kdownloading x.osm.pbf [------------------------------] 0% 0.0/2.0 MB'));
  t.true(screen.includes('\r\x1b[Kdownloading x.osm.pbf [##############################] 100% 2.0/2.0 MB\n'));
  t.true(screen.endsWith('\r\x1b[Ktiles z3 [########----------------------] 25% 16/64 tiles\n'));
});
