/**
 * Every input of an import is checked before any work: a bad one — missing, a folder or a pipe,
 * not OSM data, an OpenAddresses CSV without its columns, a folder that is not Who's On First, a
 * file that is no DEM Waymark reads (a wrong size or name, a broken zip, a GeoTIFF in another
 * coordinate system or of image bands), a URL that does not answer — fails the import before anything but "checking inputs" has been
 * reported, and a failed import leaves the data folder as it found it (a fresh one is not there).
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { isBadInput, runImport, type ImportInputs } from '../data-pipeline/index.js';
import { downloadLabel } from '../data-pipeline/download.js';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { MONACO_DEM, writeGeoTiff, type GeoTiffSpec } from './helpers/dem.js';
import { dataTest } from './helpers/shared-data.js';

const TOWN = join(PACKAGE_ROOT, 'test', 'fixtures', 'osm', 'town.osm');

/**
 * Serves town.osm, a web page where an extract should be (also under any `/hostile/` name), an
 * extract that breaks off halfway, and 404 for anything else.
 */
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
    else if (req.url === '/login.osm.pbf' || req.url?.startsWith('/hostile/'))
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Please sign in</body></html>');
    else if (req.url === '/broken.osm.pbf' && req.method === 'GET') {
      res.writeHead(200, { 'content-length': 100_000 }).write('x'.repeat(1000));
      setImmediate(() => res.destroy());
    } else if (req.url === '/broken.osm.pbf') res.writeHead(200).end();
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

