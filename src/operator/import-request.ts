/**
 * The body of `POST /operator/imports`, validated:
 * `{"osm": [path or URL…], "world"?: bool, "wof"?: [folder…], "oa"?: [path or URL…], "geonames"?: bool, "dem"?: [file or folder…]}`;
 * paths are absolute paths on the server.
 */
import { isAbsolute } from 'node:path';
import type { ImportInputs } from '../../data-pipeline/index.js';
import { badRequest } from '../http/errors.js';

export type ImportRequest = Required<ImportInputs>;

const SHAPE =
  '{"osm": ["/path/to/region.osm.pbf" or "https://…"], "world": bool, "wof": ["/folder"], "oa": ["/file.csv" or "https://…"], "geonames": bool, "dem": ["/N43E007.hgt.zip" or "/folder"]}';
const FIELDS = new Set(['osm', 'world', 'wof', 'oa', 'geonames', 'dem']);
const isUrl = (entry: string) => /^https?:\/\/[^/]/.test(entry);

function stringList(fields: Record<string, unknown>, name: string, what: string, urls: boolean): string[] {
  const list = fields[name] ?? [];
  if (!Array.isArray(list)) throw badRequest(`"${name}" must be an array of ${what}`);
  list.forEach((entry: unknown, i) => {
    if (typeof entry !== 'string' || !(isAbsolute(entry) || (urls && isUrl(entry)))) {
      throw badRequest(
        `"${name}[${i}]" must be ${urls ? 'an absolute path on the server or an http(s) URL' : 'an absolute path on the server'}, not ${JSON.stringify(entry)}`,
      );
    }
  });
  return list as string[];
}

function flag(fields: Record<string, unknown>, name: string): boolean {
  const value = fields[name] ?? false;
  if (typeof value !== 'boolean') throw badRequest(`"${name}" must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

export function parseImportRequest(body: Buffer): ImportRequest {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest(`the body must be JSON: ${SHAPE}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(`the body must be a JSON object: ${SHAPE}`);
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !FIELDS.has(name));
  if (unknown !== undefined)
    throw badRequest(`unknown field ${JSON.stringify(unknown)}; the fields are "osm", "world", "wof", "oa", "geonames" and "dem"`);
  const request: ImportRequest = {
    osm: stringList(fields, 'osm', '.osm.pbf or .osm files (absolute paths on the server) or http(s) URLs', true),
    world: flag(fields, 'world'),
    wof: stringList(fields, 'wof', "Who's On First folders (absolute paths on the server)", false),
    oa: stringList(fields, 'oa', 'OpenAddresses CSV files (absolute paths on the server) or http(s) URLs', true),
    geonames: flag(fields, 'geonames'),
    dem: stringList(
      fields,
      'dem',
      'SRTM .hgt/.hgt.zip tiles, GeoTIFF elevation rasters or folders of them (absolute paths on the server)',
      false,
    ),
  };
  if (request.osm.length + request.wof.length + request.oa.length + request.dem.length === 0 && !request.world && !request.geonames) {
    throw badRequest('nothing to import: name at least one of "osm", "wof", "oa", "dem", or set "world" or "geonames" to true');
  }
  return request;
}
