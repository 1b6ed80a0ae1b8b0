/**
 * Encodes geojson-vt's raw tiles (flat typed coordinate arrays) as Mapbox Vector Tiles, version 2.
 *
 * @maplibre/vt-pbf encodes geojson-vt's legacy tiles instead, which geojson-vt builds by turning
 * every coordinate into an [x, y] pair and vt-pbf then into a Point object: at import scale those
 * allocations cost more than the encoding. This writes the same bytes as vt-pbf (same field order,
 * key and value tables, commands; test/mvt-encoder.test.ts compares them) straight from the arrays.
 */
import type { RawFeature } from 'geojson-vt';
import { PbfWriter } from 'pbf';

/** A layer's features as geojson-vt cut them (from one or more indexes). */
export interface RawLayer {
  name: string;
  features: RawFeature[];
}

const MVT_VERSION = 2;
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;
const POLYGON = 3;

const command = (id: number, count: number) => (count << 3) | id;
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

type Value = string | number | boolean;

/** A layer's key and value tables, built as its features are written. */
class Tables {
  readonly keys: string[] = [];
  readonly values: Value[] = [];
  private readonly keyIndex = new Map<string, number>();
  /** By type, as a value's index depends on its type as well (the string "1" is not the number 1). */
  private readonly valueIndex = { string: new Map<Value, number>(), number: new Map<Value, number>(), boolean: new Map<Value, number>() };

  key(key: string): number {
    let index = this.keyIndex.get(key);
    if (index === undefined) this.keyIndex.set(key, (index = this.keys.push(key) - 1));
    return index;
  }

  value(value: Value): number {
    const indexes = this.valueIndex[typeof value as 'string' | 'number' | 'boolean'];
    let index = indexes.get(value);
    if (index === undefined) indexes.set(value, (index = this.values.push(value) - 1));
    return index;
  }
}

/** The pen's position between commands: MVT coordinates are deltas from the last point drawn. */
interface Pen {
  x: number;
  y: number;
}

function writePoint(pbf: PbfWriter, pen: Pen, x: number, y: number): void {
  pbf.writeVarint(zigzag(x - pen.x));
  pbf.writeVarint(zigzag(y - pen.y));
  pen.x = x;
  pen.y = y;
}

/** A ring or line: MoveTo its first point, LineTo the rest (a polygon ring without its closing point, then ClosePath). */
function writeRing(pbf: PbfWriter, pen: Pen, ring: Int16Array | Int32Array, polygon: boolean): void {
  let points = ring.length >> 1;
  if (polygon && points > 1 && ring[0] === ring[ring.length - 2] && ring[1] === ring[ring.length - 1]) points--;
  pbf.writeVarint(command(MOVE_TO, 1));
  writePoint(pbf, pen, ring[0]!, ring[1]!);
  if (points > 1) pbf.writeVarint(command(LINE_TO, points - 1));
  for (let i = 1; i < points; i++) writePoint(pbf, pen, ring[2 * i]!, ring[2 * i + 1]!);
  if (polygon) pbf.writeVarint(command(CLOSE_PATH, 1));
}

function writeGeometry(feature: RawFeature, pbf: PbfWriter): void {
  const pen: Pen = { x: 0, y: 0 };
  if (feature.type === 4) {
    pbf.writeVarint(command(MOVE_TO, 1));
    return writePoint(pbf, pen, feature.x, feature.y);
  }
  if (feature.type === 1) {
    const points = feature.geometry;
    pbf.writeVarint(command(MOVE_TO, points.length >> 1));
    for (let i = 0; i < points.length; i += 2) writePoint(pbf, pen, points[i]!, points[i + 1]!);
    return;
  }
  for (const ring of feature.geometry) writeRing(pbf, pen, ring, feature.type === POLYGON);
}

function writeFeature({ feature, tables }: { feature: RawFeature; tables: Tables }, pbf: PbfWriter): void {
  pbf.writeMessage(2, writeTags, { tags: feature.tags, tables });
  pbf.writeVarintField(3, feature.type === 4 ? 1 : feature.type);
  pbf.writeMessage(4, writeGeometry, feature);
}

function writeTags({ tags, tables }: { tags: RawFeature['tags']; tables: Tables }, pbf: PbfWriter): void {
  for (const key in tags) {
    const value = tags[key] as Value | null | undefined;
    if (value == null) continue;
    pbf.writeVarint(tables.key(key));
    pbf.writeVarint(tables.value(value));
  }
}

function writeValue(value: Value, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (value % 1 !== 0) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}

function writeLayer({ layer, extent }: { layer: RawLayer; extent: number }, pbf: PbfWriter): void {
  pbf.writeVarintField(15, MVT_VERSION);
  pbf.writeStringField(1, layer.name);
  pbf.writeVarintField(5, extent);
  const tables = new Tables();
  for (const feature of layer.features) pbf.writeMessage(2, writeFeature, { feature, tables });
  for (const key of tables.keys) pbf.writeStringField(3, key);
  for (const value of tables.values) pbf.writeMessage(4, writeValue, value);
}

/** The tile's bytes (uncompressed) from its layers, in the order given. */
export function encodeMvt(layers: readonly RawLayer[], extent: number): Uint8Array {
  const pbf = new PbfWriter();
  for (const layer of layers) pbf.writeMessage(3, writeLayer, { layer, extent });
  return pbf.finish();
}
