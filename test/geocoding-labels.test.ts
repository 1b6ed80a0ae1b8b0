// Issue 29's admin hierarchy and labels on the shared data (OSM Monaco, Andorra, Heidelberg; WOF mc +
// ad; OpenAddresses Kodiak; GeoNames): each rule of data-pipeline/geocoding/hierarchy.ts and the
// Pelias label conventions, on real places.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminLookup } from '../core/geocoding/admin-lookup.js';
import { placeGid, type PlaceRecord } from '../core/geocoding/place-record.js';
import { readGeonames } from '../data-pipeline/geocoding/geonames.js';
import { PlaceHierarchy } from '../data-pipeline/geocoding/hierarchy.js';
import { buildGeocoderIndex, type GeocoderInputs } from '../data-pipeline/geocoding/index/build.js';
import { NearestLocality } from '../data-pipeline/geocoding/nearest-locality.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../data-pipeline/geocoding/openaddresses.js';
import { readWofFolders } from '../data-pipeline/geocoding/wof.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { recordOf } from '../src/geocoding/engine/places.js';
import { toFeature, type FeatureProperties } from '../src/geocoding/response/feature.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const OSM = (name: string) => sharedFile('osm', `${name}.osm.pbf`);
const WOF_DIRS = [sharedFile('wof', 'mc'), sharedFile('wof', 'ad')];
const KODIAK = sharedFile('oa', 'us-ak-kodiak_island_borough.csv');
const ALL: GeocoderInputs = {
  osmFiles: ['monaco', 'andorra', 'heidelberg'].map(OSM),
  wofDirs: WOF_DIRS,
  oaFiles: [KODIAK],
  geonames: true,
};
const ALL_FILES = [...ALL.osmFiles, ...WOF_DIRS, KODIAK];

const dirs: string[] = [];
const indexes = new Map<string, Promise<GeocoderIndex>>();
/** The index of these inputs, built once for the tests that share it. */
function indexOf(name: string, inputs: GeocoderInputs): Promise<GeocoderIndex> {
  let index = indexes.get(name);
  if (index === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-labels-'));
    dirs.push(dir);
    const file = join(dir, 'geocoder.sqlite');
    index = buildGeocoderIndex(inputs, file, () => {}).then(() => new GeocoderIndex(file));
    indexes.set(name, index);
  }
  return index;
}

