/**
 * A dataset's geocoder index opened for queries: the SQLite file read-only, the statements the
 * endpoints run, and the admin polygons (reverse), read into memory. See core/geocoding/index-schema.ts for the layout.
 */
import Database from 'better-sqlite3';
import type { MultiPolygon, Polygon } from 'geojson';
import { AdminLookup } from '../../../core/geocoding/admin-lookup.js';
import { GEOCODER_INDEX_FORMAT } from '../../../core/geocoding/index-schema.js';
import { ADMIN_LAYERS, type AdminLayer } from '../../../core/geocoding/place-record.js';
import { loadAddressParser } from './address-parser.js';
import type { MatchExpression } from './match-expression.js';
import { Vocabulary } from './vocabulary.js';
import { lineFromBlob } from '../../../core/geocoding/street-lines.js';
import type { LonLat } from '../../../core/geo/types.js';

/** A numbered address of a street, as interpolation reads it. */
export interface AddressNumber {
  number: number;
  lon: number;
  lat: number;
}

/** An interpolation line spanning house numbers `low` (at its start) to `high`, every `step`. */
export interface AddressRangeRow {
  low: number;
  high: number;
  step: number;
  line: LonLat[];
}

/** A place row as the queries read it. */
export interface PlaceRow {
  id: number;
  gid: string;
  layer: string;
  source: string;
  lon: number;
  lat: number;
  importance: number;
  name_text: string;
  admin_text: string;
  record: string;
}

const PLACE_COLUMNS = 'p.id, p.gid, p.layer, p.source, p.lon, p.lat, p.importance, p.name_text, p.admin_text, p.record';
/** What reverse needs to rank the places of a box before reading the few records it answers with. */
const POINT_COLUMNS = 'p.id, p.layer, p.lon, p.lat';
/** A place in a box, without its record. */
export interface PointRow {
  id: number;
  layer: string;
  lon: number;
  lat: number;
}

/** The place is the admin place @gid or inside it: its own GID or one of its hierarchy's. */
const IN_GID = `(p.gid = @gid OR @gid IN (${ADMIN_LAYERS.map((layer) => `json_extract(p.record, '$.${layer}_gid')`).join(', ')}))`;
/** The record has one of the categories of the JSON array @categories. */
const OF_CATEGORIES = "EXISTS (SELECT 1 FROM json_each(p.record, '$.category') c JOIN json_each(@categories) a ON a.value = c.value)";
/** Layer, source, country, boundary GID and category filters; a null one (country, gid, categories) does not filter. */
const FILTERS = `(p.layer_bit & @layers) != 0 AND (p.source_bit & @sources) != 0 AND (@country IS NULL OR p.country_a = @country)
  AND (@gid IS NULL OR ${IN_GID}) AND (@categories IS NULL OR ${OF_CATEGORIES})`;
const IN_BOX = 'r.min_lon >= @west AND r.max_lon <= @east AND r.min_lat >= @south AND r.max_lat <= @north';
/** A line's box meets the box asked. */
const MEETS_BOX = 'min_lon <= @east AND max_lon >= @west AND min_lat <= @north AND max_lat >= @south';

export interface Filters {
  layers: number;
  sources: number;
  country: string | null;
  gid: string | null;
  categories: readonly string[] | null;
}

/** The filters as statement parameters: the categories as a JSON array. */
const bound = (filters: Filters) => ({ ...filters, categories: filters.categories && JSON.stringify(filters.categories) });

export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

