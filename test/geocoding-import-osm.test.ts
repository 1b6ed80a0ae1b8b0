// The OpenStreetMap geocoding importer: a hand-written town (test/fixtures/osm/geocoding-town.osm)
// and the real extracts of ../shared/data/osm (Monaco, Andorra, Heidelberg).
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminLookup, type AdminPolygon } from '../core/geocoding/admin-lookup.js';
import {
  readOsmForGeocoding,
  type OsmAdminImport,
  type OsmAdminOptions,
  type OsmPlaceCounts,
  type OsmRead,
} from '../data-pipeline/geocoding/osm.js';
import type { PlaceRecord } from '../core/geocoding/place-record.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const TOWN = join(process.cwd(), 'test', 'fixtures', 'osm', 'geocoding-town.osm');
const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const noProgress = () => {};
const spillDir = mkdtempSync(join(tmpdir(), 'waymark-osm-spill-'));
let spills = 0;
test.after.always(() => rmSync(spillDir, { recursive: true, force: true }));

/** One pass over `file`; `use` runs before its spill is deleted. */
async function withRead<T>(file: string, use: (read: OsmRead) => T): Promise<T> {
  const read = await readOsmForGeocoding(file, noProgress, { spillFile: join(spillDir, `spill-${spills++}`), cacheKiB: 8192 });
  try {
    return use(read);
  } finally {
    read.close();
  }
}

async function readPlaces(file: string): Promise<{ records: PlaceRecord[]; counts: OsmPlaceCounts; ms: number }> {
  const started = performance.now();
  return withRead(file, ({ places }) => ({
    records: [...places.records()],
    counts: places.counts,
    ms: Math.round(performance.now() - started),
  }));
}

async function readAdminAreas(
  file: string,
  options: OsmAdminOptions = {},
): Promise<Omit<OsmAdminImport, 'polygons'> & { polygons: AdminPolygon[] }> {
  return withRead(file, ({ adminAreas }) => {
    const admin = adminAreas.resolve(options);
    return { ...admin, polygons: [...admin.polygons()] };
  });
}

function countByLayer(records: readonly PlaceRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.layer] = (counts[r.layer] ?? 0) + 1;
  return counts;
}

function assertGidsWellFormedAndUnique(t: ExecutionContext, records: readonly PlaceRecord[]): void {
  for (const r of records)
    t.true(/^openstreetmap:[a-z]+:(node|way|relation)\/\d+$/.test(r.gid) && r.gid === `openstreetmap:${r.layer}:${r.source_id}`, r.gid);
  t.is(new Set(records.map((r) => r.gid)).size, records.length, 'GIDs are unique');
}

test('places of the town: venues with their address, addresses, place nodes, names by ISO 639-1 code', async (t) => {
  const { records, counts } = await readPlaces(TOWN);
  t.like(counts, {
    venues: 2,
    addresses: 6,
    places: 2,
    streetWays: 4,
    streets: 2,
    skippedAddressWithoutStreet: 1,
    skippedInvalidPosition: 0,
  });
  const byGid = new Map(records.map((r) => [r.gid, r]));
  const cafe = byGid.get('openstreetmap:venue:node/1')!;
  t.like(cafe, { source: 'openstreetmap', source_id: 'node/1', name: 'Café Sonne', lon: 8.002, lat: 48.002 });
  t.deepEqual(cafe.names, { de: 'Café Sonne', fr: 'Café Soleil' }, 'name:be-tarask is no ISO 639-1 key');

  const museum = byGid.get('openstreetmap:venue:way/200')!;
  t.like(museum, {
    name: 'Stadtmuseum',
    housenumber: '5',
    street: 'Hauptstraße',
    postalcode: '12345',
    bbox: [8.003, 48.003, 8.0034, 48.0033],
  });
  t.true(museum.lon > 8.003 && museum.lon < 8.0034 && museum.lat > 48.003 && museum.lat < 48.0033, 'a point inside the building');
  const museumAddress = byGid.get('openstreetmap:address:way/200');
  t.like(
    museumAddress,
    { name: '5 Hauptstraße', housenumber: '5', street: 'Hauptstraße', postalcode: '12345', lon: museum.lon, lat: museum.lat },
    'a venue with an address is also an address, as Pelias',
  );
  t.like(
    byGid.get('openstreetmap:address:relation/700'),
    { name: '3 Hauptstraße', housenumber: '3' },
    'a multipolygon building with an address',
  );
  const inBuilding = byGid.get('openstreetmap:address:relation/700')!;
  t.true(
    inBuilding.lon > 8.006 && inBuilding.lon < 8.0064 && inBuilding.lat > 48.006 && inBuilding.lat < 48.0063,
    'a point inside the outline',
  );

  t.like(byGid.get('openstreetmap:address:node/3'), {
    name: '7 Hauptstraße',
    housenumber: '7',
    street: 'Hauptstraße',
    postalcode: '12345',
    admin_names: ['Posttown'],
  });
  t.like(byGid.get('openstreetmap:address:node/5'), { name: '2 Am Markt', street: 'Am Markt' }, 'addr:place stands in for addr:street');
  t.false(
    records.some((r) => r.source_id === 'node/4'),
    'a housenumber without street',
  );

  t.like(byGid.get('openstreetmap:locality:node/6'), { name: 'Testdorf', population: 1200, names: { fr: 'Village-Test' } });
  t.like(byGid.get('openstreetmap:neighbourhood:node/7'), { name: 'Oberstadt' });
  t.false(
    records.some((r) => r.source_id === 'way/500'),
    'place areas are admin areas, not places',
  );
  assertGidsWellFormedAndUnique(t, records);
});

