// Issue 11's address answers on a small hand-made index: house-number spellings, streets that
// begin with a preposition, the record's own admin names, fallbacks that never empty the answer,
// interpolation (between neighbours along the street line, and on addr:interpolation lines), and
// one result per door across sources.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeocoderIndexWriter } from '../data-pipeline/geocoding/index/writer.js';
import { placeGid, type PlaceLayer, type PlaceRecord, type PlaceSource } from '../core/geocoding/place-record.js';
import { houseNumberKey, houseNumberValue } from '../core/geocoding/house-number.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { parseQuery } from '../src/geocoding/engine/address-structure.js';
import { search } from '../src/geocoding/engine/search.js';
import { sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';

const HD = { country: 'Germany', country_a: 'DEU', locality: 'Heidelberg' };

function record(
  source: PlaceSource,
  layer: PlaceLayer,
  id: string,
  name: string,
  lon: number,
  lat: number,
  extra: Partial<PlaceRecord> = {},
): PlaceRecord {
  return { source, layer, source_id: id, gid: placeGid(source, layer, id), name, names: {}, lon, lat, ...extra };
}
const address = (id: string, housenumber: string, street: string, lon: number, lat: number, extra: Partial<PlaceRecord> = {}) =>
  record('openstreetmap', 'address', id, `${housenumber} ${street}`, lon, lat, { ...HD, housenumber, street, ...extra });

/** Hauptstraße runs along latitude 49.412; its even numbers lie north of it, the odd ones south. */
const HAUPTSTRASSE_LINE: [number, number][] = [
  [8.699, 49.412],
  [8.705, 49.412],
];
const RECORDS: PlaceRecord[] = [
  record('geonames', 'locality', '1', 'Heidelberg', 8.69, 49.41, { country: 'Germany', country_a: 'DEU', population: 160_000 }),
  record('openstreetmap', 'street', 'way/10', 'Hauptstraße', 8.702, 49.412, { ...HD, bbox: [8.699, 49.412, 8.705, 49.412] }),
  address('node/1', '10', 'Hauptstraße', 8.7, 49.4122),
  address('node/2', '20', 'Hauptstraße', 8.704, 49.4122),
  address('node/3', '11', 'Hauptstraße', 8.7005, 49.4118),
  address('node/4', '21', 'Hauptstraße', 8.7035, 49.4118),
  record('openstreetmap', 'street', 'way/11', 'Bergstraße', 8.712, 49.42, { ...HD, bbox: [8.71, 49.42, 8.714, 49.42] }),
  address('node/5', '1', 'Bergstraße', 8.71, 49.42),
  address('node/6', '9', 'Bergstraße', 8.714, 49.42),
  // Spellings of house numbers.
  address('node/7', '12a', 'Friedrichstraße', 8.72, 49.43),
  address('node/8', '14-16', 'Friedrichstraße', 8.7202, 49.43),
  address('node/9', '18/3', 'Friedrichstraße', 8.7204, 49.43),
  record('openaddresses', 'address', 'oa:22', '22 A FRIEDRICHSTRASSE', 8.7206, 49.43, {
    ...HD,
    housenumber: '22 A',
    street: 'FRIEDRICHSTRASSE',
  }),
  // One door in two sources, 10 m apart.
  address('node/10', '5', 'Friedrichstraße', 8.7195, 49.43),
  record('openaddresses', 'address', 'oa:5', '5 FRIEDRICHSTRASSE', 8.71962, 49.43005, {
    ...HD,
    housenumber: '5',
    street: 'FRIEDRICHSTRASSE',
  }),
  // The admin polygons put it in Leimen; its addr:city says Heidelberg.
  address('way/20', '20', 'Im Breitspiel', 8.695, 49.37, { locality: 'Leimen', postalcode: '69126', admin_names: ['Heidelberg'] }),
  record('openstreetmap', 'street', 'way/12', 'Im Neuenheimer Feld', 8.67, 49.42, HD),
  address('way/21', '371', 'Im Neuenheimer Feld', 8.671, 49.421, { postalcode: '69120' }),
];

let dir: string;
let index: GeocoderIndex;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-geocoder-addresses-'));
  const writer = new GeocoderIndexWriter(join(dir, 'geocoder.sqlite'));
  for (const r of RECORDS) writer.add(r);
  writer.addStreetLine('Hauptstraße', HAUPTSTRASSE_LINE);
  writer.addAddressRange({
    street: 'Bergstraße',
    low: 1,
    high: 9,
    step: 2,
    line: [
      [8.71, 49.4201],
      [8.712, 49.4201],
      [8.714, 49.4201],
    ],
  });
  writer.finish(() => {});
  index = new GeocoderIndex(join(dir, 'geocoder.sqlite'));
});

