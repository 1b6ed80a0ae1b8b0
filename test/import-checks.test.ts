/**
 * Every input of an import is checked before any work: a bad one — missing, a folder or a pipe,
 * not OSM data, an OpenAddresses CSV without its columns, a folder that is not Who's On First, a
 * URL that does not answer — fails the import before anything but "checking inputs" has been
 * reported, and a failed import leaves the data folder as it found it (a fresh one is not there).
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBadInput, runImport, type ImportInputs } from '../data-pipeline/index.js';
import { PACKAGE_ROOT } from '../core/package-root.js';

const TOWN = join(PACKAGE_ROOT, 'test', 'fixtures', 'osm', 'town.osm');

/** Serves town.osm, a web page where an extract should be, and 404 for anything else. */
let files: Server;
let filesUrl = '';
/** A port nothing listens on. */
let closedPort = 0;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
};

test.before(async () => {
  files = createServer((req, res) => {
    if (req.url === '/town.osm') res.writeHead(200).end(readFileSync(TOWN));
    else if (req.url === '/login.osm.pbf')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Please sign in</body></html>');
    else res.writeHead(404).end('not here');
  });
  filesUrl = `http://127.0.0.1:${await listen(files)}`;
  const closed = createServer();
  closedPort = await listen(closed);
  closed.close();
});

test.after.always(() => files?.close());

