import test from 'ava';
import { readFileSync } from 'node:fs';
import { boundingBox, featureCollection } from '../src/geocoding/response/collection.js';
import { toFeature } from '../src/geocoding/response/feature.js';
import { label } from '../src/geocoding/response/label.js';
import { echoPlace, echoReverse, echoSearch } from '../src/geocoding/response/query-echo.js';
import type { GeocodeRecord } from '../core/geocoding/indexed-record.js';
import { sanitizePlace, sanitizeReverse, sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const context = { baseUrl: 'https://maps.example.org', now: 1718000000000 };

const monacoVenue: GeocodeRecord = {
  source: 'openstreetmap',
  layer: 'venue',
  sourceId: 'node/1234',
  name: 'Café de Paris',
  lon: 7.4276,
  lat: 43.7393,
  street: 'Place du Casino',
  country: 'Monaco',
  country_a: 'MCO',
  country_gid: 'whosonfirst:country:85633001',
  neighbourhood: 'Monte-Carlo',
  neighbourhood_gid: 'whosonfirst:neighbourhood:1108807411',
  locality: 'Monaco',
  locality_gid: 'whosonfirst:locality:101751765',
};

const heidelbergAddress: GeocodeRecord = {
  source: 'openaddresses',
  layer: 'address',
  sourceId: 'de/bw/statewide:9f1c',
  name: 'Hauptstraße 120',
  housenumber: '120',
  street: 'Hauptstraße',
  postalcode: '69117',
  lon: 8.7005,
  lat: 49.4113,
  country: 'Germany',
  country_a: 'DEU',
  region: 'Baden-Württemberg',
  region_a: 'BW',
  locality: 'Heidelberg',
};

const heidelbergLocality: GeocodeRecord = {
  source: 'whosonfirst',
  layer: 'locality',
  sourceId: '101748453',
  name: 'Heidelberg',
  names: { de: 'Heidelberg', fr: 'Heidelberg (Allemagne)' },
  lon: 8.69,
  lat: 49.41,
  bbox: [8.57, 49.35, 8.79, 49.46],
  country: 'Germany',
  country_a: 'DEU',
  region: 'Baden-Württemberg',
  locality: 'Heidelberg',
  locality_gid: 'whosonfirst:locality:101748453',
};

const andorraCity: GeocodeRecord = {
  source: 'geonames',
  layer: 'locality',
  sourceId: '3041563',
  name: 'Andorra la Vella',
  lon: 1.52109,
  lat: 42.50779,
  country: 'Andorra',
  country_a: 'AND',
  locality: 'Andorra la Vella',
};

test('labels follow pelias/labels: Monaco venue, Heidelberg address, WOF locality, GeoNames city', (t) => {
  t.is(label(monacoVenue), 'Café de Paris, Monte-Carlo, Monaco');
  // The default schema: locality, the region's code (else its name), country.
  t.is(label(heidelbergAddress), 'Hauptstraße 120, Heidelberg, BW, Germany');
  t.is(label(heidelbergLocality), 'Heidelberg, Baden-Württemberg, Germany');
  t.is(label(andorraCity), 'Andorra la Vella, Andorra');
});

test('labels: a region called as its locality is left out; France, Great Britain and Italy as pelias/labels', (t) => {
  t.is(label({ ...andorraCity, region: 'Andorra la Vella', region_a: 'AN' }), 'Andorra la Vella, Andorra', 'a city that is its own region');
  t.is(
    label({ ...andorraCity, name: 'Pas de la Casa', locality: 'Pas de la Casa', region: 'Encamp', region_a: 'EN' }),
    'Pas de la Casa, EN, Andorra',
  );
  const paris: GeocodeRecord = {
    ...andorraCity,
    name: 'Paris',
    locality: 'Paris',
    region: 'Île-de-France',
    country: 'France',
    country_a: 'FRA',
  };
  t.is(label(paris), 'Paris, France', 'France: no region');
  t.is(
    label({ ...paris, name: 'Saint-Denis', locality: 'Saint-Denis', region: 'Réunion', region_a: 'RE' }),
    'Saint-Denis, Réunion',
    'overseas',
  );
  t.is(
    label({ ...paris, name: 'Leeds', locality: 'Leeds', region: 'England', country: 'United Kingdom', country_a: 'GBR' }),
    'Leeds, United Kingdom',
  );
  t.is(
    label({ ...paris, name: 'Pisa', locality: 'Pisa', region: 'Toscana', region_a: 'PI', country: 'Italy', country_a: 'ITA' }),
    'Pisa, PI, Italy',
  );
});

test('an address is named street first where Pelias does (Germany, the Nordic countries, Czechia), number first elsewhere', (t) => {
  const german = { ...heidelbergAddress, name: '120 Hauptstraße' };
  t.like(toFeature(german).properties, { name: 'Hauptstraße 120', label: 'Hauptstraße 120, Heidelberg, BW, Germany' });
  const american = {
    ...german,
    name: '120 Main Street',
    street: 'Main Street',
    country: 'United States',
    country_a: 'USA',
    region_a: 'MD',
  };
  t.like(toFeature({ ...american, locality: 'Baltimore' }).properties, {
    name: '120 Main Street',
    label: '120 Main Street, Baltimore, MD, USA',
  });
});

test('labels: countries, US regions and US places', (t) => {
  const country = { ...andorraCity, layer: 'country' as const, name: 'Andorra', locality: undefined };
  t.is(label(country), 'Andorra');
  const lancaster: GeocodeRecord = {
    source: 'geonames',
    layer: 'locality',
    sourceId: '5197079',
    name: 'Lancaster',
    lon: -76.3,
    lat: 40.04,
    locality: 'Lancaster',
    region: 'Pennsylvania',
    region_a: 'PA',
    country: 'United States',
    country_a: 'USA',
  };
  t.is(label(lancaster), 'Lancaster, PA, USA');
  const pennsylvania: GeocodeRecord = { ...lancaster, source: 'whosonfirst', layer: 'region', name: 'Pennsylvania', locality: undefined };
  t.is(label(pennsylvania), 'Pennsylvania, USA');
  t.is(label({ ...lancaster, country: undefined, country_a: undefined, region: undefined, region_a: undefined }), 'Lancaster');
});

test('a feature carries the Pelias properties in Pelias order, only those known', (t) => {
  const feature = toFeature(monacoVenue, { confidence: 0.9, match_type: 'exact', accuracy: 'point', distanceKm: 1.23456 });
  const expected = {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [7.4276, 43.7393] },
    properties: {
      id: 'node/1234',
      gid: 'openstreetmap:venue:node/1234',
      layer: 'venue',
      source: 'openstreetmap',
      source_id: 'node/1234',
      name: 'Café de Paris',
      street: 'Place du Casino',
      confidence: 0.9,
      match_type: 'exact',
      accuracy: 'point',
      distance: 1.235,
      country: 'Monaco',
      country_gid: 'whosonfirst:country:85633001',
      country_a: 'MCO',
      locality: 'Monaco',
      locality_gid: 'whosonfirst:locality:101751765',
      neighbourhood: 'Monte-Carlo',
      neighbourhood_gid: 'whosonfirst:neighbourhood:1108807411',
      label: 'Café de Paris, Monte-Carlo, Monaco',
    },
  };
  t.is(JSON.stringify(feature), JSON.stringify(expected));
  t.false('bbox' in feature);
  t.false('housenumber' in feature.properties);
});

