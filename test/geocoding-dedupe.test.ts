// One result per place across layers (issue 26): Who's On First has Monte-Carlo twice, as a
// neighbourhood (with a population) and as a locality (without). Autocomplete over the demo data
// (WOF Monaco and the GeoNames world places) lists it once, as the locality, and first for
// "Monte Car" ahead of Monte Carmelo, Brazil (more inhabitants than the neighbourhood, fewer than
// the place as a locality would have); with OSM Monaco too, whose commune holds the neighbourhood
// (issue 29), still once. A hand-made index shows what stays apart.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { placeGid, type PlaceLayer, type PlaceRecord } from '../core/geocoding/place-record.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { GeocoderIndexWriter } from '../data-pipeline/geocoding/index/writer.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import { sanitizeAutocomplete, sanitizeReverse, sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const WOF_MONACO = sharedFile('wof', 'mc');
const OSM_MONACO = sharedFile('osm', 'monaco.osm.pbf');
const MONTE_CARLO_LOCALITY = 'whosonfirst:locality:1125778413';
const MONTE_CARLO_NEIGHBOURHOOD = 'whosonfirst:neighbourhood:1126065307';
const MONTE_CARMELO = 'geonames:locality:3456848';

const q = (text: string) => new URLSearchParams(text);
const gids = (features: { properties: { gid: string } }[]) => features.map((f) => f.properties.gid);
const labels = (features: { properties: { label?: string } }[]) => features.map((f) => f.properties.label);

