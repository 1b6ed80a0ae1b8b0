/**
 * Writes an MBTiles 1.3 archive in the deduplicated layout the server reads (core/maps/mbtiles.ts):
 * `images` holds each distinct gzipped tile once under `tile_id` = hex MD5 of its bytes (computed by the tile cutter), `map` points
 * every z/x/y (TMS row order) at one, and the `tiles` view joins them for other MBTiles readers.
 * Tiles are written in transactions of `BATCH_SIZE`.
 */
import Database from 'better-sqlite3';

const BATCH_SIZE = 2000;

const SCHEMA = `
  CREATE TABLE metadata (name TEXT NOT NULL, value TEXT NOT NULL);
  CREATE UNIQUE INDEX metadata_name ON metadata (name);
  CREATE TABLE map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_id TEXT NOT NULL);
  CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
  CREATE TABLE images (tile_data BLOB NOT NULL, tile_id TEXT NOT NULL);
  CREATE UNIQUE INDEX images_id ON images (tile_id);
  CREATE VIEW tiles AS
    SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row, images.tile_data AS tile_data
    FROM map JOIN images ON images.tile_id = map.tile_id;
`;

export class MbtilesWriter {
  private readonly db: Database.Database;
  private readonly insertImage: Database.Statement<[Uint8Array, string]>;
  private readonly insertMap: Database.Statement<[number, number, number, string]>;
  private readonly pending: { z: number; x: number; y: number; data: Uint8Array; id: string }[] = [];
  private readonly writeBatch: () => void;
  /** Tiles (z/x/y entries) written so far. */
  tiles = 0;
  /** Distinct tile contents written so far. */
  images = 0;

  /** Creates `file`, which must not exist yet. */
  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(SCHEMA);
    this.insertImage = this.db.prepare('INSERT OR IGNORE INTO images (tile_data, tile_id) VALUES (?, ?)');
    this.insertMap = this.db.prepare('INSERT INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)');
    this.writeBatch = this.db.transaction(() => {
      for (const tile of this.pending) {
        this.images += this.insertImage.run(tile.data, tile.id).changes;
        this.insertMap.run(tile.z, tile.x, (1 << tile.z) - 1 - tile.y, tile.id);
      }
      this.tiles += this.pending.length;
      this.pending.length = 0;
    });
  }

  /** Adds the gzipped tile at z/x/y (XYZ scheme); `id` is the hex MD5 of `data`. */
  put(z: number, x: number, y: number, data: Uint8Array, id: string): void {
    this.pending.push({ z, x, y, data, id });
    if (this.pending.length >= BATCH_SIZE) this.writeBatch();
  }

  /** Writes the remaining tiles and the metadata, and closes the file. */
  finish(metadata: Record<string, string>): void {
    this.writeBatch();
    const insert = this.db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [name, value] of Object.entries(metadata)) insert.run(name, value);
    })();
    this.db.close();
  }

  /** Closes the file without finishing it (the caller deletes it). */
  abandon(): void {
    if (this.db.open) this.db.close();
  }
}
