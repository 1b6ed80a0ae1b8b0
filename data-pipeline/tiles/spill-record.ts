/**
 * One feature as the tiler stores it on disk between reading and cutting: a binary record of
 * 32-bit words, little-endian, that a reader can place by its zooms and box without decoding it,
 * and decode without parsing text.
 *
 *   word 0        the record's length in bytes (a multiple of 4)
 *   word 1        minzoom | maxzoom << 8
 *   words 2–5     box: west, south, east, north, in 1e-7 degrees (rounded outward)
 *   word 6        byte length of the attributes
 *   …             attributes: UTF-8 JSON `[layer, properties]`, padded to a word
 *   …             geometry: a type word, then counts and coordinates (1e-7 degrees, as OSM stores them)
 *
 * The attributes are encoded once per feature and copied as bytes into each of its records.
 */
import type { Geometry, Position } from 'geojson';
import type { FeatureValue } from '../features.js';
import { clipGeometry } from './clip.js';
import { tileBox, tilesTouching } from './tile-space.js';
import type { BBox } from '../../core/geo/types.js';

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

/** Fixed-point scale of coordinates: OSM's own precision, so osmium's coordinates come back exactly. */
const SCALE = 1e7;
const HEADER_WORDS = 7;
const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'] as const;
const TYPE_CODE = new Map<string, number>(GEOMETRY_TYPES.map((type, code) => [type, code]));

const fixed = (degrees: number) => Math.round(degrees * SCALE);
const padded = (bytes: number) => (bytes + 3) & ~3;

/** The UTF-8 attributes of a feature of `layer`, shared by all its records. */
export const recordAttributes = (layer: string, properties: Record<string, FeatureValue>): Buffer =>
  Buffer.from(JSON.stringify([layer, properties]), 'utf8');

/** Words a geometry takes (type word included). */
function geometryWords(geometry: Geometry): number {
  switch (geometry.type) {
    case 'Point':
      return 3;
    case 'MultiPoint':
    case 'LineString':
      return 2 + 2 * geometry.coordinates.length;
    case 'MultiLineString':
    case 'Polygon':
      return 2 + linesWords(geometry.coordinates);
    case 'MultiPolygon':
      return 2 + geometry.coordinates.reduce((sum, rings) => sum + 1 + linesWords(rings), 0);
    case 'GeometryCollection':
      return 2 + geometry.geometries.reduce((sum, part) => sum + geometryWords(part), 0);
  }
}
const linesWords = (lines: Position[][]) => lines.reduce((sum, line) => sum + 1 + 2 * line.length, 0);

/** Writes words into a record's view, from `at`. */
class WordWriter {
  constructor(
    private readonly words: Int32Array,
    public at: number,
  ) {}

  word(value: number): void {
    this.words[this.at++] = value;
  }

  positions(positions: Position[]): void {
    this.word(positions.length);
    for (const p of positions) {
      this.words[this.at++] = fixed(p[0]!);
      this.words[this.at++] = fixed(p[1]!);
    }
  }

  lines(lines: Position[][]): void {
    this.word(lines.length);
    for (const line of lines) this.positions(line);
  }

  geometry(geometry: Geometry): void {
    this.word(TYPE_CODE.get(geometry.type)!);
    switch (geometry.type) {
      case 'Point':
        this.word(fixed(geometry.coordinates[0]!));
        return this.word(fixed(geometry.coordinates[1]!));
      case 'MultiPoint':
      case 'LineString':
        return this.positions(geometry.coordinates);
      case 'MultiLineString':
      case 'Polygon':
        return this.lines(geometry.coordinates);
      case 'MultiPolygon':
        this.word(geometry.coordinates.length);
        for (const rings of geometry.coordinates) this.lines(rings);
        return;
      case 'GeometryCollection':
        this.word(geometry.geometries.length);
        for (const part of geometry.geometries) this.geometry(part);
    }
  }
}

/** Bytes a record of this geometry and these attributes takes. */
export const recordBytes = (attributes: Uint8Array, geometry: Geometry) =>
  4 * (HEADER_WORDS + geometryWords(geometry)) + padded(attributes.length);

