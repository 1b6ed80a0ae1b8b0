// Named buildings, land use, natural features and squares as venues (issue 29), on the real
// extracts of ../shared/data: what the OSM pass makes of them, and how search, autocomplete and
// reverse answer them next to the points of interest of the same name.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metresBetween } from '../core/geo/distance.js';
import type { PlaceRecord } from '../core/geocoding/place-record.js';
import { readOsmForGeocoding, type OsmPlaceCounts } from '../data-pipeline/geocoding/osm.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { importanceOf } from '../data-pipeline/geocoding/index/importance.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import type { GeocodeFeature } from '../src/geocoding/response/feature.js';
import { sanitizeAutocomplete, sanitizeReverse, sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const WOF_DIRS = [sharedFile('wof', 'mc'), sharedFile('wof', 'ad')];
const INPUTS = [MONACO, ANDORRA, HEIDELBERG, ...WOF_DIRS];

// building=yes with name and addr:* (Monaco).
const ATHOS_PALACE = 'openstreetmap:venue:way/49209295';
// A building and, 101 m away, a tourism=attraction node of the same name (Monaco).
const GRIMALDI_FORUM_BUILDING = 'openstreetmap:venue:way/94452775';
const GRIMALDI_FORUM_POI = 'openstreetmap:venue:node/1699777422';
// A building and, 28 m away, an amenity=theatre node of the same name (Monaco).
const AUDITORIUM_BUILDING = 'openstreetmap:venue:way/112689159';
const AUDITORIUM_POI = 'openstreetmap:venue:node/2104784507';
// Andorra's highest peak: a natural=peak node.
const COMAPEDROSA = 'openstreetmap:venue:node/901125108';
// A student residence: building=dormitory with name and addr:* (Heidelberg).
const MAX_KADE_HAUS = 'openstreetmap:venue:way/26007317';
// A named pedestrian area (highway=pedestrian, area=yes), a square (Heidelberg).
const UNIVERSITAETSPLATZ = 'openstreetmap:venue:way/14327307';

const spillDir = mkdtempSync(join(tmpdir(), 'waymark-venues-spill-'));
test.after.always(() => rmSync(spillDir, { recursive: true, force: true }));

async function readPlaces(file: string): Promise<{ records: PlaceRecord[]; counts: OsmPlaceCounts }> {
  const read = await readOsmForGeocoding(file, () => {}, { spillFile: join(spillDir, file.split('/').pop()!), cacheKiB: 8192 });
  try {
    return { records: [...read.places.records()], counts: read.places.counts };
  } finally {
    read.close();
  }
}

dataTest('OSM pass: a named building is a minor venue with its address, at a point inside its outline', [MONACO], async (t) => {
  const { records, counts } = await readPlaces(MONACO);
  t.log('Monaco', counts);
  const byGid = new Map(records.map((r) => [r.gid, r]));
  const athos = byGid.get(ATHOS_PALACE)!;
  t.like(athos, { layer: 'venue', name: 'Athos Palace', housenumber: '2', street: 'Rue de la Lüjerneta', minor_venue: true });
  const [minLon, minLat, maxLon, maxLat] = athos.bbox!;
  t.true(athos.lon > minLon && athos.lon < maxLon && athos.lat > minLat && athos.lat < maxLat, 'a point inside the building');
  t.like(
    byGid.get('openstreetmap:address:way/49209295'),
    { name: '2 Rue de la Lüjerneta', lon: athos.lon, lat: athos.lat },
    'and an address record, as every addressed element',
  );
  t.like(byGid.get(GRIMALDI_FORUM_BUILDING), { minor_venue: true });
  t.is(byGid.get(GRIMALDI_FORUM_POI)!.minor_venue, undefined, 'a tourism=attraction node is a point of interest');
  t.true(
    importanceOf(byGid.get(GRIMALDI_FORUM_BUILDING)!) < importanceOf(byGid.get(GRIMALDI_FORUM_POI)!),
    'the building ranks below the point of interest of its name',
  );
  t.true(counts.minorVenues > 50 && counts.minorVenues < counts.venues, `${counts.minorVenues} minor venues`);
  t.true(
    records.every((r) => r.layer !== 'venue' || r.name !== ''),
    'unnamed buildings make nothing',
  );
});

dataTest('OSM pass: peaks and river areas are venues, a river line is none', [ANDORRA], async (t) => {
  const { records, counts } = await readPlaces(ANDORRA);
  t.log('Andorra', counts);
  const byGid = new Map(records.map((r) => [r.gid, r]));
  t.like(byGid.get(COMAPEDROSA), { name: 'Pic de Comapedrosa', minor_venue: true });
  t.like(byGid.get('openstreetmap:venue:way/8880952'), { name: 'Riu Gran Valira', minor_venue: true }, 'waterway=riverbank area');
  t.false(
    records.some((r) => r.source_id === 'way/6242747'),
    'the waterway=river way "Valira del Nord" is one piece of a line',
  );
});

function features(index: GeocoderIndex, endpoint: 'search' | 'autocomplete' | 'reverse', query: string): GeocodeFeature[] {
  const params = new URLSearchParams(query);
  if (endpoint === 'reverse') return reverse(index, sanitizeReverse(params).params);
  return endpoint === 'search'
    ? search(index, sanitizeSearch(params).params, false).features
    : search(index, sanitizeAutocomplete(params).params, true).features;
}

function gids(list: GeocodeFeature[]): string[] {
  return list.map((f) => f.properties.gid);
}

/** No two features of one layer and name within 200 m (the venue radius of the de-duplication). */
function assertNoTwins(t: ExecutionContext, list: GeocodeFeature[]): void {
  for (const [i, a] of list.entries())
    for (const b of list.slice(i + 1)) {
      const [aLon, aLat] = a.geometry.coordinates;
      const [bLon, bLat] = b.geometry.coordinates;
      const twins =
        a.properties.layer === b.properties.layer && a.properties.name === b.properties.name && metresBetween(aLon, aLat, bLon, bLat) < 200;
      t.false(twins, `${a.properties.gid} and ${b.properties.gid} are one place`);
    }
}

let dir = '';
let index: GeocoderIndex | undefined;

dataTest(
  'index: venues found by name with a locality, a point of interest before the building of its name, no twins',
  INPUTS,
  async (t) => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-venues-'));
    const file = join(dir, 'geocoder.sqlite');
    await buildGeocoderIndex({ osmFiles: [MONACO, ANDORRA, HEIDELBERG], wofDirs: WOF_DIRS, oaFiles: [], geonames: true }, file, () => {});
    index = new GeocoderIndex(file);

    const athos = features(index, 'search', 'text=Athos Palace, Monaco');
    t.is(athos[0]?.properties.gid, ATHOS_PALACE);
    t.like(athos[0]?.properties, { layer: 'venue', housenumber: '2', street: 'Rue de la Lüjerneta', match_type: 'exact' });
    assertNoTwins(t, athos);
    t.is(features(index, 'autocomplete', 'text=Athos Pal')[0]?.properties.gid, ATHOS_PALACE, 'autocomplete');

    t.is(features(index, 'search', 'text=Internationales Max Kade Haus INF, Heidelberg')[0]?.properties.gid, MAX_KADE_HAUS);
    t.is(features(index, 'search', 'text=Pic de Comapedrosa, Andorra')[0]?.properties.gid, COMAPEDROSA);
    t.is(features(index, 'autocomplete', 'text=Pic de Comaped')[0]?.properties.gid, COMAPEDROSA);
    t.is(features(index, 'search', 'text=Universitätsplatz, Heidelberg')[0]?.properties.gid, UNIVERSITAETSPLATZ);

    // The point of interest first; its building, near it and of the same name, is the same place.
    for (const [query, poi, building] of [
      ['text=Grimaldi Forum', GRIMALDI_FORUM_POI, GRIMALDI_FORUM_BUILDING],
      ['text=Grimaldi Forum, Monaco', GRIMALDI_FORUM_POI, GRIMALDI_FORUM_BUILDING],
      ['text=Auditorium Rainier III', AUDITORIUM_POI, AUDITORIUM_BUILDING],
    ] as const) {
      const list = features(index, 'search', query);
      t.log(query, gids(list).slice(0, 4));
      t.is(list[0]?.properties.gid, poi, query);
      t.false(gids(list).includes(building), `${query}: the building is not listed apart`);
      assertNoTwins(t, list);
    }
    const typed = features(index, 'autocomplete', 'text=Grimaldi For');
    t.is(typed[0]?.properties.gid, GRIMALDI_FORUM_POI, 'autocomplete');
    assertNoTwins(t, typed);

    // Caldea (Andorra) is a building node and a building outline: one result.
    const caldea = features(index, 'search', 'text=Caldea');
    t.is(caldea.filter((f) => f.properties.name === 'Caldea').length, 1, gids(caldea).join(', '));

    // Reverse inside the Athos Palace: the building or its address first, nearer than anything else.
    const [lon, lat] = athos[0]!.geometry.coordinates;
    const near = features(index, 'reverse', `point.lat=${lat}&point.lon=${lon}`);
    t.log('reverse', gids(near).slice(0, 4));
    t.true(
      ['openstreetmap:venue:way/49209295', 'openstreetmap:address:way/49209295'].includes(near[0]!.properties.gid),
      near[0]!.properties.gid,
    );
    t.true(near[0]!.properties.distance! < 0.001);
    assertNoTwins(t, near);
  },
  true,
);

test.after.always(() => {
  index?.close();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});