test('an address feature has housenumber, street and postalcode; an area keeps its bbox', (t) => {
  const address = toFeature(heidelbergAddress).properties;
  t.like(address, { housenumber: '120', street: 'Hauptstraße', postalcode: '69117', region: 'Baden-Württemberg', region_a: 'BW' });
  t.false('confidence' in address || 'distance' in address);
  t.deepEqual(toFeature(heidelbergLocality).bbox, [8.57, 49.35, 8.79, 49.46]);
});

test('lang picks the name in that language where the data has it, for its own admin layer and label too', (t) => {
  const french = sanitizeSearch(new URLSearchParams('text=heidelberg&lang=fr-FR')).params.lang;
  const italian = sanitizeSearch(new URLSearchParams('text=heidelberg&lang=it')).params.lang;
  t.like(toFeature(heidelbergLocality, { lang: french }).properties, {
    name: 'Heidelberg (Allemagne)',
    locality: 'Heidelberg (Allemagne)',
    label: 'Heidelberg (Allemagne), Baden-Württemberg, Germany',
  });
  t.is(toFeature(heidelbergLocality, { lang: italian }).properties.name, 'Heidelberg');
});

test('bbox spans feature bboxes and points', (t) => {
  t.is(boundingBox([]), undefined);
  t.deepEqual(boundingBox([toFeature(andorraCity)]), [1.52109, 42.50779, 1.52109, 42.50779]);
  t.deepEqual(
    boundingBox([toFeature(monacoVenue), toFeature(heidelbergLocality), toFeature(andorraCity)]),
    [1.52109, 42.50779, 8.79, 49.46],
  );
});