export class GeocoderIndex {
  private readonly db: Database.Database;
  readonly vocabulary: Vocabulary;
  private readonly matching: Database.Statement;
  private readonly matchingInBox: Database.Statement;
  private readonly inBox: Database.Statement;
  private readonly byGid: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly numbersOfStreet: Database.Statement;
  private readonly rangesOfStreet: Database.Statement;
  private readonly linesOfStreet: Database.Statement;
  private readonly outlinesAt: Database.Statement;
  /** The admin polygons, for point-in-polygon look-ups. */
  readonly admins: AdminLookup;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    const format = (this.db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined)?.value;
    if (format !== String(GEOCODER_INDEX_FORMAT)) {
      this.db.close();
      throw new Error(
        `geocoder index ${file} has format ${format ?? 'unknown'}; this Waymark reads format ${GEOCODER_INDEX_FORMAT}: run waymark import again`,
      );
    }
    // FTS5 answers in rowid order, which is importance order: LIMIT keeps the most important matches.
    this.matching = this.db.prepare(
      `SELECT ${PLACE_COLUMNS} FROM place_text t JOIN place p ON p.id = t.rowid WHERE place_text MATCH @match AND ${FILTERS} ORDER BY t.rowid LIMIT @limit`,
    );
    this.matchingInBox = this.db.prepare(
      `SELECT ${PLACE_COLUMNS} FROM place_text t JOIN place p ON p.id = t.rowid JOIN place_point r ON r.id = p.id
       WHERE place_text MATCH @match AND ${IN_BOX} AND ${FILTERS} ORDER BY t.rowid LIMIT @limit`,
    );
    this.inBox = this.db.prepare(`SELECT ${POINT_COLUMNS} FROM place_point r JOIN place p ON p.id = r.id WHERE ${IN_BOX} AND ${FILTERS}`);
    this.byGid = this.db.prepare(`SELECT ${PLACE_COLUMNS} FROM place p WHERE p.gid = ?`);
    this.byId = this.db.prepare(`SELECT ${PLACE_COLUMNS} FROM place p WHERE p.id = ?`);
    this.numbersOfStreet = this.db.prepare(
      'SELECT number, lon, lat FROM address_number WHERE street_key = @key AND lat BETWEEN @south AND @north AND lon BETWEEN @west AND @east',
    );
    this.rangesOfStreet = this.db.prepare(
      `SELECT low, high, step, line FROM address_range WHERE street_key = @key AND @number BETWEEN low AND high AND ${MEETS_BOX}`,
    );
    this.linesOfStreet = this.db.prepare(`SELECT line FROM street_line WHERE street_key = @key AND ${MEETS_BOX}`).pluck();
    this.outlinesAt = this.db.prepare(
      `SELECT p.id, o.ring FROM address_outline_box b JOIN address_outline o ON o.id = b.id JOIN place p ON p.gid = o.gid
       WHERE b.min_lon <= @lon AND b.max_lon >= @lon AND b.min_lat <= @lat AND b.max_lat >= @lat AND ${FILTERS}`,
    );
    this.vocabulary = new Vocabulary(this.db);
    this.admins = this.readAdminAreas();
    loadAddressParser();
  }

  /** Places whose text matches an FTS5 expression, most important first. */
  matches(match: MatchExpression, filters: Filters, limit: number, box?: Box): PlaceRow[] {
    const statement = box === undefined ? this.matching : this.matchingInBox;
    return statement.all({ match, limit, ...bound(filters), ...box }) as PlaceRow[];
  }

  /** Every place in a box, without its record. */
  within(box: Box, filters: Filters): PointRow[] {
    return this.inBox.all({ ...box, ...bound(filters) }) as PointRow[];
  }

  place(gid: string): PlaceRow | undefined {
    return this.byGid.get(gid) as PlaceRow | undefined;
  }

  placeById(id: number): PlaceRow {
    return this.byId.get(id) as PlaceRow;
  }

  /** The numbered addresses of a street (by key, see street-lines.ts) within a box. */
  addressNumbers(key: string, box: Box): AddressNumber[] {
    return this.numbersOfStreet.all({ key, ...box }) as AddressNumber[];
  }

  /** The interpolation lines of a street that meet a box and span `number`. */
  addressRanges(key: string, box: Box, number: number): AddressRangeRow[] {
    const rows = this.rangesOfStreet.all({ key, number, ...box }) as (Omit<AddressRangeRow, 'line'> & { line: Buffer })[];
    return rows.map((row) => ({ ...row, line: lineFromBlob(row.line) }));
  }

  /** The lines of a street's ways that meet a box. */
  streetLines(key: string, box: Box): LonLat[][] {
    return (this.linesOfStreet.all({ key, ...box }) as Buffer[]).map(lineFromBlob);
  }

  /** The outline rings (see `address_outline`) whose boxes hold a point, with the id of their address. */
  outlineRingsAt(lon: number, lat: number, filters: Filters): { id: number; ring: LonLat[] }[] {
    const rows = this.outlinesAt.all({ lon, lat, ...bound(filters) }) as { id: number; ring: Buffer }[];
    return rows.map(({ id, ring }) => ({ id, ring: lineFromBlob(ring) }));
  }

  private readAdminAreas(): AdminLookup {
    const rows = this.db.prepare('SELECT gid, layer, name, country_a, geometry FROM admin_area').all() as {
      gid: string;
      layer: AdminLayer;
      name: string;
      country_a: string | null;
      geometry: string;
    }[];
    return new AdminLookup(
      rows.map((row) => ({
        gid: row.gid,
        layer: row.layer,
        name: row.name,
        ...(row.country_a === null ? {} : { country_a: row.country_a }),
        geometry: JSON.parse(row.geometry) as Polygon | MultiPolygon,
      })),
    );
  }

  close(): void {
    this.db.close();
  }
}
