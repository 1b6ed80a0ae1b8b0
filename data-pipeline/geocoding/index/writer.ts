/**
 * Writes the geocoder index (see index-schema.ts). Each record becomes its index row as it
 * streams in (importance, normalized names, admin text, the response record) and is appended to a
 * staging table in a file of its own, so memory stays flat. `finish` then copies the rows into
 * `place` in importance order — SQLite sorts them on disk and numbers them — and fills the text
 * and point indexes from `place`, all inside SQLite. The index is written under a temporary name
 * and renamed to its own only when complete.
 */
import { renameSync, rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';
import { normalizeText } from '../../../core/geocoding/text/normalize.js';
import { MIN_FUZZY_LENGTH, trigramsOf } from '../../../core/geocoding/text/trigrams.js';
import type { ProgressReporter } from '../../progress.js';
import type { AdminPolygon } from '../../../core/geocoding/admin-lookup.js';
import { ADMIN_LAYERS, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { importanceOf } from './importance.js';
import {
  GEOCODER_INDEX_FORMAT,
  GEOCODER_SCHEMA,
  GEOCODER_STREET_INDEXES,
  layerBit,
  sourceBit,
} from '../../../core/geocoding/index-schema.js';
import { houseNumberKey, houseNumberValue } from '../../../core/geocoding/house-number.js';
import { lineToBlob, streetKey, type AddressRange } from '../../../core/geocoding/street-lines.js';
import { bboxOf } from '../osm/geometry.js';
import { importThreads } from '../../threads.js';
import { sqliteCacheKiB } from './memory-budget.js';
import { BulkWrites, scratchDatabase } from './scratch-database.js';
import type { LonLat } from '../../../core/geo/types.js';

/**
 * The place rows, in the order the records came (`place` gets them in importance order), and the
 * street lines (`street_line` gets those of the streets that have numbered addresses: the only
 * ones interpolation reads).
 */
const STAGING_SCHEMA = `CREATE TABLE staging.row (
  importance REAL NOT NULL, gid TEXT NOT NULL, layer TEXT NOT NULL, source TEXT NOT NULL, layer_bit INTEGER NOT NULL,
  source_bit INTEGER NOT NULL, country_a TEXT, lon REAL NOT NULL, lat REAL NOT NULL, name_text TEXT NOT NULL,
  admin_text TEXT NOT NULL, record TEXT NOT NULL
);
CREATE TABLE staging.street_line AS SELECT * FROM main.street_line WHERE 0;`;

const PLACE_COLUMNS = 'gid, layer, source, layer_bit, source_bit, country_a, lon, lat, importance, name_text, admin_text, record';

/** The steps of `finish`, for its progress. */
const FINISH_STEPS = 4;

export interface GeocoderIndexStats {
  places: number;
  /** Records dropped because another with the same GID came first. */
  duplicates: number;
  adminAreas: number;
  byLayer: Record<string, number>;
  bySource: Record<string, number>;
}

export interface GeocoderIndexWriterOptions {
  /** SQLite page cache of the index and of the staging table, each (default: from the import's memory budget). */
  cacheKiB?: number;
  /** Threads SQLite may sort with (default: every core, `importThreads`). */
  threads?: number;
}

/** The record as responses show it: GID parts, names, position, hierarchy; no ranking data. */
function responseRecord(record: PlaceRecord): GeocodeRecord {
  const {
    gid: _gid,
    source_id,
    population: _population,
    admin_names: _adminNames,
    outline: _outline,
    minor_venue: _minorVenue,
    names,
    ...rest
  } = record;
  return { ...rest, sourceId: source_id, ...(Object.keys(names).length > 0 ? { names } : {}) };
}

/**
 * Every distinct normalized name variant, the default name first. An address is its house number
 * key and street, whatever the source's spelling ("12 A" and "12a" alike).
 */
function nameVariants(record: PlaceRecord): string[] {
  const { housenumber, street } = record;
  const name =
    record.layer === 'address' && housenumber !== undefined && street !== undefined
      ? `${houseNumberKey(housenumber)} ${normalizeText(street)}`
      : normalizeText(record.name);
  const variants = new Set([name]);
  for (const name of Object.values(record.names)) variants.add(normalizeText(name));
  return [...variants];
}

/** The admin names around the record, those it gives itself, its street (venues) and its postcode: what the `admin` column matches. */
function adminText(record: PlaceRecord): string {
  const parts: string[] = [];
  for (const layer of ADMIN_LAYERS) {
    const name = record[layer];
    if (name !== undefined && layer !== record.layer) parts.push(name);
  }
  if (record.country_a !== undefined) parts.push(record.country_a);
  if (record.admin_names !== undefined) parts.push(...record.admin_names);
  if (record.postalcode !== undefined) parts.push(record.postalcode);
  if (record.layer === 'venue' && record.street !== undefined) parts.push(record.street);
  return normalizeText(parts.join(' '));
}

export class GeocoderIndexWriter {
  private readonly db: Database.Database;
  private readonly bulk: BulkWrites;
  private readonly stage: Database.Statement;
  private readonly insertAdminArea: Database.Statement;
  private readonly insertAddressNumber: Database.Statement;
  private readonly insertAddressRange: Database.Statement;
  private readonly insertStreetLine: Database.Statement;
  private readonly insertOutlineRing: Database.Statement;
  private readonly insertOutlineBox: Database.Statement;
  private readonly partialFile: string;
  private readonly stagingFile: string;
  private staged = 0;
  private adminAreas = 0;
  private outlineRings = 0;

  constructor(
    private readonly file: string,
    { cacheKiB = sqliteCacheKiB(), threads = importThreads() }: GeocoderIndexWriterOptions = {},
  ) {
    this.partialFile = `${file}.part`;
    this.stagingFile = `${file}.staging`;
    for (const leftover of [this.partialFile, this.stagingFile]) rmSync(leftover, { force: true });
    this.db = scratchDatabase(this.partialFile, cacheKiB);
    this.db.exec(GEOCODER_SCHEMA);
    this.db.prepare('ATTACH ? AS staging').run(this.stagingFile);
    for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', `cache_size = -${Math.round(cacheKiB)}`])
      this.db.pragma(`staging.${pragma}`);
    this.db.pragma(`threads = ${threads}`);
    this.db.exec(STAGING_SCHEMA);
    this.bulk = new BulkWrites(this.db);
    this.stage = this.db.prepare(`INSERT INTO staging.row (${PLACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.insertAdminArea = this.db.prepare('INSERT INTO admin_area (gid, layer, name, country_a, geometry) VALUES (?, ?, ?, ?, ?)');
    this.insertAddressNumber = this.db.prepare('INSERT INTO address_number (street_key, number, lon, lat) VALUES (?, ?, ?, ?)');
    this.insertAddressRange = this.db.prepare('INSERT INTO address_range VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertStreetLine = this.db.prepare('INSERT INTO staging.street_line VALUES (?, ?, ?, ?, ?, ?)');
    this.insertOutlineRing = this.db.prepare('INSERT INTO address_outline (id, gid, ring) VALUES (?, ?, ?)');
    this.insertOutlineBox = this.db.prepare('INSERT INTO address_outline_box VALUES (?, ?, ?, ?, ?)');
  }

  add(record: PlaceRecord): void {
    this.bulk.run(
      this.stage,
      record.gid,
      record.layer,
      record.source,
      layerBit(record.layer),
      sourceBit(record.source),
      record.country_a ?? null,
      record.lon,
      record.lat,
      importanceOf(record),
      nameVariants(record).join('|'),
      adminText(record),
      JSON.stringify(responseRecord(record)),
    );
    this.staged++;
    const number = record.layer === 'address' && record.housenumber !== undefined ? houseNumberValue(record.housenumber) : undefined;
    if (number !== undefined && record.street !== undefined)
      this.bulk.run(this.insertAddressNumber, streetKey(record.street), number, record.lon, record.lat);
    for (const ring of record.outline ?? []) this.addOutlineRing(record.gid, ring);
  }

  private addOutlineRing(gid: string, ring: number[][]): void {
    const id = ++this.outlineRings;
    const [minLon, minLat, maxLon, maxLat] = bboxOf(ring);
    this.bulk.run(this.insertOutlineRing, id, gid, lineToBlob(ring));
    this.bulk.run(this.insertOutlineBox, id, minLon, maxLon, minLat, maxLat);
  }

  /** An `addr:interpolation` line with the numbers it spans. */
  addAddressRange({ street, low, high, step, line }: AddressRange): void {
    this.bulk.run(this.insertAddressRange, streetKey(street), low, high, step, ...bboxOf(line), lineToBlob(line));
  }

  /** The line of a named street way. */
  addStreetLine(name: string, line: LonLat[]): void {
    this.bulk.run(this.insertStreetLine, streetKey(name), ...bboxOf(line), lineToBlob(line));
  }

  addAdminArea(area: AdminPolygon): void {
    this.bulk.run(this.insertAdminArea, area.gid, area.layer, area.name, area.country_a ?? null, JSON.stringify(area.geometry));
    this.adminAreas++;
  }

  /** Numbers the staged records by importance into the index, writes the counts, closes the file and renames it into place. */
  finish(onProgress: ProgressReporter): GeocoderIndexStats {
    this.bulk.commit();
    const progress = (done: number) => onProgress({ phase: 'geocoder index', done, total: FINISH_STEPS, unit: 'steps' });
    progress(0);
    // Ids are given in insertion order (1, 2, …); a GID seen before is ignored and takes none.
    this.db.exec(`INSERT OR IGNORE INTO place (${PLACE_COLUMNS}) SELECT ${PLACE_COLUMNS} FROM staging.row ORDER BY importance DESC, rowid;
      INSERT INTO street_line SELECT * FROM staging.street_line WHERE street_key IN (SELECT street_key FROM address_number);`);
    this.closeStaging();
    progress(1);
    // Name variants are normalized text, which never holds a '|'.
    this.db.exec(`INSERT INTO place_text (rowid, name, admin) SELECT id, replace(name_text, '|', ' '), admin_text FROM place ORDER BY id;
      INSERT INTO place_text (place_text) VALUES ('optimize');`);
    progress(2);
    this.db.exec('INSERT INTO place_point (id, min_lon, max_lon, min_lat, max_lat) SELECT id, lon, lon, lat, lat FROM place ORDER BY id');
    // A record given twice (an element in two overlapping extracts) must not give its rings twice: read even-odd, they would cancel out.
    this.db.exec(`DELETE FROM address_outline WHERE id NOT IN (SELECT min(id) FROM address_outline GROUP BY gid, ring);
      DELETE FROM address_outline_box WHERE id NOT IN (SELECT id FROM address_outline);`);
    this.db.exec(GEOCODER_STREET_INDEXES);
    progress(3);
    this.writeTerms();
    const stats = this.stats();
    const meta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    meta.run('format', String(GEOCODER_INDEX_FORMAT));
    meta.run('stats', JSON.stringify(stats));
    this.db.close();
    renameSync(this.partialFile, this.file);
    progress(FINISH_STEPS);
    return stats;
  }

  /** The counts, layers and sources in the order of their first place. */
  private stats(): GeocoderIndexStats {
    const countBy = (column: 'layer' | 'source'): Record<string, number> => {
      const rows = this.db.prepare(`SELECT ${column} AS key, count(*) AS n FROM place GROUP BY ${column} ORDER BY min(id)`).all() as {
        key: string;
        n: number;
      }[];
      return Object.fromEntries(rows.map(({ key, n }) => [key, n]));
    };
    const places = this.db.prepare('SELECT count(*) FROM place').pluck().get() as number;
    return {
      places,
      duplicates: this.staged - places,
      adminAreas: this.adminAreas,
      byLayer: countBy('layer'),
      bySource: countBy('source'),
    };
  }

  /** The term and trigram tables of typo tolerance, from the finished text index. */
  private writeTerms(): void {
    this.db.exec(`CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, 'place_text', 'row');
      INSERT INTO term (term, documents) SELECT term, doc FROM temp.terms;
      DROP TABLE temp.terms;`);
    const terms = this.db.prepare('SELECT id, term FROM term WHERE length(term) >= ?').all(MIN_FUZZY_LENGTH - 1) as {
      id: number;
      term: string;
    }[];
    const postings = new Map<string, number[]>();
    for (const { id, term } of terms) {
      for (const gram of trigramsOf(term)) {
        let ids = postings.get(gram);
        if (ids === undefined) postings.set(gram, (ids = []));
        ids.push(id);
      }
    }
    const insert = this.db.prepare('INSERT INTO term_trigram (trigram, term_ids) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [gram, ids] of postings) insert.run(gram, Buffer.from(Int32Array.from(ids).buffer));
    })();
  }

  /** Gives up: closes and deletes what was written. */
  abort(): void {
    if (this.db.open) this.db.close();
    rmSync(this.partialFile, { force: true });
    rmSync(this.stagingFile, { force: true });
  }

  private closeStaging(): void {
    this.db.exec('DETACH staging');
    rmSync(this.stagingFile, { force: true });
  }
}
