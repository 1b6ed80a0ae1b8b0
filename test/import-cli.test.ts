/**
 * `waymark import` as operators run it: the built bin/waymark.js in a child process, with its
 * usage errors, a one-line failure (a JSON object with --json), plain progress lines on a pipe,
 * `--json`, an unsorted extract, and Ctrl-C; and its progress bar on a terminal.
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths, type DatasetManifest } from '../core/dataset-layout.js';
import { progressDisplay } from '../src/cli/progress.js';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { spawnWaymark, waymark } from './helpers/cli.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const UNSORTED = join(PACKAGE_ROOT, 'test', 'fixtures', 'osm', 'unsorted.osm');

function dataFolder(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-import-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('without any input it is a usage error', async (t) => {
  const run = await waymark(['import', '--data', dataFolder(t)]);
  t.is(run.code, 2);
  t.regex(
    run.stderr,
    /^waymark: name at least one input: --osm FILE_OR_URL, --wof DIR, --oa FILE_OR_URL, --dem FILE_OR_DIR, --geonames or --world/,
  );
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

test('a file that is not OSM data fails at once: its error is the only line, and a fresh data folder is not created', async (t) => {
  const folder = dataFolder(t);
  const notOsm = join(folder, 'notes.osm.pbf');
  writeFileSync(notOsm, 'shopping list: bread, milk\n'.repeat(20));
  const data = join(folder, 'data');
  const run = await waymark(['import', '--data', data, '--osm', notOsm, '--world']);
  t.is(run.code, 1);
  t.regex(run.stderr, /^waymark: cannot read \S+notes\.osm\.pbf: not an OSM file \(osmium: [^\n]+\)\n$/);
  t.false(existsSync(data));
});

test('with --json, an error is one JSON object on stderr, with the exit status', async (t) => {
  const data = dataFolder(t);
  const failed = await waymark(['import', '--data', data, '--osm', '/nowhere/x.osm.pbf', '--json']);
  t.is(failed.code, 1);
  t.is(failed.stdout, '');
  t.deepEqual(JSON.parse(failed.stderr), { error: { message: 'cannot read /nowhere/x.osm.pbf: no such file', exitCode: 1 } });
  t.is(failed.stderr.split('\n').length, 2, 'one line');
  const usage = await waymark(['import', '--data', data, '--json']);
  t.is(usage.code, 2);
  t.like(JSON.parse(usage.stderr), { error: { exitCode: 2 } });
});

test('an extract not sorted by type and id is sorted in the build folder, with progress, and nothing of it is left', async (t) => {
  const data = dataFolder(t);
  const run = await waymark(['import', '--data', data, '--osm', UNSORTED, '--json']);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /^sorting unsorted\.osm: [\d.]+\/[\d.]+ MB \(100%\)$/m);
  const result = JSON.parse(run.stdout) as { datasetId: string; dir: string; places: number };
  t.deepEqual(readdirSync(paths.datasets(data)), [result.datasetId], 'no build folder is left');
  t.false(readdirSync(result.dir).includes('sorted'), 'the sorted copy is not part of the dataset');
  const manifest = JSON.parse(readFileSync(paths.manifest(result.dir), 'utf8')) as DatasetManifest;
  t.deepEqual(manifest.inputs, ['osm:unsorted.osm']);
  t.true(result.places >= 2, 'the streets and the café are in the geocoder');
});

test('SIGINT (Ctrl-C) and SIGTERM cancel the import, which cleans up, then exits with 128 + the signal', async (t) => {
  const cancelled = async (signal: NodeJS.Signals) => {
    const data = join(dataFolder(t), 'data');
    const child = spawnWaymark(['import', '--data', data, '--world', '--geonames']);
    t.teardown(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.setEncoding('utf8');
    // Signalled once the import shows progress, so the handlers are in place and work is under way.
    child.stderr.once('data', () => child.kill(signal));
    child.stderr.on('data', (chunk: string) => void (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, lastLine: stderr.trimEnd().split('\n').at(-1), left: existsSync(data) };
  };
  const [interrupted, terminated] = await Promise.all([cancelled('SIGINT'), cancelled('SIGTERM')]);
  t.deepEqual(interrupted, { code: 130, lastLine: 'waymark: the import was cancelled (SIGINT)', left: false });
  t.deepEqual(terminated, { code: 143, lastLine: 'waymark: the import was cancelled (SIGTERM)', left: false });
});

test('--help shows the flags', async (t) => {
  const run = await waymark(['import', '--help']);
  t.is(run.code, 0);
  t.regex(
    run.stdout,
    /usage: waymark import \[--osm FILE_OR_URL\]\.\.\. \[--wof DIR\]\.\.\. \[--oa FILE_OR_URL\]\.\.\. \[--dem FILE_OR_DIR\]\.\.\. \[--geonames\] \[--world\]/,
  );
});

dataTest('--osm FILE --json imports, prints the result, and shows plain progress lines on a pipe', [MONACO], async (t) => {
  const data = dataFolder(t);
  const run = await waymark(['import', '--data', data, '--osm', MONACO, '--json']);
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { datasetId: string; dir: string; tiles: number; seconds: number };
  t.is(readlinkSync(paths.current(data)), join('datasets', result.datasetId));
  t.is(result.dir, paths.dataset(data, result.datasetId));
  t.true(result.tiles > 0 && result.seconds > 0);
  t.regex(run.stderr, /^cutting tiles: ([\d.]+)\/\1 MB \(100%\)$/m);
  t.notRegex(run.stderr, /\r/, 'no bar redrawing when stderr is not a terminal');
});

test('a phase that fails before doing anything leaves no line, on a pipe or on a terminal', (t) => {
  for (const isTTY of [false, true]) {
    const written: string[] = [];
    const stream = { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const display = progressDisplay(stream);
    display.report({ phase: 'reading features', done: 0, total: null, unit: 'features' });
    display.finish();
    t.notRegex(written.join(''), /reading features.*\n/, isTTY ? 'terminal' : 'pipe');
  }
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
