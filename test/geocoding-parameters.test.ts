// Issue 29: Pelias' boundary.rect, boundary.circle, boundary.gid and categories on real data (OSM
// Monaco and Andorra with WOF mc + ad, one index for the file): each filter keeps only what it
// should and still finds something, on search, structured search, autocomplete and reverse; the
// categories imported from OSM tags (Pelias' taxonomy) and the `category` property.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { categoriesOf } from '../core/geocoding/categories.js';
import { metresBetween } from '../core/geo/distance.js';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { place } from '../src/geocoding/engine/place.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import { structuredSearch } from '../src/geocoding/engine/structured-search.js';
import type { GeocodeFeature } from '../src/geocoding/response/feature.js';
import { echoReverse, echoSearch } from '../src/geocoding/response/query-echo.js';
import {
  sanitizeAutocomplete,
  sanitizePlace,
  sanitizeReverse,
  sanitizeSearch,
  sanitizeStructured,
} from '../src/geocoding/sanitize/endpoints.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const OSM_FILES = ['monaco', 'andorra'].map((name) => sharedFile('osm', `${name}.osm.pbf`));
const WOF_DIRS = [sharedFile('wof', 'mc'), sharedFile('wof', 'ad')];
const INPUTS = [...OSM_FILES, ...WOF_DIRS];

const MONACO = 'whosonfirst:country:85633285';
const ANDORRA = 'whosonfirst:country:85632343';
/** A hotel in La Massana, whose hierarchy names the locality and region the filters are tried with. */
const HOTEL_FONT = 'openstreetmap:venue:node/442881670';
const CASINO = 'openstreetmap:venue:way/161769674';
const CAFE_DE_PARIS = 'openstreetmap:venue:way/157719654';
const CASINO_AT = { lat: 43.7394, lon: 7.4286 };
/** The map view of central Monaco a geocoder control sends for "search this map view". */
const VIEW = { south: 43.72, north: 43.76, west: 7.4, east: 7.44 };
const VIEW_QUERY = `boundary.rect.min_lat=${VIEW.south}&boundary.rect.max_lat=${VIEW.north}&boundary.rect.min_lon=${VIEW.west}&boundary.rect.max_lon=${VIEW.east}`;

test('categoriesOf maps OSM tags to Pelias categories, cumulatively, with wildcards', (t) => {
  t.deepEqual(categoriesOf({ amenity: 'restaurant', cuisine: 'pizza' }), ['food', 'retail', 'nightlife', 'food:pizza']);
  t.deepEqual(categoriesOf({ shop: 'bakery' }), ['retail', 'food']);
  t.deepEqual(categoriesOf({ aeroway: 'aerodrome' }), ['transport', 'transport:air', 'transport:air:aerodrome']);
  t.deepEqual(categoriesOf({ cuisine: 'doughnut' }), ['food', 'food:donut']);
  t.deepEqual(categoriesOf({ railway: 'station', public_transport: 'station' }), [
    'transport',
    'transport:public',
    'transport:station',
    'transport:rail',
  ]);
  t.is(categoriesOf({ amenity: 'bench' }), undefined);
  t.is(categoriesOf({ amenity: 'constructor', tourism: '__proto__' }), undefined, 'values are looked up as own keys only');
  t.is(categoriesOf({ 'addr:housenumber': '1' }), undefined);
});