/** Writes a record into `target` (exactly `recordBytes(attributes, geometry)` long, word-aligned). */
export function encodeRecord(target: Uint8Array, header: RecordHeader, attributes: Uint8Array, geometry: Geometry): void {
  const words = new Int32Array(target.buffer, target.byteOffset, target.byteLength >> 2);
  const { minzoom, maxzoom, box } = header;
  words.set([
    target.byteLength,
    minzoom | (maxzoom << 8),
    Math.floor(box[0] * SCALE),
    Math.floor(box[1] * SCALE),
    Math.ceil(box[2] * SCALE),
    Math.ceil(box[3] * SCALE),
    attributes.length,
  ]);
  target.set(attributes, 4 * HEADER_WORDS);
  new WordWriter(words, HEADER_WORDS + (padded(attributes.length) >> 2)).geometry(geometry);
}

/** A record as read back: its bytes (word-aligned) and their words. */
export class SpillRecord {
  readonly words: Int32Array;

  constructor(readonly bytes: Uint8Array) {
    this.words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  }

  header(): RecordHeader {
    const w = this.words;
    return { minzoom: w[1]! & 0xff, maxzoom: (w[1]! >> 8) & 0xff, box: [w[2]! / SCALE, w[3]! / SCALE, w[4]! / SCALE, w[5]! / SCALE] };
  }

  /** The attributes' bytes, to copy into records of the same feature. */
  attributes(): Uint8Array {
    return this.bytes.subarray(4 * HEADER_WORDS, 4 * HEADER_WORDS + this.words[6]!);
  }

  /** This record with another zoom range (a copy). */
  withZooms(minzoom: number, maxzoom: number): Uint8Array {
    const copy = new Uint8Array(this.bytes);
    new Int32Array(copy.buffer, 0, 2)[1] = minzoom | (maxzoom << 8);
    return copy;
  }

  feature(): SpillFeature {
    const { minzoom, maxzoom } = this.header();
    const [layer, properties] = JSON.parse(Buffer.from(this.attributes()).toString('utf8')) as [string, Record<string, FeatureValue>];
    const reader = new WordReader(this.words, HEADER_WORDS + (padded(this.words[6]!) >> 2));
    return { layer, minzoom, maxzoom, geometry: reader.geometry(), properties };
  }
}

/** Reads words back into GeoJSON, from `at`. */
class WordReader {
  constructor(
    private readonly words: Int32Array,
    private at: number,
  ) {}

  private word(): number {
    return this.words[this.at++]!;
  }

  private position(): Position {
    const x = this.words[this.at++]! / SCALE;
    return [x, this.words[this.at++]! / SCALE];
  }

  private positions(): Position[] {
    const positions = new Array<Position>(this.word());
    for (let i = 0; i < positions.length; i++) positions[i] = this.position();
    return positions;
  }

  private lines(): Position[][] {
    const lines = new Array<Position[]>(this.word());
    for (let i = 0; i < lines.length; i++) lines[i] = this.positions();
    return lines;
  }

  geometry(): Geometry {
    const type = GEOMETRY_TYPES[this.word()];
    switch (type) {
      case 'Point':
        return { type, coordinates: this.position() };
      case 'MultiPoint':
      case 'LineString':
        return { type, coordinates: this.positions() };
      case 'MultiLineString':
      case 'Polygon':
        return { type, coordinates: this.lines() };
      case 'MultiPolygon': {
        const polygons = new Array<Position[][]>(this.word());
        for (let i = 0; i < polygons.length; i++) polygons[i] = this.lines();
        return { type, coordinates: polygons };
      }
      case 'GeometryCollection': {
        const parts = new Array<Geometry>(this.word());
        for (let i = 0; i < parts.length; i++) parts[i] = this.geometry();
        return { type, geometries: parts };
      }
      default:
        throw new Error(`a spill record holds an unknown geometry type (${String(type)})`);
    }
  }
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