test('addr:interpolation ways: the numbers of their end nodes, low end first; the line of every street way', async (t) => {
  const { ranges, lines, counts } = await withRead(TOWN, ({ places }) => {
    const read = { ranges: [...places.addressRanges()], lines: [...places.streetLines()] };
    return { ...read, counts: places.counts };
  });
  t.deepEqual(ranges, [
    {
      street: 'Hauptstraße',
      low: 11,
      high: 19,
      step: 2,
      line: [
        [8.0012, 48.0046],
        [8.0028, 48.0046],
      ],
    },
  ]);
  t.like(counts, { interpolationWays: 1, addressRanges: 1 });
  t.deepEqual(
    lines.map((l) => l.name).sort(),
    ['Hauptstraße', 'Hauptstraße', 'Hauptstraße', 'hauptstraße'],
    'streets only: no ramp, no unnamed way',
  );
  t.deepEqual(lines.find((l) => l.line[0]![0] === 8.001)?.line, [
    [8.001, 48.0045],
    [8.003, 48.0045],
  ]);
});

test('streets: ways of one name near each other merge, a namesake 7 km away stays apart, ramps and unnamed ways are no streets', async (t) => {
  const streets = (await readPlaces(TOWN)).records.filter((r) => r.layer === 'street');
  t.deepEqual(streets.map((r) => r.gid).sort(), ['openstreetmap:street:way/300', 'openstreetmap:street:way/302']);
  const merged = streets.find((r) => r.source_id === 'way/300')!;
  t.like(merged, { name: 'Hauptstraße', names: { fr: 'Rue Principale' }, bbox: [8.001, 48.0045, 8.011, 48.0045] });
  t.is(merged.lat, 48.0045);
  t.true(Math.abs(merged.lon - 8.0055) < 1e-9, 'the middle of the longest way (301)');
  t.like(
    streets.find((r) => r.source_id === 'way/302'),
    { name: 'Hauptstraße', bbox: [8.1, 48.0045, 8.102, 48.0045] },
  );
});

test('admin areas of the town: levels by country, place areas, polygons for the AdminLookup', async (t) => {
  const { records, polygons, counts } = await readAdminAreas(TOWN, { country: 'DE' });
  t.deepEqual(counts, { areas: 4, records: 3, skippedNoName: 1, skippedOtherLevel: 0 });
  const byGid = new Map(records.map((r) => [r.gid, r]));
  const city = byGid.get('openstreetmap:locality:relation/1000')!;
  t.like(city, {
    name: 'Teststadt',
    names: { de: 'Teststadt', fr: 'Ville-Test' },
    population: 5000,
    country_a: 'DEU',
    bbox: [8, 48, 8.02, 48.01],
  });
  t.true(city.lon > 8 && city.lon < 8.02 && city.lat > 48 && city.lat < 48.01);
  t.like(byGid.get('openstreetmap:neighbourhood:relation/1001'), { name: 'Altstadt' });
  t.like(byGid.get('openstreetmap:neighbourhood:way/500'), { name: 'Neustadt' });
  t.is(polygons.length, 3);

  const lookup = new AdminLookup(polygons);
  const cafe = (await readPlaces(TOWN)).records.find((r) => r.gid === 'openstreetmap:venue:node/1')!;
  const filled = lookup.withHierarchy(cafe);
  t.like(filled, { locality: 'Teststadt', locality_gid: city.gid, neighbourhood: 'Altstadt' });
  // No level-2 polygon here: the country is the one the smaller areas belong to (issue 29's labels).
  t.like(filled, { country_a: 'DEU', country: 'Germany' });
  t.is(filled.country_gid, undefined, 'no country polygon to point to');
  t.like(lookup.enclosing(8.012, 48.003), { neighbourhood: { name: 'Neustadt' } });

  // Level 6 is a district elsewhere: without the country, Teststadt is no locality.
  const unknownCountry = await readAdminAreas(TOWN);
  t.deepEqual(unknownCountry.counts, { areas: 4, records: 2, skippedNoName: 1, skippedOtherLevel: 1 });
});

