// Issue 29's addresses on real data: house numbers with fractions, letters and suffixes kept as
// typed (OpenAddresses Kodiak's 1820E, Monaco's 4bis, Heidelberg's 87D and 14 - 18; no shared
// extract has a fraction, so a small .osm of Cleveland Avenue gives 226 1/2 and 228½), and reverse
// inside a building answering that building's address first (Monaco, Heidelberg, and the fixture's
// courtyard). One index over them all, built once.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kilometresBetween } from '../core/geo/distance.js';
import { houseNumberKey } from '../core/geocoding/house-number.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import { sanitizeReverse, sanitizeSearch, sanitizeStructured } from '../src/geocoding/sanitize/endpoints.js';
import { structuredSearch } from '../src/geocoding/engine/structured-search.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const KODIAK = sharedFile('oa', 'us-ak-kodiak_island_borough.csv');
const FRACTIONS = join(process.cwd(), 'test', 'fixtures', 'osm', 'house-number-fractions.osm');
const INPUTS = [MONACO, HEIDELBERG, KODIAK];

let dir: string | undefined;
let built: Promise<GeocoderIndex> | undefined;
/** The index of the shared files and the fixture, built by the first test that needs it. */
function sharedIndex(): Promise<GeocoderIndex> {
  built ??= (async () => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-house-numbers-'));
    const file = join(dir, 'geocoder.sqlite');
    await buildGeocoderIndex(
      // The fixture twice, as overlapping extracts give their common elements twice: its building's rings are stored once.
      { osmFiles: [MONACO, HEIDELBERG, FRACTIONS, FRACTIONS], wofDirs: [], oaFiles: [KODIAK], geonames: false },
      file,
      () => {},
    );
    return new GeocoderIndex(file);
  })();
  return built;
}
test.after.always(async () => {
  (await built?.catch(() => undefined))?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const searchFor = (index: GeocoderIndex, text: string) => search(index, sanitizeSearch(new URLSearchParams({ text })).params, false);
/** Every text's first result has the properties expected. */
function firstIs(t: ExecutionContext, index: GeocoderIndex, texts: readonly string[], expected: Record<string, unknown>): void {
  for (const text of texts) t.like(searchFor(index, text).features[0]?.properties, expected, text);
}
const reverseAt = (index: GeocoderIndex, lon: number, lat: number, extra: Record<string, string> = {}) =>
  reverse(index, sanitizeReverse(new URLSearchParams({ 'point.lon': String(lon), 'point.lat': String(lat), ...extra })).params);

test('one key for every spelling of a fraction or a suffix, the fraction set apart from the digits', (t) => {
  t.is(houseNumberKey('226 1/2'), '226 1 2');
  t.is(houseNumberKey('226½'), '226 1 2', 'NFKD would make it 2261⁄2');
  t.is(houseNumberKey('226 ½'), '226 1 2');
  t.not(houseNumberKey('226 1/2'), houseNumberKey('226'));
  t.is(houseNumberKey('7 bis'), '7bis');
  t.is(houseNumberKey('7 BIS'), '7bis');
  t.is(houseNumberKey('1820 E'), '1820e');
});

dataTest('a fraction is found in every spelling and kept in the answer', [...INPUTS, FRACTIONS], async (t) => {
  const index = await sharedIndex();
  for (const text of [
    '226 1/2 Cleveland Avenue',
    '226½ Cleveland Avenue',
    'Cleveland Avenue 226 1/2',
    '226 1/2 Cleveland Ave, Baltimore',
  ]) {
    const answer = searchFor(index, text);
    t.like(answer.features[0]?.properties, { gid: 'openstreetmap:address:way/110', housenumber: '226 1/2', match_type: 'exact' }, text);
    t.is(answer.parsed.housenumber, text.includes('½') ? '226½' : '226 1/2', `${text}: parsed whole`);
  }
  t.like(searchFor(index, '228 1/2 Cleveland Avenue').features[0]?.properties, {
    gid: 'openstreetmap:address:node/21',
    housenumber: '228½',
    name: '228½ Cleveland Avenue',
  });
  t.like(
    searchFor(index, '226 Cleveland Avenue').features[0]?.properties,
    { gid: 'openstreetmap:address:node/20', housenumber: '226' },
    'the whole number is another door',
  );
});

dataTest('a letter after the number is part of it where the data has that number, else a direction', INPUTS, async (t) => {
  const index = await sharedIndex();
  // Kodiak's OpenAddresses write 1820A to 1820G on Larch Street; no Larch Street is East.
  const texts = ['1820 E Larch Street', '1820E Larch Street', '1820 e Larch Street', 'Larch Street 1820 E', '1820 E Larch St, Kodiak'];
  firstIs(t, index, texts, { housenumber: '1820E', street: 'Larch Street', match_type: 'exact' });
  t.like(searchFor(index, '1820 E Larch Street').parsed, { housenumber: '1820 E', street: 'Larch Street' });
  const structured = structuredSearch(index, sanitizeStructured(new URLSearchParams({ address: '1820 E Larch Street' })).params);
  t.like(structured.parsed, { housenumber: '1820 E', street: 'Larch Street' }, 'structured search reads its address alike');
  t.like(structured.features[0]?.properties, { housenumber: '1820E', match_type: 'exact' });
  // No 4844E anywhere: E is East Rezanof Drive's.
  const rezanof = searchFor(index, '4844 E Rezanof Dr');
  t.like(rezanof.parsed, { housenumber: '4844' });
  t.like(rezanof.features[0]?.properties, { housenumber: '4844', street: 'East Rezanof Drive', match_type: 'exact' });
});

dataTest('suffixes and ranges as OSM writes them: 4bis, 87D, 14 - 18', INPUTS, async (t) => {
  const index = await sharedIndex();
  const bis = ['4bis Rue de la Colle', '4 bis Rue de la Colle', 'Rue de la Colle 4 bis, Monaco', '4 BIS rue de la Colle'];
  firstIs(t, index, bis, { gid: 'openstreetmap:address:node/1661139827', housenumber: '4bis', match_type: 'exact' });
  firstIs(t, index, ['87 D Wiesenbacher Straße', 'Wiesenbacher Straße 87d'], { housenumber: '87D', match_type: 'exact' });
  firstIs(t, index, ['Grabengasse 14-18', '14 - 18 Grabengasse'], { housenumber: '14 - 18', match_type: 'exact' });
});

dataTest('reverse inside a building answers its address first, before a nearer venue', INPUTS, async (t) => {
  const index = await sharedIndex();
  // Monaco: the UBS branch's node lies inside the Salle d'Exposition at 4 Quai Antoine 1er (way 161885377).
  const ubs = reverseAt(index, 7.4261637, 43.7329965);
  t.is(ubs[0]?.properties.gid, 'openstreetmap:address:way/161885377');
  t.true(
    ubs.some((f) => f.properties.name === 'ubs'),
    'the venue still follows',
  );
  t.true(ubs[0]!.properties.distance! > ubs.find((f) => f.properties.name === 'ubs')!.properties.distance!, 'the venue is nearer');
  // Heidelberg: Waltsch (no address of its own) inside 1 Hauptstraße, Neckargemünd (way 157738612).
  t.is(reverseAt(index, 8.8001399, 49.3922363)[0]?.properties.gid, 'openstreetmap:address:way/157738612');
  // Without the address layer, the venue.
  t.is(reverseAt(index, 7.4261637, 43.7329965, { layers: 'venue' })[0]?.properties.name, 'ubs');
});

dataTest('reverse in a building courtyard (a hole of its outline) is not inside it', [FRACTIONS, ...INPUTS], async (t) => {
  const index = await sharedIndex();
  const building = 'openstreetmap:address:relation/200';
  const [buildingPoint] = searchFor(index, '230 Cleveland Avenue').features;
  t.is(buildingPoint?.properties.gid, building);
  // In the courtyard, 2 m from the café: the café first.
  t.is(reverseAt(index, -76.599, 39.30068)[0]?.properties.name, 'Courtyard Café');
  // In the building, 4 m east of the courtyard: 22 m from the café, about 50 m from the address's point.
  const [lon, lat] = [-76.59875, 39.3007];
  const [buildingLon, buildingLat] = buildingPoint!.geometry.coordinates;
  t.true(kilometresBetween(lon, lat, buildingLon!, buildingLat!) > kilometresBetween(lon, lat, -76.599, 39.3007), 'the café is nearer');
  t.is(reverseAt(index, lon, lat)[0]?.properties.gid, building);
});
