// Unit tests of the geocoding importers' building blocks: country table, CSV reader, admin lookup, OA rows.
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Polygon } from 'geojson';
import { AdminLookup, type AdminPolygon } from '../core/geocoding/admin-lookup.js';
import { COUNTRIES, countryByCode } from '../core/geocoding/countries.js';
import { parseCsvRow, readCsvRows } from '../data-pipeline/geocoding/csv.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../data-pipeline/geocoding/openaddresses.js';
import type { PlaceRecord } from '../core/geocoding/place-record.js';

const square = (x0: number, y0: number, x1: number, y1: number): number[][] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

async function tempFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'waymark-geocoding-')), name);
  await writeFile(file, text);
  return file;
}

function place(lon: number, lat: number, extra: Partial<PlaceRecord> = {}): PlaceRecord {
  return { source: 'geonames', layer: 'locality', source_id: '1', gid: 'geonames:locality:1', name: 'Here', names: {}, lon, lat, ...extra };
}

test('the country table has the 249 ISO 3166-1 codes plus Kosovo, unique both ways', (t) => {
  t.is(COUNTRIES.length, 250);
  t.is(new Set(COUNTRIES.map((c) => c.alpha2)).size, 250);
  t.is(new Set(COUNTRIES.map((c) => c.alpha3)).size, 250);
  t.is(countryByCode('MC')?.alpha3, 'MCO');
  t.is(countryByCode('and')?.alpha2, 'AD');
  t.is(countryByCode('DE')?.name, 'Germany');
  t.is(countryByCode('ZZ'), undefined);
  t.is(countryByCode(undefined), undefined);
});

test('CSV rows: quotes, doubled quotes, commas and line breaks inside quotes', async (t) => {
  t.deepEqual(parseCsvRow('a,"b, c","say ""hi""",'), ['a', 'b, c', 'say "hi"', '']);
  t.is(parseCsvRow('a,"open'), null);
  const file = await tempFile('x.csv', 'A,B\r\n1,"two\nlines"\n3,4\n');
  const rows: string[][] = [];
  for await (const row of readCsvRows(file)) rows.push(row);
  t.deepEqual(rows, [
    ['A', 'B'],
    ['1', 'two\nlines'],
    ['3', '4'],
  ]);
});

test('AdminLookup: holes, MultiPolygon parts, smallest area per layer, nothing outside', (t) => {
  const withHole: Polygon = { type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(4, 4, 6, 6)] };
  const admins: AdminPolygon[] = [
    { layer: 'country', name: 'Big', gid: 'whosonfirst:country:1', country_a: 'BIG', geometry: withHole },
    {
      layer: 'locality',
      name: 'Town',
      gid: 'whosonfirst:locality:2',
      geometry: { type: 'MultiPolygon', coordinates: [[square(1, 1, 3, 3)], [square(7, 7, 9, 9)]] },
    },
    {
      layer: 'locality',
      name: 'Village',
      gid: 'whosonfirst:locality:3',
      geometry: { type: 'Polygon', coordinates: [square(1.5, 1.5, 2, 2)] },
    },
  ];
  const lookup = new AdminLookup(admins);
  t.is(lookup.enclosing(5, 5).country, undefined, 'inside the hole');
  t.is(lookup.enclosing(8, 8).locality?.name, 'Town', 'second part of the MultiPolygon');
  t.is(lookup.enclosing(1.7, 1.7).locality?.name, 'Village', 'the smaller locality wins');
  t.is(lookup.enclosing(2.5, 2.5).locality?.name, 'Town');
  t.deepEqual(lookup.enclosing(20, 20), {});

  const inTown = lookup.withHierarchy(place(2.5, 2.5, { layer: 'address', country_a: 'XXX' }));
  t.like(inTown, {
    country: 'Big',
    country_a: 'BIG',
    country_gid: 'whosonfirst:country:1',
    locality: 'Town',
    locality_gid: 'whosonfirst:locality:2',
  });
  const localityItself = lookup.withHierarchy(place(1.7, 1.7));
  t.like(
    localityItself,
    { locality: 'Here', locality_gid: 'geonames:locality:1', country: 'Big' },
    'a locality names itself, not the polygon',
  );
  const outside = lookup.withHierarchy(place(20, 20, { country_a: 'DEU' }));
  t.like(outside, { country: 'Germany', country_a: 'DEU' }, 'outside every polygon the source country stays');
  t.is(outside.country_gid, undefined);
  t.deepEqual(new AdminLookup([]).enclosing(0, 0), {});
});

test('OpenAddresses rows: skips counted, ID column or stable hash, duplicates dropped, hints kept', async (t) => {
  const csv = [
    'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID',
    '7.42,43.73,12,Rue Grimaldi,,Monaco,,,98000,',
    '7.42,43.73,12,Rue Grimaldi,B,Monaco,,,98000,',
    '7.43,43.74,,Rue Grimaldi,,,,,,',
    '7.43,43.74,3,,,,,,,',
    ',43.74,5,Rue Basse,,,,,,',
    '200,43.74,5,Rue Basse,,,,,,',
    '0,0,5,Rue Basse,,,,,,',
    '7.44,43.75,"1,5","Avenue ""X""",,,,MC,,abc',
  ].join('\n');
  const file = await tempFile('mc-test.csv', csv);
  const read = async () => {
    const counts = emptyOpenAddressesCounts();
    const records: PlaceRecord[] = [];
    for await (const record of readOpenAddresses(file, counts)) records.push(record);
    return { counts, records };
  };
  const { counts, records } = await read();
  t.deepEqual(counts, { rows: 8, records: 2, skippedNoNumberOrStreet: 2, skippedInvalidPosition: 3, skippedDuplicate: 1 });
  t.like(records[0], {
    layer: 'address',
    name: '12 Rue Grimaldi',
    housenumber: '12',
    street: 'Rue Grimaldi',
    postalcode: '98000',
    locality: 'Monaco',
    lon: 7.42,
    lat: 43.73,
  });
  t.regex(records[0]!.gid, /^openaddresses:address:mc-test:[0-9a-f]{16}$/);
  t.like(records[1], { source_id: 'mc-test:abc', housenumber: '1,5', street: 'Avenue "X"', region: 'MC' });
  t.deepEqual(
    (await read()).records.map((r) => r.gid),
    records.map((r) => r.gid),
    'ids are stable across runs',
  );
});

test('OpenAddresses refuses a CSV without the address columns', async (t) => {
  const file = await tempFile('bad.csv', 'A,B\n1,2\n');
  await t.throwsAsync(
    async () => {
      for await (const _ of readOpenAddresses(file, emptyOpenAddressesCounts()));
    },
    { message: /not an OpenAddresses CSV \(no LON, LAT, NUMBER, STREET column\)/ },
  );
});