dataTest('OSM Monaco: the casino venue, merged boulevards, addresses, Monaco and its quartiers', [MONACO], async (t) => {
  const { records, counts, ms } = await readPlaces(MONACO);
  const started = performance.now();
  const admin = await readAdminAreas(MONACO);
  t.log(`Monaco places ${ms} ms`, countByLayer(records), counts);
  t.log(`Monaco admin areas ${Math.round(performance.now() - started)} ms`, countByLayer(admin.records), admin.counts);
  t.like(
    records.find((r) => r.name === 'Casino de Monte Carlo'),
    { layer: 'venue', gid: 'openstreetmap:venue:way/161769674' },
  );
  const boulevard = records.filter((r) => r.layer === 'street' && r.name === 'Boulevard Princesse Charlotte');
  t.is(boulevard.length, 1);
  t.true(counts.streets < counts.streetWays / 1.5, 'ways merge into streets');
  t.true(records.some((r) => r.layer === 'address' && r.housenumber && r.street));
  const byGid = new Map(admin.records.map((r) => [r.gid, r]));
  t.like(byGid.get('openstreetmap:locality:relation/2220322'), { name: 'Monaco', population: 35881 });
  t.like(byGid.get('openstreetmap:neighbourhood:relation/5986438'), { name: 'Monte-Carlo' });
  const casino = new AdminLookup(admin.polygons).enclosing(7.4286, 43.7394);
  t.is(casino.locality?.name, 'Monaco');
  t.is(casino.neighbourhood?.name, 'Monte-Carlo');
  assertGidsWellFormedAndUnique(t, [...records, ...admin.records]);
});

dataTest('OSM Andorra: place localities, the parishes as regions', [ANDORRA], async (t) => {
  const { records, counts, ms } = await readPlaces(ANDORRA);
  const started = performance.now();
  // The 2013 extract misses members of Andorra's country relation (r9407) and of Canillo's: no polygon for them.
  const admin = await readAdminAreas(ANDORRA, { country: 'AD' });
  t.log(`Andorra places ${ms} ms`, countByLayer(records), counts);
  t.log(`Andorra admin areas ${Math.round(performance.now() - started)} ms`, countByLayer(admin.records), admin.counts);
  const vella = records.find((r) => r.layer === 'locality' && r.name === 'Andorra la Vella')!;
  t.like(vella, { gid: 'openstreetmap:locality:node/58957648', population: 24678 });
  for (const name of ['Encamp', 'Ordino', 'La Massana', 'Sant Julià de Lòria', 'les Escaldes'])
    t.true(
      records.some((r) => r.layer === 'locality' && r.name === name),
      name,
    );
  t.deepEqual(admin.records.map((r) => r.name).sort(), [
    'Andorra la Vella',
    'Encamp',
    'Escaldes-Engordany',
    'La Massana',
    'Ordino',
    'Sant Julià de Lòria',
  ]);
  t.true(admin.records.every((r) => r.layer === 'region' && r.country_a === 'AND'));
  t.like(new AdminLookup(admin.polygons).withHierarchy(vella), {
    region: 'Andorra la Vella',
    region_gid: 'openstreetmap:region:relation/2804753',
  });
  assertGidsWellFormedAndUnique(t, [...records, ...admin.records]);
});

dataTest('OSM Heidelberg: addresses on Hauptstraße, the Hauptstraße of each town apart', [HEIDELBERG], async (t) => {
  const { records, counts, ms } = await readPlaces(HEIDELBERG);
  t.log(`Heidelberg places ${ms} ms`, countByLayer(records), counts);
  const addresses = records.filter((r) => r.layer === 'address' && r.street === 'Hauptstraße');
  t.true(addresses.length > 5);
  for (const r of addresses) t.true(r.name === `${r.housenumber} Hauptstraße` && /^\d/.test(r.housenumber!), r.name);
  const hauptstrassen = records.filter((r) => r.layer === 'street' && r.name === 'Hauptstraße');
  t.true(hauptstrassen.length > 5, 'one per town');
  // Heidelberg's own Hauptstraße, the long pedestrian street of the old town, is one record.
  t.is(hauptstrassen.filter((r) => r.bbox![0] < 8.7 && r.bbox![2] > 8.71 && r.lat > 49.4 && r.lat < 49.42).length, 1);
  const admin = await readAdminAreas(HEIDELBERG);
  t.is(admin.counts.records, 0, 'this extract has no boundary relations');
  assertGidsWellFormedAndUnique(t, records);
});
