/**
 * Writes the geocoder index (see schema.ts). Records are first appended to a staging file as they
 * stream in, so memory stays flat; `finish` then reads them back sorted by importance (SQLite sorts
 * on disk) and numbers them in that order while filling the place, text and point tables.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';
import { normalizeText } from '../../../core/geocoding/text/normalize.js';
import { MIN_FUZZY_LENGTH, trigramsOf } from '../../../core/geocoding/text/trigrams.js';
import type { ProgressReporter } from '../../features.js';
import type { AdminPolygon } from '../../../core/geocoding/admin-lookup.js';
import { ADMIN_LAYERS, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { importanceOf } from './importance.js';
import { GEOCODER_INDEX_FORMAT, GEOCODER_SCHEMA, layerBit, sourceBit } from '../../../core/geocoding/index-schema.js';

const BATCH = 5000;

/** A database file written once by this job: no journal, no syncs (a failed build is deleted anyway). */
function scratchDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -65536');
  return db;
}

interface StagedRow {
  importance: number;
  record: string;
}

export interface GeocoderIndexStats {
  places: number;
  /** Records dropped because another with the same GID came first. */
  duplicates: number;
  adminAreas: number;
  byLayer: Record<string, number>;
  bySource: Record<string, number>;
}

/** The record as responses show it: GID parts, names, position, hierarchy; no ranking data. */
function responseRecord(record: PlaceRecord): GeocodeRecord {
  const { gid: _gid, source_id, population: _population, names, ...rest } = record;
  return { ...rest, sourceId: source_id, ...(Object.keys(names).length > 0 ? { names } : {}) };
}

/** Every distinct normalized name variant, the default name first. */
function nameVariants(record: PlaceRecord): string[] {
  const variants = new Set([normalizeText(record.name)]);
  for (const name of Object.values(record.names)) variants.add(normalizeText(name));
  return [...variants];
}

/** The admin names around the record, its street (venues) and its postcode: what the `admin` column matches. */
function adminText(record: PlaceRecord): string {
  const parts: string[] = [];
  for (const layer of ADMIN_LAYERS) {
    const name = record[layer];
    if (name !== undefined && layer !== record.layer) parts.push(name);
  }
  if (record.country_a !== undefined) parts.push(record.country_a);
  if (record.postalcode !== undefined) parts.push(record.postalcode);
  if (record.layer === 'venue' && record.street !== undefined) parts.push(record.street);
  return normalizeText(parts.join(' '));
}

export class GeocoderIndexWriter {
  private readonly db: Database.Database;
  /** A second file (and connection), so its sorted rows can be read while the index is written. */
  private readonly staging: Database.Database;
  private readonly stage: Database.Statement;
  private pending: PlaceRecord[] = [];
  private staged = 0;
  private readonly stats: GeocoderIndexStats = { places: 0, duplicates: 0, adminAreas: 0, byLayer: {}, bySource: {} };

  constructor(private readonly file: string) {
    this.db = scratchDatabase(file);
    this.db.exec(GEOCODER_SCHEMA);
    this.staging = scratchDatabase(`${file}.staging`);
    this.staging.exec('CREATE TABLE staging (importance REAL NOT NULL, record TEXT NOT NULL)');
    this.stage = this.staging.prepare('INSERT INTO staging (importance, record) VALUES (?, ?)');
  }

  add(record: PlaceRecord): void {
    this.pending.push(record);
    if (this.pending.length >= BATCH) this.flush();
  }

  addAdminAreas(areas: readonly AdminPolygon[]): void {
    const insert = this.db.prepare('INSERT INTO admin_area (gid, layer, name, country_a, geometry) VALUES (?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const area of areas) insert.run(area.gid, area.layer, area.name, area.country_a ?? null, JSON.stringify(area.geometry));
    })();
    this.stats.adminAreas += areas.length;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.staging.transaction(() => {
      for (const record of batch) this.stage.run(importanceOf(record), JSON.stringify(record));
    })();
    this.staged += batch.length;
  }

  /** Numbers the staged records by importance into the index, writes the counts and closes the file. */
  finish(onProgress: ProgressReporter): GeocoderIndexStats {
    this.flush();
    const insertPlace = this.db.prepare(
      'INSERT OR IGNORE INTO place (id, gid, layer, source, layer_bit, source_bit, country_a, lon, lat, importance, name_text, admin_text, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertText = this.db.prepare('INSERT INTO place_text (rowid, name, admin) VALUES (?, ?, ?)');
    const insertPoint = this.db.prepare('INSERT INTO place_point (id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)');
    const { stats } = this;
    let id = 0;
    let done = 0;
    const write = this.db.transaction((rows: StagedRow[]) => {
      for (const row of rows) {
        const record = JSON.parse(row.record) as PlaceRecord;
        const { lon, lat } = record;
        const names = nameVariants(record);
        const admin = adminText(record);
        const inserted = insertPlace.run(
          id + 1, record.gid, record.layer, record.source, layerBit(record.layer), sourceBit(record.source), record.country_a ?? null,
          lon, lat, row.importance, names.join('|'), admin, JSON.stringify(responseRecord(record)),
        );
        if (inserted.changes === 0) {
          stats.duplicates++;
          continue;
        }
        id++;
        insertText.run(id, names.join(' '), admin);
        insertPoint.run(id, lon, lon, lat, lat);
        stats.byLayer[record.layer] = (stats.byLayer[record.layer] ?? 0) + 1;
        stats.bySource[record.source] = (stats.bySource[record.source] ?? 0) + 1;
      }
    });
    let batch: StagedRow[] = [];
    for (const row of this.staging.prepare('SELECT importance, record FROM staging ORDER BY importance DESC, rowid').iterate() as IterableIterator<StagedRow>) {
      batch.push(row);
      if (batch.length < BATCH) continue;
      write(batch);
      done += batch.length;
      batch = [];
      onProgress({ phase: 'geocoder index', done, total: this.staged, unit: 'places' });
    }
    write(batch);
    onProgress({ phase: 'geocoder index', done: this.staged, total: this.staged, unit: 'places' });
    stats.places = id;
    this.db.exec("INSERT INTO place_text (place_text) VALUES ('optimize')");
    this.writeTerms();
    const meta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    meta.run('format', String(GEOCODER_INDEX_FORMAT));
    meta.run('stats', JSON.stringify(stats));
    this.db.close();
    this.closeStaging();
    return stats;
  }

  /** The term and trigram tables of typo tolerance, from the finished text index. */
  private writeTerms(): void {
    this.db.exec(`CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, 'place_text', 'row');
      INSERT INTO term (term, documents) SELECT term, doc FROM temp.terms;
      DROP TABLE temp.terms;`);
    const terms = this.db.prepare('SELECT id, term FROM term WHERE length(term) >= ?').all(MIN_FUZZY_LENGTH - 1) as { id: number; term: string }[];
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

  /** Gives up: closes the file without finishing (the caller deletes it). */
  abort(): void {
    if (this.db.open) this.db.close();
    this.closeStaging();
  }

  private closeStaging(): void {
    if (this.staging.open) this.staging.close();
    rmSync(`${this.file}.staging`, { force: true });
  }
}
