/**
 * The geocoder index: one SQLite file per dataset (`geocoder.sqlite`), written by the pipeline and
 * read-only afterwards. Places are numbered by descending importance, so the rowid order in which
 * FTS5 answers a match is already the importance order, and a capped candidate list keeps the
 * most important matches.
 *
 *   meta(key, value)            format version, counts
 *   place(id, gid, layer, source, layer_bit, source_bit, country_a, lon, lat, importance, record)
 *                               record: the GeocodeRecord as JSON, what a response shows;
 *                               the bits (positions in LAYERS and SOURCES) let one statement
 *                               filter by any set of layers and sources; name_text (the
 *                               normalized name variants, '|' between them) and admin_text
 *                               (normalized admin names) for ranking without re-normalizing
 *   place_text                  FTS5, contentless: `name` (every name variant, normalized) and
 *                               `admin` (admin names, postcode), rowid = place.id; prefix indexes
 *                               for autocomplete
 *   place_point                 R*Tree of every place's point, id = place.id (reverse, focus)
 *   term(id, term, documents)   every term of place_text and the number of places holding it
 *   term_trigram(trigram, term_ids)
 *                               for each padded trigram, the ids of the terms (of MIN_FUZZY_LENGTH
 *                               - 1 letters or more) holding it, as a blob of int32: typo
 *                               corrections are the terms sharing enough trigrams with a token
 *   admin_area(gid, layer, name, country_a, geometry)
 *                               admin polygons (GeoJSON), for the enclosing areas in reverse
 *   address_number(street_key, number, lon, lat)
 *                               the numbered addresses of each street (key: its normalized name):
 *                               the neighbours a missing house number is interpolated between
 *   address_range(street_key, low, high, step, box, line)
 *                               OSM `addr:interpolation` lines and the numbers they span
 *   street_line(street_key, box, line)
 *                               the line of every named street way, which interpolated points lie on
 *                               (lines: blobs of int32 lon, lat pairs in 10⁻⁷ degrees; only the
 *                               streets that have numbered addresses)
 */
import { LAYERS, SOURCES } from './indexed-record.js';

export const GEOCODER_INDEX_FORMAT = 3;

export const layerBit = (layer: string) => 1 << LAYERS.indexOf(layer as (typeof LAYERS)[number]);
export const sourceBit = (source: string) => 1 << SOURCES.indexOf(source as (typeof SOURCES)[number]);

export const GEOCODER_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE place (
  id INTEGER PRIMARY KEY,
  gid TEXT NOT NULL UNIQUE,
  layer TEXT NOT NULL,
  source TEXT NOT NULL,
  layer_bit INTEGER NOT NULL,
  source_bit INTEGER NOT NULL,
  country_a TEXT,
  lon REAL NOT NULL,
  lat REAL NOT NULL,
  importance REAL NOT NULL,
  name_text TEXT NOT NULL,
  admin_text TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE VIRTUAL TABLE place_text USING fts5(name, admin, content='', detail='column', prefix='2 3');
CREATE VIRTUAL TABLE place_point USING rtree(id, min_lon, max_lon, min_lat, max_lat);
CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, documents INTEGER NOT NULL);
CREATE TABLE term_trigram (trigram TEXT PRIMARY KEY, term_ids BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE admin_area (gid TEXT NOT NULL, layer TEXT NOT NULL, name TEXT NOT NULL, country_a TEXT, geometry TEXT NOT NULL);
CREATE TABLE address_number (street_key TEXT NOT NULL, number INTEGER NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL);
CREATE TABLE address_range (
  street_key TEXT NOT NULL, low INTEGER NOT NULL, high INTEGER NOT NULL, step INTEGER NOT NULL,
  min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL, line BLOB NOT NULL
);
CREATE TABLE street_line (
  street_key TEXT NOT NULL, min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL, line BLOB NOT NULL
);
`;

/** Created once the tables are filled (faster than keeping them up to date row by row). */
export const GEOCODER_STREET_INDEXES = `
CREATE INDEX address_number_street ON address_number (street_key, lat);
CREATE INDEX address_range_street ON address_range (street_key, min_lat);
CREATE INDEX street_line_street ON street_line (street_key, min_lat);
`;