const missing = INPUTS.filter((file) => !existsSync(file));
if (missing.length > 0) {
  dataTest('geocoding parameters over the shared data', INPUTS, () => {});
} else {
  let dir = '';
  let index: GeocoderIndex;

  test.before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-parameters-'));
    const file = join(dir, 'geocoder.sqlite');
    await buildGeocoderIndex({ osmFiles: OSM_FILES, wofDirs: WOF_DIRS, oaFiles: [], geonames: false }, file, () => {});
    index = new GeocoderIndex(file);
  });

  test.after.always(() => {
    index?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const searched = (query: string) => search(index, sanitizeSearch(new URLSearchParams(query)).params, false).features;
  const completed = (query: string) => search(index, sanitizeAutocomplete(new URLSearchParams(query)).params, true).features;
  const structured = (query: string) => structuredSearch(index, sanitizeStructured(new URLSearchParams(query)).params).features;
  const reversed = (query: string) => reverse(index, sanitizeReverse(new URLSearchParams(query)).params);
  const inView = ({
    geometry: {
      coordinates: [lon, lat],
    },
  }: GeocodeFeature) => lon >= VIEW.west && lon <= VIEW.east && lat >= VIEW.south && lat <= VIEW.north;
  const metresFromCasino = ({
    geometry: {
      coordinates: [lon, lat],
    },
  }: GeocodeFeature) => metresBetween(CASINO_AT.lon, CASINO_AT.lat, lon, lat);
  const hierarchyHolds = (gid: string) => (feature: GeocodeFeature) =>
    feature.properties.gid === gid || Object.values(feature.properties).includes(gid);

  /** Every feature passes, there is one at least, and without the filter some feature does not pass. */
  function onlyInside(
    t: ExecutionContext,
    filtered: GeocodeFeature[],
    unfiltered: GeocodeFeature[],
    inside: (feature: GeocodeFeature) => boolean,
  ) {
    t.true(filtered.length > 0, 'the filter leaves results');
    for (const feature of filtered) t.true(inside(feature), `${feature.properties.gid} ${feature.geometry.coordinates.join(',')}`);
    t.true(
      unfiltered.some((feature) => !inside(feature)),
      'the filter has something to filter',
    );
  }

  test('boundary.rect ("search this map view") keeps only results inside it, on search, autocomplete and structured search', (t) => {
    onlyInside(t, searched(`text=hotel&size=40&${VIEW_QUERY}`), searched('text=hotel&size=40'), inView);
    t.true(searched(`text=hotel&size=40&${VIEW_QUERY}`).length > 1);
    onlyInside(t, completed(`text=hot&size=40&${VIEW_QUERY}`), completed('text=hot&size=40'), inView);
    onlyInside(t, structured(`address=Boulevard&size=40&${VIEW_QUERY}`), structured('address=Boulevard&size=40'), inView);
    // A focus point outside the view only reorders what is inside it.
    const focused = searched(`text=hotel&size=40&${VIEW_QUERY}&focus.point.lat=42.5&focus.point.lon=1.5`);
    t.true(focused.length > 0 && focused.every(inView));
  });

  test('boundary.circle keeps only results within its radius, 50 km by default', (t) => {
    const circle = `boundary.circle.lat=${CASINO_AT.lat}&boundary.circle.lon=${CASINO_AT.lon}`;
    onlyInside(
      t,
      searched(`text=hotel&size=40&${circle}&boundary.circle.radius=1`),
      searched('text=hotel&size=40'),
      (f) => metresFromCasino(f) <= 1000,
    );
    onlyInside(
      t,
      completed(`text=hot&size=40&${circle}&boundary.circle.radius=2`),
      completed('text=hot&size=40'),
      (f) => metresFromCasino(f) <= 2000,
    );
    // Andorra is 400 km away: the default radius keeps Monaco's hotels only.
    onlyInside(t, searched(`text=hotel&size=40&${circle}`), searched('text=hotel&size=40'), (f) => metresFromCasino(f) <= 50_000);
    // Rect and circle together: both apply.
    const both = searched(`text=hotel&size=40&${circle}&boundary.circle.radius=1&${VIEW_QUERY}`);
    t.true(both.length > 0 && both.every((f) => inView(f) && metresFromCasino(f) <= 1000));
  });

  test('boundary.gid keeps the places inside an admin place and the place itself', (t) => {
    onlyInside(t, searched(`text=hotel&size=40&boundary.gid=${ANDORRA}`), searched('text=hotel&size=40'), hierarchyHolds(ANDORRA));
    const [hotel] = place(index, sanitizePlace(new URLSearchParams(`ids=${HOTEL_FONT}`)).params);
    for (const gid of [hotel!.properties.locality_gid!, hotel!.properties.region_gid!]) {
      onlyInside(t, searched(`text=hotel&size=40&boundary.gid=${gid}`), searched('text=hotel&size=40'), hierarchyHolds(gid));
    }
    onlyInside(t, completed(`text=hot&size=40&boundary.gid=wof:country:85633285`), completed('text=hot&size=40'), hierarchyHolds(MONACO));
    t.deepEqual(
      searched(`text=Andorra&layers=country&boundary.gid=${ANDORRA}`).map((f) => f.properties.gid),
      [ANDORRA],
    );
    t.deepEqual(searched(`text=Monaco&layers=country&boundary.gid=${ANDORRA}`), []);
    t.deepEqual(searched('text=hotel&boundary.gid=whosonfirst:locality:1'), [], 'an unknown GID holds nothing');
  });

  test('categories keep the venues of those categories, which carry the category property', (t) => {
    const eateries = searched(`text=cafe&size=40&categories=food`);
    onlyInside(t, eateries, searched('text=cafe&size=40&categories='), (f) => f.properties.category?.includes('food') === true);
    t.true(
      searched('text=cafe&size=40').every((f) => f.properties.category === undefined),
      'no property unless asked',
    );
    t.true(
      searched('text=cafe&size=40&categories=').some((f) => f.properties.category !== undefined),
      'blank: the property without a filter',
    );
    const hotels = completed('text=hot&size=40&categories=accommodation,nightlife');
    t.true(hotels.length > 0 && hotels.every((f) => f.properties.category?.some((c) => c === 'accommodation' || c === 'nightlife')));
    t.true(structured('locality=Monaco&categories=food').every((f) => f.properties.category?.includes('food')));
    const [cafe, casino] = place(index, sanitizePlace(new URLSearchParams(`ids=${CAFE_DE_PARIS},${CASINO}&categories=`)).params);
    t.deepEqual(cafe?.properties.category, ['food', 'retail']);
    t.deepEqual(casino?.properties.category, ['nightlife', 'entertainment']);
  });

  test('reverse takes boundary.circle.radius, boundary.gid and categories', (t) => {
    const at = `point.lat=${CASINO_AT.lat}&point.lon=${CASINO_AT.lon}&size=40`;
    const near = reversed(`${at}&boundary.circle.radius=0.1&layers=venue,address,street`);
    onlyInside(t, near, reversed(`${at}&layers=venue,address,street`), (f) => metresFromCasino(f) <= 100);
    const food = reversed(`${at}&categories=food`);
    onlyInside(t, food, reversed(at), (f) => f.properties.category?.includes('food') === true);
    t.deepEqual(
      reversed(`${at}&boundary.gid=${MONACO}&layers=country`).map((f) => f.properties.gid),
      [MONACO],
      'the enclosing area itself',
    );
    t.true(reversed(`${at}&boundary.gid=${MONACO}`).every(hierarchyHolds(MONACO)));
    t.deepEqual(reversed(`${at}&boundary.gid=${ANDORRA}`), []);
  });

  test('the query echo shows the parsed parameters as Pelias names them', (t) => {
    const search = sanitizeSearch(
      new URLSearchParams(
        `text=hotel&${VIEW_QUERY}&boundary.circle.lat=43.7&boundary.circle.lon=7.4&boundary.gid=wof:country:85633285&categories=Food`,
      ),
    ).params;
    t.like(echoSearch(search), {
      'boundary.rect.min_lat': 43.72,
      'boundary.rect.max_lat': 43.76,
      'boundary.rect.min_lon': 7.4,
      'boundary.rect.max_lon': 7.44,
      'boundary.circle.lat': 43.7,
      'boundary.circle.lon': 7.4,
      'boundary.circle.radius': 50,
      'boundary.gid': '85633285',
      categories: ['food'],
    });
    const echo = echoReverse(
      sanitizeReverse(new URLSearchParams('point.lat=43.7&point.lon=7.4&boundary.circle.radius=9&categories=')).params,
    );
    t.like(echo, { 'boundary.circle.lat': 43.7, 'boundary.circle.lon': 7.4, 'boundary.circle.radius': 5, categories: [] });
    t.false('boundary.gid' in echo);
  });
}