test.after.always(async () => {
  for (const index of indexes.values()) (await index.catch(() => undefined))?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function properties(gid: string, inputs = ALL, name = 'all'): Promise<FeatureProperties> {
  const row = (await indexOf(name, inputs)).place(gid);
  if (row === undefined) throw new Error(`${gid} is not in the index`);
  return toFeature(recordOf(row)).properties;
}

dataTest("US addresses and places get their state (us-atlas, GeoNames) and Pelias' US label", ALL_FILES, async (t) => {
  const index = await indexOf('all', ALL);
  let rows = 0;
  const wrong: string[] = [];
  for await (const record of readOpenAddresses(KODIAK, emptyOpenAddressesCounts())) {
    rows++;
    const feature = toFeature(recordOf(index.place(record.gid)!)).properties;
    if (feature.region !== 'Alaska' || feature.region_a !== 'AK' || !feature.label.endsWith(', AK, USA')) wrong.push(feature.label);
  }
  t.is(rows, 4452);
  t.deepEqual(wrong, [], 'every Kodiak address: Alaska, "…, AK, USA" (also those the 1:10m coast leaves out)');
  t.like(await properties('openaddresses:address:us-ak-kodiak_island_borough:8e7d4603b66771c1'), {
    name: '1400 Abercrombie Drive',
    label: '1400 Abercrombie Drive, Kodiak, AK, USA',
  });
  t.like(await properties('geonames:locality:5866583'), { label: 'Kodiak, AK, USA', region: 'Alaska', region_a: 'AK' });
});

dataTest('an address whose addr:city names its town takes it over the nearest GeoNames place', ALL_FILES, async (t) => {
  // Tischbeinstraße 1 (addr:city Heidelberg) is nearer Dossenheim's GeoNames point; the extract has no boundaries.
  t.like(await properties('openstreetmap:address:node/483397228'), {
    name: 'Tischbeinstraße 1',
    locality: 'Heidelberg',
    locality_gid: 'geonames:locality:2907911',
    label: 'Tischbeinstraße 1, Heidelberg, Germany',
  });
  // Route du Val de Gorbio 30 (addr:city Menton) is nearer Roquebrune-Cap-Martin's.
  t.like(await properties('openstreetmap:address:way/137783020'), {
    locality: 'Menton',
    label: '30 Route du Val de Gorbio, Menton, France',
  });
});

dataTest(
  "a polygon of another country than the town the place names is dropped: WOF's Fontvieille reaches into Èze",
  ALL_FILES,
  async (t) => {
    const petitCasino = await properties('openstreetmap:venue:node/3943282210');
    t.like(petitCasino, { locality: 'Èze', country: 'France', country_a: 'FRA', label: 'Petit Casino, Èze, France' });
    t.false('neighbourhood' in petitCasino, 'no Monaco quartier');
    // La Turbie's boundary is OSM's: WOF's Fontvieille around it is Monaco's, not the locality's country.
    const shop = await properties('openstreetmap:venue:node/3781294550');
    t.like(shop, { locality: 'La Turbie', country_a: 'FRA', label: 'Casino Shop, La Turbie, France' });
    t.false('neighbourhood' in shop);
  },
);

dataTest('OSM boundaries before WOF polygons; Monaco labels with the quartier', ALL_FILES, async (t) => {
  // WOF's La Condamine covers Les Moneghetti; OSM's quartier is the one drawn to the street.
  t.like(await properties('openstreetmap:address:node/3297635906'), {
    neighbourhood: 'Les Monegetti',
    locality_gid: 'openstreetmap:locality:relation/2220322',
    label: '12 Chemin de la Turbie, Les Monegetti, Monaco',
  });
  t.like(await properties('openstreetmap:venue:way/161769674'), { country_a: 'MCO', label: 'Casino de Monte Carlo, Monte-Carlo, Monaco' });
});

dataTest("labels of the default schema: locality, the region's code unless it is the locality, country", ALL_FILES, async (t) => {
  t.like(await properties('openstreetmap:venue:node/268096174'), { region_a: 'MA', label: 'Hotel Xalet Besoli, Arinsal, MA, Andorra' });
  t.like(await properties('openstreetmap:venue:node/258356188'), { label: 'Vallnord: Sector Pal, la Massana, Andorra' });
});

dataTest(
  "without WOF, OSM Monaco is Monaco: an area takes the country of the GeoNames place of its name, a quartier its commune's",
  [OSM('monaco')],
  async (t) => {
    const inputs: GeocoderInputs = { osmFiles: [OSM('monaco')], wofDirs: [], oaFiles: [], geonames: true };
    const casino = await properties('openstreetmap:venue:way/161769674', inputs, 'monaco');
    t.like(casino, {
      country: 'Monaco',
      country_a: 'MCO',
      neighbourhood: 'Monte-Carlo',
      label: 'Casino de Monte Carlo, Monte-Carlo, Monaco',
    });
    t.like(await properties('openstreetmap:venue:node/3781294550', inputs, 'monaco'), {
      country_a: 'FRA',
      label: 'Casino Shop, La Turbie, France',
    });
  },
);

dataTest("a place's own country keeps out another country's polygons (WOF Fontvieille over La Turbie)", WOF_DIRS, async (t) => {
  const wof = await readWofFolders(WOF_DIRS);
  const geonames = readGeonames().records.filter((record) => record.layer === 'locality');
  const hierarchy = new PlaceHierarchy(new AdminLookup(wof.admins), new NearestLocality(geonames), true);
  const at: PlaceRecord = {
    source: 'openstreetmap',
    layer: 'address',
    source_id: 'node/1857561349',
    gid: placeGid('openstreetmap', 'address', 'node/1857561349'),
    name: '1 Test',
    names: {},
    lon: 7.4005314,
    lat: 43.7455073,
  };
  t.like(hierarchy.place(at), { neighbourhood: 'Fontvieille', country_a: 'MCO' }, 'without a country of its own, the polygon places it');
  const french = hierarchy.place({ ...at, country_a: 'FRA' });
  t.like(french, { country_a: 'FRA', country: 'France' });
  t.is(french.neighbourhood, undefined);
});