test.after.always(() => {
  index?.close();
  rmSync(dir, { recursive: true, force: true });
});

const searchFor = (text: string) => search(index, sanitizeSearch(new URLSearchParams({ text })).params, false).features;
const first = (text: string) => searchFor(text)[0]?.properties;

test('house numbers: one key for 12a and 12 A, the number they begin with', (t) => {
  t.is(houseNumberKey('12 A'), '12a');
  t.is(houseNumberKey('12a'), '12a');
  t.is(houseNumberKey('12-14'), '12 14');
  t.is(houseNumberKey('12 / 3'), '12 3');
  t.is(houseNumberValue('12a'), 12);
  t.is(houseNumberValue('14-16'), 14);
  t.is(houseNumberValue('A4'), undefined);
  t.is(houseNumberValue('123456'), undefined, 'not a house number');
});

test('every spelling of a house number, before or after the street, with or without postcode and locality, finds the one record', (t) => {
  const spellings: Record<string, string[]> = {
    'openstreetmap:address:node/7': [
      'Friedrichstraße 12a',
      'Friedrichstraße 12 A',
      '12a Friedrichstraße',
      '12A Friedrichstrasse, Heidelberg',
      'Friedrichstr. 12 a, 69117 Heidelberg',
    ],
    'openstreetmap:address:node/8': ['Friedrichstraße 14-16', 'Friedrichstraße 14 - 16, Heidelberg', '14-16 Friedrichstraße'],
    'openstreetmap:address:node/9': ['Friedrichstraße 18/3', '18/3 Friedrichstraße, Heidelberg'],
    'openaddresses:address:oa:22': ['Friedrichstraße 22a', 'Friedrichstraße 22 A, Heidelberg', '22a Friedrichstraße'],
  };
  for (const [gid, texts] of Object.entries(spellings)) {
    for (const text of texts) t.like(first(text), { gid, match_type: 'exact' }, text);
  }
});

test('streets that begin with a preposition or an article parse as streets, the postcode and locality apart', (t) => {
  t.deepEqual(parseQuery('Im Neuenheimer Feld 371, 69120 Heidelberg'), {
    housenumber: '371',
    street: 'Im Neuenheimer Feld',
    postcode: '69120',
    locality: 'Heidelberg',
  });
  t.deepEqual(parseQuery('Am Grünen Hag 2, 69118 Heidelberg'), {
    housenumber: '2',
    street: 'Am Grünen Hag',
    postcode: '69118',
    locality: 'Heidelberg',
  });
  t.deepEqual(parseQuery('Gewann Fischpfad 4, Heidelberg'), { housenumber: '4', street: 'Gewann Fischpfad', locality: 'Heidelberg' });
  t.like(parseQuery('12 rue de la Paix, 98000 Monaco'), { housenumber: '12', street: 'rue de la Paix', postcode: '98000' });
  t.like(
    parseQuery('4844 E Rezanof Dr, Kodiak'),
    { housenumber: '4844', street: 'E Rezanof Dr' },
    'a compass letter before the street is not part of the number',
  );
  t.like(parseQuery('4844 E Rezanof Dr'), { housenumber: '4844', street: 'E Rezanof Dr' });
  t.like(parseQuery('Hauptstraße 12 E'), { housenumber: '12 E', street: 'Hauptstraße' }, 'after the street it is');
  t.deepEqual(
    parseQuery('Im Neuenheimer Feld 136 A'),
    { housenumber: '136 A', street: 'Im Neuenheimer Feld' },
    'pelias-parser finds nothing here',
  );
  t.like(parseQuery('Grabengasse 14 - 18'), { housenumber: '14 - 18', street: 'Grabengasse' });
  t.like(parseQuery('30a-g Bergstraße'), { housenumber: '30a-g', street: 'Bergstraße' });
  t.like(parseQuery('Heidelberg 69120'), { locality: 'Heidelberg', postcode: '69120' }, 'a postcode is no house number');
  t.like(first('Im Neuenheimer Feld 371, 69120 Heidelberg'), { gid: 'openstreetmap:address:way/21', confidence: 1 });
});

