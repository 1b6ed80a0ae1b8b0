/**
 * An import's resources: the memory budget from --memory, WAYMARK_IMPORT_MEMORY or the default,
 * refused when it is no amount or too little; the disk it will need, checked against the free
 * space before the heavy steps.
 */
import test from 'ava';
import { tmpdir } from 'node:os';
import { checkDiskSpace, diskSpaceNeeded } from '../data-pipeline/disk-space.js';
import { parseMemorySize } from '../core/memory-size.js';
import { defaultImportMemory, importMemory, MIN_IMPORT_MEMORY } from '../data-pipeline/memory-budget.js';
import { waymark } from './helpers/cli.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const MONACO = sharedFile('osm', 'monaco.osm.pbf');

test('sizes of memory: units, fractions and plain bytes; anything else is none', (t) => {
  t.is(parseMemorySize('2G'), 2 * GiB);
  t.is(parseMemorySize('1.5g'), 1.5 * GiB);
  t.is(parseMemorySize('1536M'), 1536 * MiB);
  t.is(parseMemorySize('800MB'), 800 * MiB);
  t.is(parseMemorySize('2GiB'), 2 * GiB);
  t.is(parseMemorySize('1000000000'), 1e9);
  for (const bad of ['', 'G', '2 gigs', '-1G', '1e9', '2GG', '0x10']) t.is(parseMemorySize(bad), null, bad);
});

test.serial('the flag wins over the environment, which wins over the default; bad values name where they came from', (t) => {
  const saved = process.env.WAYMARK_IMPORT_MEMORY;
  t.teardown(() => (saved === undefined ? delete process.env.WAYMARK_IMPORT_MEMORY : (process.env.WAYMARK_IMPORT_MEMORY = saved)));
  delete process.env.WAYMARK_IMPORT_MEMORY;
  t.deepEqual(importMemory(), { bytes: defaultImportMemory(), source: 'default' });
  t.true(defaultImportMemory() >= GiB && defaultImportMemory() <= 2 * GiB);
  process.env.WAYMARK_IMPORT_MEMORY = '3G';
  t.deepEqual(importMemory(), { bytes: 3 * GiB, source: 'WAYMARK_IMPORT_MEMORY' });
  t.deepEqual(importMemory('1G'), { bytes: GiB, source: '--memory' });
  t.throws(() => importMemory('lots'), { message: '--memory: "lots" is no amount of memory; write e.g. 2G, 1536M or 800MB' });
  t.throws(() => importMemory('100M'), {
    message: `--memory: 100M is too little; an import needs at least ${MIN_IMPORT_MEMORY / MiB} MiB`,
  });
  process.env.WAYMARK_IMPORT_MEMORY = 'lots';
  t.throws(() => importMemory(), { message: /^WAYMARK_IMPORT_MEMORY: "lots"/ });
});

test('a bad --memory is a usage error before any work', async (t) => {
  const run = await waymark(['import', '--world', '--memory', '12 bananas']);
  t.is(run.code, 2);
  t.regex(run.stderr, /--memory: "12 bananas" is no amount of memory/);
  t.notRegex(run.stderr, /checking inputs/);
});

dataTest(
  'the disk an import needs grows with its input, less what finished steps wrote; too little free disk is a clear error',
  [MONACO],
  (t) => {
    const all = diskSpaceNeeded([MONACO], []);
    const afterTiles = diskSpaceNeeded([MONACO], ['tiles']);
    t.true(all > afterTiles && afterTiles > diskSpaceNeeded([MONACO], ['tiles', 'geocoder', 'routing']));
    t.true(diskSpaceNeeded([MONACO, MONACO], []) > all);
    t.notThrows(() => checkDiskSpace(tmpdir(), all));
    t.throws(() => checkDiskSpace(tmpdir(), 1024 ** 5), {
      message:
        /^not enough free disk space for this import in .+: it needs about 1048576\.0 GiB \(spill files, tiles, geocoder index, routing graphs\), [\d.]+ (GiB|MiB) is free$/,
    });
  },
);
