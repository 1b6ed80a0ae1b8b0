/**
 * One feature as the tiler stores it on disk between reading and cutting: a line of text,
 * `minzoom maxzoom west south east north [layer, geometry, properties]`, so that a reader can place
 * the feature by its zooms and box without parsing its geometry. JSON escapes line breaks, so a
 * record never holds one.
 */
import type { Geometry } from 'geojson';
import type { FeatureValue } from '../features.js';
import { clipGeometry } from './clip.js';
import { tileBox, tilesTouching, type BBox } from './tile-space.js';

export interface SpillFeature {
  layer: string;
  minzoom: number;
  maxzoom: number;
  geometry: Geometry;
  properties: Record<string, FeatureValue>;
}

/** A record's header: what placing it needs. */
export interface RecordHeader {
  minzoom: number;
  maxzoom: number;
  box: BBox;
}

/**
 * How far beyond its own edges a tile keeps a feature's geometry, in tile widths: the tile cutter's
 * buffer is 64 of 4096 units of the tile being cut, and every tile cut from this one is smaller.
 * Twice that, so cut edges never show.
 */
export const TILE_MARGIN = 2 * (64 / 4096);

export function encodeRecord(minzoom: number, maxzoom: number, box: BBox, body: string): string {
  return `${minzoom} ${maxzoom} ${box[0]} ${box[1]} ${box[2]} ${box[3]} ${body}\n`;
}

/** The JSON part of a record for a feature of `layer`. */
export const recordBody = (layer: string, geometry: Geometry, properties: Record<string, FeatureValue>) =>
  JSON.stringify([layer, geometry, properties]);

/** The header of a record line and where its JSON part starts. */
export function readHeader(line: string): RecordHeader & { bodyStart: number } {
  const numbers: number[] = [];
  let start = 0;
  for (let i = 0; i < 6; i++) {
    const end = line.indexOf(' ', start);
    numbers.push(Number(line.slice(start, end)));
    start = end + 1;
  }
  const [minzoom, maxzoom, west, south, east, north] = numbers as [number, number, number, number, number, number];
  return { minzoom, maxzoom, box: [west, south, east, north], bodyStart: start };
}

export function readFeature(line: string): SpillFeature {
  const header = readHeader(line);
  const [layer, geometry, properties] = JSON.parse(line.slice(header.bodyStart)) as [string, Geometry, Record<string, FeatureValue>];
  return { layer, minzoom: header.minzoom, maxzoom: header.maxzoom, geometry, properties };
}

/** A feature's part in one tile. */
export interface TilePiece {
  x: number;
  y: number;
  /** Null: the whole geometry (it lies in this tile alone); else the part cut to the tile and its margin. */
  geometry: Geometry | null;
  box: BBox;
}

/**
 * The tiles of zoom z a geometry with box `box` reaches (with their margin), each with the
 * geometry's part there. A geometry within one tile is not cut.
 */
export function* piecesInTiles(geometry: () => Geometry, box: BBox, z: number): Generator<TilePiece> {
  const { x0, x1, y0, y1 } = tilesTouching(box, z, TILE_MARGIN);
  if (x0 === x1 && y0 === y1) {
    yield { x: x0, y: y0, geometry: null, box };
    return;
  }
  const whole = geometry();
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const tile = tileBox(z, x, y, TILE_MARGIN);
      const part = clipGeometry(whole, tile);
      if (part === null) continue;
      const cut: BBox = [Math.max(box[0], tile[0]), Math.max(box[1], tile[1]), Math.min(box[2], tile[2]), Math.min(box[3], tile[3])];
      yield { x, y, geometry: part, box: cut };
    }
  }
}
