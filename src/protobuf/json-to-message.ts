/**
 * A JSON answer as the plain object protobufjs' `Type.fromObject` takes, walked along the message
 * type: GeoJSON geometries flattened (geometry.proto), route geometries as their oneof, matrices
 * flattened with NaN for null, elevation profiles as two lists (NaN for null), an unmatched tracepoint (null) as an empty message, null in a field
 * with presence (proto3 `optional`: an elevation outside the coverage) as the field left out,
 * free-form objects as google.protobuf.Struct. A JSON key the
 * message has no field for is an error, never dropped: a body that cannot be carried whole is
 * not sent.
 */
import protobuf from 'protobufjs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Converter = (value: Json, path: string) => unknown;

function fail(path: string, what: string): never {
  throw new Error(`protobuf encoding: ${path} ${what}`);
}

function asObject(value: Json, path: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'is not an object');
  return value;
}

function asArray(value: Json, path: string): Json[] {
  if (!Array.isArray(value)) fail(path, 'is not an array');
  return value;
}

/** Appends each [lon, lat] of `positions` to `flat`; returns how many there were. */
function flattenPositions(positions: Json, flat: number[], path: string): number {
  const list = asArray(positions, path);
  for (const position of list) {
    const pair = asArray(position, path);
    if (pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'number')
      fail(path, 'holds a position that is not [lon, lat]');
    flat.push(pair[0], pair[1]);
  }
  return list.length;
}

/** GeoJSON geometry → waymark.Geometry (see geometry.proto for the layout). */
function geometry(value: Json, path: string): unknown {
  const { type, coordinates, ...rest } = asObject(value, path);
  if (Object.keys(rest).length > 0) fail(path, `has keys geometry.proto does not carry: ${Object.keys(rest).join(', ')}`);
  const flat: number[] = [];
  const lengths: number[] = [];
  const parts: number[] = [];
  const rings = (list: Json) => asArray(list, path).forEach((ring) => lengths.push(flattenPositions(ring, flat, path)));
  switch (type) {
    case 'Point':
      flattenPositions([coordinates!], flat, path);
      break;
    case 'LineString':
      flattenPositions(coordinates!, flat, path);
      break;
    case 'MultiLineString':
    case 'Polygon':
      rings(coordinates!);
      break;
    case 'MultiPolygon':
      for (const polygon of asArray(coordinates!, path)) {
        parts.push(asArray(polygon, path).length);
        rings(polygon);
      }
      break;
    default:
      fail(path, `has geometry type ${String(type)}, which geometry.proto does not carry`);
  }
  return { type, coordinates: flat, lengths, parts };
}

/** An encoded polyline string or a GeoJSON LineString → waymark.RouteGeometry's oneof. */
const routeGeometry: Converter = (value, path) => (typeof value === 'string' ? { polyline: value } : { geojson: geometry(value, path) });

/** A number of a list that may hold null (no route, no elevation): NaN for null. */
function numberOrNaN(value: Json | undefined, path: string): number {
  if (value === null) return NaN;
  return typeof value === 'number' ? value : fail(path, 'holds a value that is neither a number nor null');
}

/** Rows of numbers or null → waymark.Matrix: the rows concatenated, NaN for null. */
const matrix: Converter = (value, path) => {
  const rows = asArray(value, path).map((row) => asArray(row, path));
  return { values: rows.flatMap((row) => row.map((cell) => numberOrNaN(cell, path))), columns: rows[0]?.length ?? 0 };
};

/** [distance, elevation or null] pairs → waymark.ElevationProfile: two lists, NaN for null. */
const elevationProfile: Converter = (value, path) => {
  const pairs = asArray(value, path).map((pair) => asArray(pair, path));
  return { distances: pairs.map((pair) => numberOrNaN(pair[0], path)), elevations: pairs.map((pair) => numberOrNaN(pair[1], path)) };
};

/** Any JSON value → google.protobuf.Value. */
function structValue(value: Json): unknown {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(structValue) } };
  return { structValue: struct(value, '') };
}

/** A JSON object → google.protobuf.Struct. */
function struct(value: Json, path: string): unknown {
  const fields: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(asObject(value, path))) fields[key] = structValue(item);
  return { fields };
}

/** Message types that are not the JSON object they are named after, by full name. */
const SPECIAL: Record<string, Converter> = {
  '.waymark.Geometry': geometry,
  '.waymark.RouteGeometry': routeGeometry,
  '.waymark.Matrix': matrix,
  '.waymark.ElevationProfile': elevationProfile,
  '.google.protobuf.Struct': struct,
};

/** Message types whose JSON may be null (an unmatched tracepoint): null is the message with no field set. */
const NULL_AS_EMPTY: ReadonlySet<string> = new Set(['.waymark.Tracepoint']);

function fieldValue(field: protobuf.Field, value: Json, path: string): unknown {
  const type = field.resolvedType;
  if (value === null && type instanceof protobuf.Type && NULL_AS_EMPTY.has(type.fullName)) return {};
  if (!(type instanceof protobuf.Type)) {
    if (value === null) fail(path, 'is null, which a scalar field cannot hold');
    return value;
  }
  return SPECIAL[type.fullName]?.(value, path) ?? messageObject(type, value, path);
}

/** The JSON object `value` as the plain object of message `type`. */
function messageObject(type: protobuf.Type, value: Json, path = type.name): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(asObject(value, path))) {
    const field = type.fields[key];
    if (field === undefined) fail(`${path}.${key}`, `has no field in ${type.fullName}`);
    const at = `${path}.${key}`;
    if (item === null && field.hasPresence && !(field.resolvedType instanceof protobuf.Type)) continue;
    object[key] = field.repeated
      ? asArray(item, at).map((element, i) => fieldValue(field, element, `${at}[${i}]`))
      : fieldValue(field, item, at);
  }
  return object;
}

/** A JSON body (text) encoded as message `type`. */
export function encodeJson(type: protobuf.Type, body: string): Uint8Array {
  return type.encode(type.fromObject(messageObject(type, JSON.parse(body) as Json))).finish();
}
