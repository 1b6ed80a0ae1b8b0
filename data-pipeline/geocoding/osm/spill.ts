/**
 * The scratch file of one OSM file's read. What the single pass finds but can finish only after
 * the file's last object goes to disk, not memory: place records (their hierarchy needs every
 * admin polygon), street ways (merged per name) and the polygons of candidate admin areas. Read
 * back in the order written; deleted when closed.
 */
import { rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { PolygonRings } from '../../../core/geo/rings.js';
import type { PlaceRecord } from '../../../core/geocoding/place-record.js';
import { BulkWrites, scratchDatabase } from '../index/scratch-database.js';
import type { BBox, LonLat } from '../../../core/geo/types.js';
import type { StreetWay } from './streets.js';
import { lineFromBlob, lineToBlob } from '../../../core/geocoding/street-lines.js';

/** An `addr:interpolation` way: its line, step and the `addr:street` it may carry itself. */
export interface InterpolationLine {
  street?: string;
  step: number;
  line: LonLat[];
}

/** An address node, where an interpolation line may begin or end. */
export interface AddressPoint {
  housenumber: string;
  street: string;
}

const SCHEMA = `
CREATE TABLE place (record TEXT NOT NULL);
CREATE TABLE street_way (
  key TEXT NOT NULL, way_id INTEGER NOT NULL, name TEXT NOT NULL, names TEXT NOT NULL,
  min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL,
  longest REAL NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL
);
CREATE TABLE polygons (coordinates TEXT NOT NULL);
CREATE TABLE street_line (name TEXT NOT NULL, line BLOB NOT NULL);
CREATE TABLE interpolation_line (street TEXT, step INTEGER NOT NULL, line BLOB NOT NULL);
CREATE TABLE address_point (lon REAL NOT NULL, lat REAL NOT NULL, housenumber TEXT NOT NULL, street TEXT NOT NULL);
`;

/** The page cache of a spill that is only read back. */
const READING_CACHE_KIB = 8 * 1024;

/** A `street_way` row, column by column. */
type StreetWayRow = [string, number, string, string, number, number, number, number, number, number, number];

export class OsmSpill {
  private readonly db: Database.Database;
  private readonly bulk: BulkWrites;
  private readonly insertPlace: Database.Statement;
  private readonly insertStreetWay: Database.Statement;
  private readonly insertPolygons: Database.Statement;
  private readonly selectPolygons: Database.Statement;
  private readonly insertStreetLine: Database.Statement;
  private readonly insertInterpolationLine: Database.Statement;
  private readonly insertAddressPoint: Database.Statement;
  private readonly selectAddressPoint: Database.Statement;

  constructor(
    private readonly file: string,
    cacheKiB: number,
  ) {
    rmSync(file, { force: true });
    this.db = scratchDatabase(file, cacheKiB);
    this.db.exec(SCHEMA);
    this.bulk = new BulkWrites(this.db);
    this.insertPlace = this.db.prepare('INSERT INTO place (record) VALUES (?)');
    this.insertStreetWay = this.db.prepare('INSERT INTO street_way VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertPolygons = this.db.prepare('INSERT INTO polygons (coordinates) VALUES (?)');
    this.selectPolygons = this.db.prepare('SELECT coordinates FROM polygons WHERE rowid = ?').pluck();
    this.insertStreetLine = this.db.prepare('INSERT INTO street_line VALUES (?, ?)');
    this.insertInterpolationLine = this.db.prepare('INSERT INTO interpolation_line VALUES (?, ?, ?)');
    this.insertAddressPoint = this.db.prepare('INSERT INTO address_point VALUES (?, ?, ?, ?)');
    this.selectAddressPoint = this.db.prepare('SELECT housenumber, street FROM address_point WHERE lon = ? AND lat = ? LIMIT 1');
  }

  addPlace(record: PlaceRecord): void {
    this.bulk.run(this.insertPlace, JSON.stringify(record));
  }

  addStreetWay({ key, street }: StreetWay): void {
    const [minLon, minLat, maxLon, maxLat] = street.bbox;
    this.bulk.run(
      this.insertStreetWay,
      key,
      street.wayId,
      street.name,
      JSON.stringify(street.names),
      minLon,
      minLat,
      maxLon,
      maxLat,
      street.longestWay,
      street.point[0],
      street.point[1],
    );
  }

  addStreetLine(name: string, line: readonly (readonly number[])[]): void {
    this.bulk.run(this.insertStreetLine, name, lineToBlob(line));
  }

  addInterpolationLine({ street, step, line }: InterpolationLine): void {
    this.bulk.run(this.insertInterpolationLine, street ?? null, step, lineToBlob(line));
  }

  addAddressPoint(lon: number, lat: number, { housenumber, street }: AddressPoint): void {
    this.bulk.run(this.insertAddressPoint, lon, lat, housenumber, street);
  }

  /** Keeps an area's polygons; the number returned gets them back. */
  addPolygons(polygons: PolygonRings[]): number {
    return Number(this.bulk.run(this.insertPolygons, JSON.stringify(polygons)).lastInsertRowid);
  }

  /**
   * Ends the writing: everything added can be read back. The page cache filled while writing is
   * given back, since spills wait side by side until their places are staged and are then read
   * in order, for which a small cache does.
   */
  finishWriting(): void {
    this.bulk.commit();
    this.db.exec('CREATE INDEX address_point_position ON address_point (lon, lat)');
    this.db.pragma(`cache_size = -${READING_CACHE_KIB}`);
    this.db.pragma('shrink_memory');
  }

  polygons(id: number): PolygonRings[] {
    return JSON.parse(this.selectPolygons.get(id) as string) as PolygonRings[];
  }

  *places(): Iterable<PlaceRecord> {
    for (const record of this.db.prepare('SELECT record FROM place ORDER BY rowid').pluck().iterate() as IterableIterator<string>) {
      yield JSON.parse(record) as PlaceRecord;
    }
  }

  /** The street ways grouped by key, the groups in the order their keys first came, ways in the order added (as `mergeStreetWays` needs). */
  *streetWays(): Iterable<StreetWay> {
    const rows = this.db
      .prepare(
        'SELECT w.* FROM street_way w JOIN (SELECT key, min(rowid) AS first FROM street_way GROUP BY key) USING (key) ORDER BY first, w.rowid',
      )
      .raw()
      .iterate() as IterableIterator<StreetWayRow>;
    for (const [key, wayId, name, names, minLon, minLat, maxLon, maxLat, longestWay, lon, lat] of rows) {
      const street = {
        wayId,
        name,
        names: JSON.parse(names) as Record<string, string>,
        bbox: [minLon, minLat, maxLon, maxLat] as BBox,
        longestWay,
        point: [lon, lat],
        ways: 1,
      };
      yield { key, street };
    }
  }

  *streetLines(): Iterable<{ name: string; line: LonLat[] }> {
    for (const { name, line } of this.db.prepare('SELECT name, line FROM street_line ORDER BY rowid').iterate() as IterableIterator<{
      name: string;
      line: Buffer;
    }>) {
      yield { name, line: lineFromBlob(line) };
    }
  }

  *interpolationLines(): Iterable<InterpolationLine> {
    const rows = this.db.prepare('SELECT street, step, line FROM interpolation_line ORDER BY rowid').iterate() as IterableIterator<{
      street: string | null;
      step: number;
      line: Buffer;
    }>;
    for (const { street, step, line } of rows) yield { ...(street === null ? {} : { street }), step, line: lineFromBlob(line) };
  }

  /** The address node at exactly this position (a way's end node has its very coordinates), if any. */
  addressAt([lon, lat]: LonLat): AddressPoint | undefined {
    return this.selectAddressPoint.get(lon, lat) as AddressPoint | undefined;
  }

  /** Closes and deletes the file. */
  close(): void {
    if (this.db.open) this.db.close();
    rmSync(this.file, { force: true });
  }
}