test("a record's own addr:city counts like its admin names; the hierarchy's locality still does", (t) => {
  t.like(first('Im Breitspiel 20, Heidelberg'), { gid: 'openstreetmap:address:way/20', confidence: 1, locality: 'Leimen' });
  t.like(first('Im Breitspiel 20, 69126 Leimen'), { gid: 'openstreetmap:address:way/20', confidence: 1 });
});

test('a locality or postcode that matches nothing never empties the answer: the address, else the street, else the locality', (t) => {
  const address = first('Im Breitspiel 20, 99999 Atlantis')!;
  t.like(address, { gid: 'openstreetmap:address:way/20', match_type: 'exact' });
  t.true(address.confidence! < 1, 'lower confidence without the locality and postcode asked');
  t.like(first('Im Neuenheimer Feld 999, 12345 Atlantis'), { gid: 'openstreetmap:street:way/12', match_type: 'fallback' });
  t.like(first('Nirgendwogasse 5, Heidelberg'), { gid: 'geonames:locality:1', match_type: 'fallback' });
  t.like(first('Heidelberg Qwxzv Zyxwv'), { gid: 'geonames:locality:1', match_type: 'fallback' }, 'any word that matches');
});

test('a house number between two known ones is interpolated along the street line, of the same parity, below an exact match', (t) => {
  const features = searchFor('Hauptstraße 14, Heidelberg');
  const interpolated = features[0]!;
  t.like(interpolated.properties, {
    layer: 'address',
    match_type: 'interpolated',
    accuracy: 'point',
    housenumber: '14',
    street: 'Hauptstraße',
    name: 'Hauptstraße 14',
    locality: 'Heidelberg',
  });
  t.true(interpolated.properties.confidence! <= 0.8 && interpolated.properties.confidence! > 0.6);
  // 14 is 40 % of the way from 10 (lon 8.700) to 20 (lon 8.704), on the street line, not between the two points.
  const [lon, lat] = interpolated.geometry.coordinates;
  t.true(Math.abs(lon - 8.7016) < 1e-6 && Math.abs(lat - 49.412) < 1e-9, `${lon}, ${lat}`);
  t.is(features[1]!.properties.gid, 'openstreetmap:street:way/10', 'the street after it');
  // 15 lies between the odd 11 and 21 (not between 11 and 20): 40 % from lon 8.7005 to 8.7035.
  t.true(Math.abs(searchFor('Hauptstraße 15')[0]!.geometry.coordinates[0] - 8.7017) < 1e-6);
  t.like(
    first('Hauptstraße 10, Heidelberg'),
    { gid: 'openstreetmap:address:node/1', match_type: 'exact' },
    'a number the data has is never interpolated',
  );
});

test('no interpolation beyond the known numbers of a street: the street as a fallback', (t) => {
  t.like(first('Hauptstraße 30, Heidelberg'), { gid: 'openstreetmap:street:way/10', match_type: 'fallback' });
  t.like(first('Hauptstraße 2, Heidelberg'), { gid: 'openstreetmap:street:way/10', match_type: 'fallback' });
});

test('an addr:interpolation line places the numbers of its step along it', (t) => {
  const five = searchFor('Bergstraße 5, Heidelberg')[0]!;
  t.is(five.properties.match_type, 'interpolated');
  const [lon, lat] = five.geometry.coordinates;
  t.true(Math.abs(lon - 8.712) < 1e-6 && Math.abs(lat - 49.4201) < 1e-9, `on the line: ${lon}, ${lat}`);
});

test('one door in OSM and OpenAddresses gives one result', (t) => {
  const doors = searchFor('Friedrichstraße 5, Heidelberg').filter((f) => f.properties.housenumber === '5');
  t.is(doors.length, 1);
});

test('address-like texts of any shape parse and search without an error (seeded fuzz)', (t) => {
  const pieces = [
    '12',
    '4844',
    '0',
    '99999',
    '123456',
    ' ',
    ' ',
    ',',
    ', ',
    '-',
    '/',
    ' - ',
    'A',
    'e',
    'N',
    'ß',
    'Im',
    'Am',
    'Hauptstraße',
    'Bergstraße',
    'Heidelberg',
    '69120',
    'rue',
    'de',
    'la',
    '٣',
    'Ⅻ',
    '𝔸',
    '*',
    '"',
    '(',
    '\\',
    '$',
  ];
  let seed = 11;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < 2000; i++) {
    const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    t.notThrows(() => parseQuery(text), text);
    t.notThrows(() => search(index, { ...sanitizeSearch(new URLSearchParams({ text: 'x' })).params, text }, i % 2 === 0), text);
  }
});