function write(dir: string, name: string, content: string | Uint8Array): string {
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
  const beside = scratch(t);
  const dataDir = join(beside, 'data');
  const phases = new Set<string>();
  const error = await t.throwsAsync(runImport({ dataDir, osm: [], world: false, ...inputs }, (progress) => phases.add(progress.phase)));
  if (typeof message === 'string') t.is(error?.message, message);
  else t.regex(error?.message ?? '', message);
  t.deepEqual(
    [...phases].filter((phase) => phase !== 'checking inputs' && !allowed.includes(phase)),
    [],
    'no work before the error',
  );
  t.deepEqual(readdirSync(beside), [], 'the data folder is not left behind, nor anything beside it');
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

test('a download is named by the server, never by its URL: nothing lands beside the data folder, and no partial file stays', async (t) => {
  // Last segments decoding to `..` (once the data folder itself, its partial file `<data>.part` beside it), and to a path.
  for (const segment of ['..%2F', '%2e%2e%2f', '%2e%2e', 'a%2F..%2F..%2Fx', '..%5C']) {
    const url = `${filesUrl}/hostile/x/${segment}`;
    await failsEarly(t, { osm: [url] }, /: not an OSM file \(osmium: \S/, [`downloading ${downloadLabel(url)}`]);
  }
  const broken = `${filesUrl}/broken.osm.pbf`;
  await failsEarly(t, { osm: [broken] }, new RegExp(`^cannot download ${broken}: `), ['downloading broken.osm.pbf']);
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

/** A small GeoTIFF of one band of float32 metres in EPSG:4326, unless `spec` says otherwise. */
const geoTiff = (dir: string, name: string, spec: Partial<GeoTiffSpec> = {}) =>
  writeGeoTiff(join(dir, name), { width: 4, height: 3, west: 7.0005, north: 43.9995, step: [0.001, 0.001], value: () => 12, ...spec });

dataTest('files that are no DEM Waymark reads are bad input, named with the reason', [MONACO_DEM], async (t) => {
  const dir = scratch(t);
  const srtm = readFileSync(MONACO_DEM);
  const tile = new Uint8Array(1201 * 1201 * 2);
  const noDem = join(dir, 'no-dem');
  mkdirSync(noDem);
  write(noDem, 'readme.txt', 'elevation comes later');
  const badInside = join(dir, 'tiles');
  mkdirSync(join(badInside, 'north'), { recursive: true });
  write(badInside, 'N43E007.hgt', tile);
  write(join(badInside, 'north'), 'N44E007.hgt', new Uint8Array(1000));
  const sizes = '2,884,802 bytes (1201 × 1201) or 25,934,402 bytes (3601 × 3601)';
  const checks: [string, string | RegExp][] = [
    ['/nowhere/N43E007.hgt', 'cannot read /nowhere/N43E007.hgt: no such file'],
    [
      write(dir, 'N43E007.hgt', new Uint8Array(1000)),
      /^cannot read .*N43E007\.hgt: 1,000 bytes is not the size of an SRTM tile: 2,884,802 bytes \(1201 × 1201\) or 25,934,402 bytes \(3601 × 3601\)$/,
    ],
    [
      write(dir, 'tile.hgt', tile),
      /^cannot read .*tile\.hgt: its name does not give the tile's south-west corner, as SRTM names them \(e\.g\. N43E007\.hgt\)$/,
    ],
    [write(dir, 'N91E007.hgt', tile), /N91E007\.hgt: its name does not give the tile's south-west corner/],
    [
      write(dir, 'S01W180.hgt.zip', 'a page saying the file moved'),
      /^cannot read .*S01W180\.hgt\.zip: not a zip archive \(no end of central directory; truncated or another format\)$/,
    ],
    [
      write(dir, 'N43E008.hgt.zip', srtm.subarray(0, srtm.length >> 1)),
      /N43E008\.hgt\.zip: not a zip archive \(no end of central directory; truncated/,
    ],
    [write(dir, 'N43E009.hgt.zip', zipSync({ 'readme.txt': new Uint8Array(10) })), /N43E009\.hgt\.zip: the zip holds no \.hgt file$/],
    [
      write(dir, 'N43E010.hgt.zip', zipSync({ 'N43E010.hgt': new Uint8Array(100) })),
      new RegExp(`N43E010.hgt.zip: 100 bytes is not the size of an SRTM tile: ${sizes.replace(/[()×]/g, '.')}$`),
    ],
    [
      write(dir, 'dem.png', 'not a DEM'),
      /dem\.png: not a DEM: Waymark reads SRTM tiles \(\.hgt, \.hgt\.zip\) and GeoTIFF elevation rasters \(\.tif, \.tiff\)$/,
    ],
    [write(dir, 'picture.tif', 'GIF89a, not a TIFF'), /picture\.tif: not a TIFF file \(/],
    [
      geoTiff(dir, 'utm.tif', { crs: { epsg: 32632, projected: true }, west: 500000, north: 4800000, step: [30, 30] }),
      /utm\.tif: it is in EPSG:32632; elevation rasters must be in EPSG:4326 \(longitude\/latitude\); reproject it first, e\.g\. gdalwarp -t_srs EPSG:4326 in\.tif out\.tif$/,
    ],
    [geoTiff(dir, 'nad83.tif', { crs: { epsg: 4269 } }), /nad83\.tif: it is in EPSG:4269; elevation rasters must be in EPSG:4326/],
    [geoTiff(dir, 'photo.tif', { bands: 3, array: Uint8Array }), /photo\.tif: it has 3 bands \(an image\?\); an elevation raster has one$/],
    [
      geoTiff(dir, 'grey.tif', { array: Uint8Array }),
      /grey\.tif: its samples are 8-bit \(an image\?\); elevations are 16-, 32- or 64-bit numbers$/,
    ],
    [
      geoTiff(dir, 'beyond.tif', { west: 181 }),
      /beyond\.tif: its extent \(181, .*\) is not within longitude -180\.\.180 and latitude -90\.\.90$/,
    ],
    [noDem, `cannot read ${noDem}: the folder holds no DEM files (.hgt, .hgt.zip, .tif or .tiff)`],
    [badInside, `cannot read ${join(badInside, 'north', 'N44E007.hgt')}: 1,000 bytes is not the size of an SRTM tile: ${sizes}`],
  ];
  for (const [dem, message] of checks) t.true(isBadInput(await failsEarly(t, { dem: [dem] }, message)), String(message));
  // Beside good inputs too, before their work.
  await failsEarly(t, { osm: [TOWN], dem: [MONACO_DEM, join(dir, 'tile.hgt')] }, /tile\.hgt: its name does not give/);
});

dataTest(
  'an SRTM zip corrupt inside fails in the elevation step, before the tiles, as bad input, and leaves nothing',
  [MONACO_DEM],
  async (t) => {
    const dir = scratch(t);
    const zip = Buffer.from(readFileSync(MONACO_DEM));
    for (let at = 10_000; at < 10_064; at++) zip[at] = 0xff - zip[at]!; // the deflate stream, not the directory
    const corrupt = write(dir, 'N43E007.hgt.zip', zip);
    const error = await failsEarly(t, { osm: [TOWN], dem: [corrupt] }, /^cannot read N43E007\.hgt\.zip: N43E007\.hgt is corrupt \(/, [
      'scanning town.osm',
      'elevation',
    ]);
    t.true(isBadInput(error));
  },
);

test('nothing to import is bad input', async (t) => {
  t.true(isBadInput(await failsEarly(t, {}, /^nothing to import/)));
});