/** A folder for the test's inputs, removed after it. */
function scratch(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-checks-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(dir: string, name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
}

/**
 * Runs an import of `inputs` into a data folder that does not exist yet and expects it to fail
 * with `message` having reported no phase but those allowed; the folder must still not exist.
 */
async function failsEarly(
  t: ExecutionContext,
  inputs: Partial<ImportInputs>,
  message: string | RegExp,
  allowed: string[] = [],
): Promise<Error> {
  const dataDir = join(scratch(t), 'data');
  const phases = new Set<string>();
  const error = await t.throwsAsync(runImport({ dataDir, osm: [], world: false, ...inputs }, (progress) => phases.add(progress.phase)));
  if (typeof message === 'string') t.is(error?.message, message);
  else t.regex(error?.message ?? '', message);
  t.deepEqual(
    [...phases].filter((phase) => phase !== 'checking inputs' && !allowed.includes(phase)),
    [],
    'no work before the error',
  );
  t.false(existsSync(dataDir), 'the data folder is not left behind');
  return error!;
}

test('missing files, folders and pipes given as files, and files that are not OSM data are bad input', async (t) => {
  const dir = scratch(t);
  const pipe = join(dir, 'pipe.osm.pbf');
  execFileSync('mkfifo', [pipe]);
  const checks: [Partial<ImportInputs>, string | RegExp][] = [
    [{ osm: ['/nowhere/x.osm.pbf'] }, 'cannot read /nowhere/x.osm.pbf: no such file'],
    [{ osm: [dir] }, `cannot read ${dir}: a folder, not a file`],
    [{ osm: [pipe] }, `cannot read ${pipe}: not a regular file`],
    [{ oa: ['/dev/null'] }, 'cannot read /dev/null: not a regular file'],
    [
      { osm: [write(dir, 'notes.osm', 'these are notes, not XML\n')] },
      /^cannot read .*notes\.osm: not an OSM file \(osmium: XML parsing error/,
    ],
    [
      { osm: [write(dir, 'random.osm.pbf', 'not a protocol buffer '.repeat(50))] },
      /^cannot read .*random\.osm\.pbf: not an OSM file \(osmium: \S/,
    ],
    [{ osm: [write(dir, 'table.csv', 'a,b\n')] }, /^cannot read .*table\.csv: not an OSM file \(osmium: Could not detect file format/],
    [{ oa: ['/nowhere/a.csv'] }, 'cannot read /nowhere/a.csv: no such file'],
  ];
  for (const [inputs, message] of checks) t.true(isBadInput(await failsEarly(t, { world: true, ...inputs }, message)));
});

test('an OpenAddresses CSV without its columns fails before the tiles of the other inputs, not after them', async (t) => {
  const dir = scratch(t);
  const wrongHeader = write(dir, 'addresses.csv', 'X,Y,HOUSE,ROAD\n7.42,43.73,1,Rue Grimaldi\n');
  await failsEarly(
    t,
    { osm: [TOWN], world: true, oa: [wrongHeader] },
    `cannot read ${wrongHeader}: not an OpenAddresses CSV (no LON, LAT, NUMBER, STREET column)`,
  );
  const empty = write(dir, 'empty.csv', '');
  await failsEarly(t, { oa: [empty], geonames: true }, `cannot read ${empty}: not an OpenAddresses CSV (the file is empty)`);
});

test("a WOF folder must be a folder of Who's On First records", async (t) => {
  const dir = scratch(t);
  const file = write(dir, 'file.geojson', '{}');
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const notWof = join(dir, 'not-wof');
  mkdirSync(notWof);
  write(notWof, '1.geojson', JSON.stringify({ type: 'Feature', properties: { name: 'x' }, geometry: null }));
  const broken = join(dir, 'broken');
  mkdirSync(broken);
  write(broken, '1.geojson', '{"type": "Feature", ');
  const checks: [string, string | RegExp][] = [
    ['/nowhere/wof', 'cannot read /nowhere/wof: no such folder'],
    [file, `cannot read ${file}: not a folder`],
    [empty, `cannot read ${empty}: not a Who's On First folder (no .geojson files)`],
    [notWof, `cannot read ${notWof}: not a Who's On First folder (1.geojson is not a Who's On First record (no wof:id))`],
    [broken, /^cannot read .*broken: not a Who's On First folder \(1\.geojson is not a Who's On First record: .*JSON/],
  ];
  for (const [wof, message] of checks) t.true(isBadInput(await failsEarly(t, { wof: [wof], geonames: true }, message)));
});

test('URLs are asked before anything is downloaded: a 404 is bad input, an unreachable server may be retried', async (t) => {
  const gone = await failsEarly(t, { osm: [`${filesUrl}/gone.osm.pbf`] }, `cannot download ${filesUrl}/gone.osm.pbf: HTTP 404 Not Found`);
  t.true(isBadInput(gone));
  const unreachable = `http://127.0.0.1:${closedPort}/x.osm.pbf`;
  const refused = await failsEarly(t, { oa: [unreachable], geonames: true }, new RegExp(`^cannot download ${unreachable}: .*ECONNREFUSED`));
  t.false(isBadInput(refused));
  t.true(isBadInput(await failsEarly(t, { osm: ['http://'] }, 'cannot download http://: not a valid URL')));
  // A good URL first, then a bad file: nothing is downloaded.
  await failsEarly(t, { osm: [`${filesUrl}/town.osm`, '/nowhere/y.osm'] }, 'cannot read /nowhere/y.osm: no such file');
});

test('a download that is not OSM data fails before any work, and the download goes with the failed import', async (t) => {
  const url = `${filesUrl}/login.osm.pbf`;
  await failsEarly(t, { osm: [url] }, /^cannot read .*login\.osm\.pbf: not an OSM file \(osmium: \S/, ['downloading login.osm.pbf']);
});

test('a file corrupt after its header fails in the scan before the tiles; the data folder is left as it was', async (t) => {
  const dir = scratch(t);
  const truncated = write(dir, 'truncated.osm', '<osm version="0.6"><node id="1" lat="1" lon="1"></osm>');
  await failsEarly(t, { osm: [truncated] }, /^cannot read truncated\.osm: osmium fileinfo failed on .*: XML parsing error/, [
    'scanning truncated.osm',
  ]);

  const existing = join(dir, 'data');
  mkdirSync(existing);
  await t.throwsAsync(runImport({ dataDir: existing, osm: [truncated], world: false }, () => {}));
  t.deepEqual(readdirSync(existing), [], 'an existing data folder is left empty');
});

test('nothing to import is bad input', async (t) => {
  t.true(isBadInput(await failsEarly(t, {}, /^nothing to import/)));
});
