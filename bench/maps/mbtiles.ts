/**
 * What the benchmark reads from an MBTiles archive (SQLite, tiles in a `tiles` table or view with
 * TMS rows), independently of the servers under test: its size, its tile count, the tile
 * coordinates of some zooms and a tile's stored bytes.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';

export interface TileCoord {
  z: number;
  x: number;
  /** XYZ row (0 at the north), as in tile URLs. */
  y: number;
}

export interface MbtilesSummary {
  bytes: number;
  tiles: number;
  /** Tiles per zoom, lowest zoom first. */
  perZoom: [number, number][];
}

function open(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

export function summarizeMbtiles(file: string): MbtilesSummary {
  const db = open(file);
  try {
    const perZoom = db
      .prepare('SELECT zoom_level AS z, COUNT(*) AS n FROM tiles GROUP BY zoom_level ORDER BY zoom_level')
      .all()
      .map((row) => {
        const { z, n } = row as { z: number; n: number };
        return [z, n] as [number, number];
      });
    return { bytes: statSync(file).size, tiles: perZoom.reduce((sum, [, n]) => sum + n, 0), perZoom };
  } finally {
    db.close();
  }
}

/** Every tile stored at zooms `minZoom`…`maxZoom`, in XYZ coordinates, in the archive's order. */
export function tileCoords(file: string, minZoom: number, maxZoom: number): TileCoord[] {
  const db = open(file);
  try {
    return db
      .prepare('SELECT zoom_level AS z, tile_column AS x, tile_row AS row FROM tiles WHERE zoom_level BETWEEN ? AND ? ORDER BY z, x, row')
      .all(minZoom, maxZoom)
      .map((r) => {
        const { z, x, row } = r as { z: number; x: number; row: number };
        return { z, x, y: 2 ** z - 1 - row };
      });
  } finally {
    db.close();
  }
}

/** Stored bytes of each tile (as stored: usually gzip-compressed), keyed `z/x/y`. */
export function tileBytes(file: string, coords: TileCoord[]): Map<string, Buffer> {
  const db = open(file);
  try {
    const select = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?').pluck();
    return new Map(coords.map((c) => [`${c.z}/${c.x}/${c.y}`, select.get(c.z, c.x, 2 ** c.z - 1 - c.y) as Buffer]));
  } finally {
    db.close();
  }
}

/** The tile with the most stored bytes at zoom `z` (the heaviest one to serve), or null when there is none. */
export function largestTile(file: string, z: number): TileCoord | null {
  const db = open(file);
  try {
    const row = db
      .prepare('SELECT tile_column AS x, tile_row AS row FROM tiles WHERE zoom_level = ? ORDER BY length(tile_data) DESC LIMIT 1')
      .get(z) as { x: number; row: number } | undefined;
    return row ? { z, x: row.x, y: 2 ** z - 1 - row.row } : null;
  } finally {
    db.close();
  }
}