const dirs: string[] = [];
function openIndex(prefix: string): { file: string; open: () => GeocoderIndex } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  const file = join(dir, 'geocoder.sqlite');
  return { file, open: () => new GeocoderIndex(file) };
}
const opened: GeocoderIndex[] = [];
test.after.always(() => {
  for (const index of opened) index.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

dataTest('autocomplete "Monte Car" over WOF Monaco and GeoNames: Monte Carlo first, once, as the locality', [WOF_MONACO], async (t) => {
  const { file, open } = openIndex('waymark-dedupe-monaco-');
  await buildGeocoderIndex({ osmFiles: [], wofDirs: [WOF_MONACO], oaFiles: [], geonames: true }, file, () => {});
  const index = open();
  opened.push(index);
  const autocomplete = (text: string) => search(index, sanitizeAutocomplete(q(text)).params, true).features;

  const features = autocomplete('text=Monte Car');
  t.is(features[0]!.properties.gid, MONTE_CARLO_LOCALITY);
  t.is(features[0]!.properties.label, 'Monte Carlo, Monaco');
  t.is(
    labels(features).filter((label) => label === 'Monte Carlo, Monaco').length,
    1,
    'the neighbourhood and GeoNames point are the same place',
  );
  t.false(gids(features).includes(MONTE_CARLO_NEIGHBOURHOOD));
  t.true(gids(features).includes(MONTE_CARMELO), 'the other places of the prefix stay');

  t.deepEqual(gids(autocomplete('text=Monte Car&size=1')), [MONTE_CARLO_LOCALITY], 'the most useful layer even when only one is asked');
  t.deepEqual(gids(search(index, sanitizeSearch(q('text=Monte Carlo')).params, false).features), [MONTE_CARLO_LOCALITY]);
  t.deepEqual(gids(search(index, sanitizeSearch(q('text=Monte Carlo&layers=neighbourhood')).params, false).features), [
    MONTE_CARLO_NEIGHBOURHOOD,
  ]);
});

dataTest(
  "with OSM Monaco too, whose commune is the neighbourhood's locality: Monte Carlo once, as the locality",
  [WOF_MONACO, OSM_MONACO],
  async (t) => {
    const { file, open } = openIndex('waymark-dedupe-monaco-osm-');
    await buildGeocoderIndex({ osmFiles: [OSM_MONACO], wofDirs: [WOF_MONACO], oaFiles: [], geonames: true }, file, () => {});
    const index = open();
    opened.push(index);
    const neighbourhood = index.place(MONTE_CARLO_NEIGHBOURHOOD)!;
    t.not(JSON.parse(neighbourhood.record).locality_gid, MONTE_CARLO_LOCALITY, 'the neighbourhood lies in another locality (the commune)');
    for (const [text, autocomplete] of [
      ['Monte Car', true],
      ['Monte Carlo', false],
      ['Monte-Carlo', false],
    ] as const) {
      const params = (autocomplete ? sanitizeAutocomplete : sanitizeSearch)(q(`text=${text}`)).params;
      const features = search(index, params, autocomplete).features;
      t.is(features[0]!.properties.gid, MONTE_CARLO_LOCALITY, text);
      t.false(gids(features).includes(MONTE_CARLO_NEIGHBOURHOOD), text);
      t.is(labels(features).filter((label) => label === 'Monte Carlo, Monaco').length, 1, text);
    }
  },
);

function record(layer: PlaceLayer, id: string, name: string, lon: number, lat: number, extra: Partial<PlaceRecord>): PlaceRecord {
  return { source: 'whosonfirst', layer, source_id: id, gid: placeGid('whosonfirst', layer, id), name, names: {}, lon, lat, ...extra };
}

const EAST = {
  country: 'Utopia',
  country_a: 'UTO',
  country_gid: 'whosonfirst:country:1',
  region: 'East',
  region_gid: 'whosonfirst:region:2',
};
const WEST = { ...EAST, region: 'West', region_gid: 'whosonfirst:region:3' };
const HAND_MADE: PlaceRecord[] = [
  // A neighbourhood inside the locality of its name, 2 km from its point: one place.
  record('locality', '10', 'Lindenau', 10, 50, { ...EAST, locality: 'Lindenau', locality_gid: 'whosonfirst:locality:10' }),
  record('neighbourhood', '11', 'Lindenau', 10.02, 50.01, {
    ...EAST,
    locality: 'Lindenau',
    locality_gid: 'whosonfirst:locality:10',
    population: 20_000,
  }),
  // A neighbourhood of the same name in another region, 7 km away (within a locality's reach, beyond a neighbourhood's): another place.
  record('neighbourhood', '12', 'Lindenau', 10.1, 50, { ...WEST, population: 5_000 }),
  // One 80 km away in the same region: another place.
  record('neighbourhood', '13', 'Lindenau', 11, 50.3, { ...EAST, population: 5_000 }),
  // A locality without a polygon (it names only itself as locality) and a neighbourhood of its name
  // 3 km away that another locality's polygon holds: one place.
  record('locality', '20', 'Kleinfeld', 10.5, 50.5, { ...EAST, locality: 'Kleinfeld', locality_gid: 'whosonfirst:locality:20' }),
  record('neighbourhood', '21', 'Kleinfeld', 10.54, 50.5, {
    ...EAST,
    locality: 'Grossstadt',
    locality_gid: 'whosonfirst:locality:22',
    population: 3_000,
  }),
];

test('a neighbourhood and a locality of one name are one place only within one hierarchy and near each other', (t) => {
  const { file, open } = openIndex('waymark-dedupe-hand-made-');
  const writer = new GeocoderIndexWriter(file);
  for (const r of HAND_MADE) writer.add(r);
  writer.finish(() => {});
  const index = open();
  opened.push(index);

  const found = gids(search(index, sanitizeSearch(q('text=Lindenau')).params, false).features);
  t.is(found[0], 'whosonfirst:locality:10', 'the populated neighbourhood ranks first, the place is kept as its locality');
  t.deepEqual(
    [...found].sort(),
    ['whosonfirst:locality:10', 'whosonfirst:neighbourhood:12', 'whosonfirst:neighbourhood:13'],
    'the neighbourhood inside the locality is left out; the other region and the far one stay',
  );

  t.deepEqual(gids(search(index, sanitizeSearch(q('text=Kleinfeld')).params, false).features), ['whosonfirst:locality:20']);

  const near = reverse(index, sanitizeReverse(q('point.lon=10.02&point.lat=50.01&layers=coarse')).params);
  t.false(gids(near).includes('whosonfirst:neighbourhood:11'), 'reverse keeps one result for the place too');
  t.true(gids(near).includes('whosonfirst:locality:10'));
});