test('a search response is a Pelias FeatureCollection with the geocoding block', (t) => {
  const { params, warnings } = sanitizeSearch(
    new URLSearchParams('text=Heidelberg&size=50&layers=coarse&sources=wof&focus.point.lat=49.4&focus.point.lon=8.7&boundary.country=DE'),
  );
  const parse = { parser: 'pelias', parsed_text: { city: 'Heidelberg' } };
  const body = featureCollection(echoSearch(params, parse), [toFeature(heidelbergLocality)], warnings, context);
  const expected = {
    geocoding: {
      version: '0.2',
      attribution: 'https://maps.example.org/attribution',
      query: {
        text: 'Heidelberg',
        size: 40,
        layers: ['neighbourhood', 'locality', 'region', 'country', 'postalcode'],
        sources: ['whosonfirst'],
        private: false,
        'focus.point.lat': 49.4,
        'focus.point.lon': 8.7,
        'boundary.country': 'DEU',
        lang: { name: 'English', iso6391: 'en', iso6393: 'eng', via: 'default', defaulted: true },
        querySize: 80,
        parser: 'pelias',
        parsed_text: { city: 'Heidelberg' },
      },
      warnings: ["invalid parameter 'size': maximum value is 40, used 40"],
      engine: { name: 'Waymark', author: 'Waymark', version },
      timestamp: 1718000000000,
    },
    type: 'FeatureCollection',
    features: [toFeature(heidelbergLocality)],
    bbox: [8.57, 49.35, 8.79, 49.46],
  };
  t.is(JSON.stringify(body), JSON.stringify(expected));
});

test('empty responses leave out warnings, errors and bbox', (t) => {
  const { params } = sanitizeReverse(new URLSearchParams('point.lat=43.73&point.lon=7.42&lang=de'));
  const body = featureCollection(echoReverse(params), [], [], context);
  t.deepEqual(Object.keys(body), ['geocoding', 'type', 'features']);
  t.deepEqual(Object.keys(body.geocoding), ['version', 'attribution', 'query', 'engine', 'timestamp']);
  t.deepEqual(body.geocoding.query, {
    size: 10,
    layers: ['venue', 'address', 'street', 'neighbourhood', 'locality', 'region', 'country', 'postalcode'],
    sources: ['openstreetmap', 'openaddresses', 'geonames', 'whosonfirst'],
    private: false,
    'point.lat': 43.73,
    'point.lon': 7.42,
    // Pelias' reverse searches a circle around the point, and echoes its centre.
    'boundary.circle.lat': 43.73,
    'boundary.circle.lon': 7.42,
    lang: { name: 'German', iso6391: 'de', iso6393: 'deu', via: 'querystring', defaulted: false },
    querySize: 20,
  });
});

test('a place response echoes the ids as source, layer, id', (t) => {
  const { params } = sanitizePlace(new URLSearchParams('ids=osm:venue:node/1234,whosonfirst:locality:101748453'));
  t.deepEqual(echoPlace(params).ids, [
    { source: 'openstreetmap', layer: 'venue', id: 'node/1234' },
    { source: 'whosonfirst', layer: 'locality', id: '101748453' },
  ]);
});
