// The geocoder index job on the shared data: the same index whatever the memory budget and threads,
// no scratch file left behind (after a success, a failure or a cancellation), and the nearest
// GeoNames locality found in growing circles as by looking at every one.
import test from 'ava';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { kilometresBetween } from '../core/geo/distance.js';
import { buildGeocoderIndex, type GeocoderInputs } from '../data-pipeline/geocoding/index/build.js';
import { readGeonames } from '../data-pipeline/geocoding/geonames.js';
import { NearestLocality } from '../data-pipeline/geocoding/nearest-locality.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const WOF_MC = sharedFile('wof', 'mc');
const BANFF = sharedFile('oa', 'ca-ab-banff.csv');
const INPUTS: GeocoderInputs = { osmFiles: [MONACO, HEIDELBERG], wofDirs: [WOF_MC], oaFiles: [BANFF], geonames: false };
const MiB = 1024 * 1024;
const noProgress = () => {};

const tempDir = () => mkdtempSync(join(tmpdir(), 'waymark-geocoder-index-'));

/** Every table of an index, row by row, as text: two indexes with the same text hold the same answers. */
function indexContents(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'place_text', 'instance')");
    const tables = [
      'SELECT * FROM place ORDER BY id',
      'SELECT * FROM place_point ORDER BY id',
      'SELECT * FROM vocab ORDER BY term, doc, col, offset',
      'SELECT * FROM term ORDER BY id',
      'SELECT trigram, hex(term_ids) FROM term_trigram ORDER BY trigram',
      'SELECT * FROM admin_area ORDER BY rowid',
      'SELECT * FROM meta ORDER BY key',
    ];
    return tables.map((sql) => JSON.stringify(db.prepare(sql).raw().all())).join('\n');
  } finally {
    db.close();
  }
}

dataTest(
  'the index is the same with a 64 MiB budget on one thread as with the default on every core; only geocoder.sqlite is left',
  [MONACO, HEIDELBERG, WOF_MC, BANFF],
  async (t) => {
    const small = tempDir();
    const large = tempDir();
    t.teardown(() => [small, large].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
    const phases = new Set<string>();
    const smallStats = await buildGeocoderIndex(INPUTS, join(small, 'geocoder.sqlite'), noProgress, undefined, {
      memoryBytes: 64 * MiB,
      threads: 1,
    });
    const largeStats = await buildGeocoderIndex(INPUTS, join(large, 'geocoder.sqlite'), (p) => phases.add(p.phase));
    t.deepEqual(smallStats, largeStats);
    t.true(smallStats.places > 5_000, `${smallStats.places} places`);
    t.is(indexContents(join(small, 'geocoder.sqlite')), indexContents(join(large, 'geocoder.sqlite')));
    t.deepEqual(readdirSync(small), ['geocoder.sqlite'], 'no staging, spill or partial file');
    for (const phase of ['read OSM objects', 'geocoder places', 'geocoder index']) t.true(phases.has(phase), phase);
  },
);

dataTest('an OSM file osmium fails on midway leaves no file behind', [MONACO], async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The header and the first blocks are fine; the file ends in the middle of a block.
  const broken = join(dir, 'broken.osm.pbf');
  const bytes = readFileSync(MONACO);
  writeFileSync(broken, bytes.subarray(0, Math.floor(bytes.length / 2)));
  await t.throwsAsync(buildGeocoderIndex({ ...INPUTS, osmFiles: [MONACO, broken] }, join(dir, 'geocoder.sqlite'), noProgress), {
    message: /osmium/,
  });
  t.deepEqual(readdirSync(dir), ['broken.osm.pbf']);
});

dataTest('cancelling while osmium reads ends the build and leaves no file behind', [HEIDELBERG], async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'heidelberg.osm.pbf');
  copyFileSync(HEIDELBERG, input);
  const cancel = new AbortController();
  const onProgress = ({ phase }: { phase: string }) => {
    if (phase === 'read OSM objects') cancel.abort(new Error('stop here'));
  };
  const started = performance.now();
  await t.throwsAsync(buildGeocoderIndex({ ...INPUTS, osmFiles: [input] }, join(dir, 'geocoder.sqlite'), onProgress, cancel.signal), {
    message: 'stop here',
  });
  t.log(`cancelled after ${Math.round(performance.now() - started)} ms`);
  t.deepEqual(readdirSync(dir), ['heidelberg.osm.pbf']);
});

test('the nearest GeoNames locality, searched in growing circles, is the one a look at every locality finds', (t) => {
  const localities = readGeonames().records.filter((record) => record.layer === 'locality');
  const nearest = new NearestLocality(localities);
  // Points around real places (dense Europe, sparse Alaska), a few far from any, at every radius used.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const points = Array.from({ length: 120 }, (_, i) => {
    const near = localities[Math.floor(random() * localities.length)]!;
    const spread = [0.01, 0.2, 1, 3][i % 4]!;
    return [near.lon + (random() - 0.5) * spread * 2, Math.max(-89, Math.min(89, near.lat + (random() - 0.5) * spread))] as const;
  });
  for (const radiusKm of [15, 50, 100]) {
    for (const [lon, lat] of points) {
      let best: (typeof localities)[number] | undefined;
      let bestKm = radiusKm;
      for (const place of localities) {
        const km = kilometresBetween(lon, lat, place.lon, place.lat);
        if (km < bestKm || (km === bestKm && best === undefined)) [best, bestKm] = [place, km];
      }
      const found = nearest.nearest(lon, lat, radiusKm);
      t.is(
        found === undefined ? undefined : kilometresBetween(lon, lat, found.lon, found.lat),
        best === undefined ? undefined : bestKm,
        `${lon},${lat} within ${radiusKm} km`,
      );
    }
  }
});
