/** The body of `POST /operator/imports`, validated: `{"osm": [absolute path or http(s) URL…], "world"?: boolean}`. */
import { isAbsolute } from 'node:path';
import { badRequest } from '../http/errors.js';

export interface ImportRequest {
  osm: string[];
  world: boolean;
}

const FIELDS = new Set(['osm', 'world']);

export function parseImportRequest(body: Buffer): ImportRequest {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('the body must be JSON: {"osm": ["/path/to/region.osm.pbf" or "https://…"], "world": true|false}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('the body must be a JSON object with "osm" (an array) and optionally "world" (a boolean)');
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !FIELDS.has(name));
  if (unknown !== undefined) throw badRequest(`unknown field ${JSON.stringify(unknown)}; the fields are "osm" and "world"`);
  const { osm, world = false } = fields;
  if (!Array.isArray(osm)) throw badRequest('"osm" is required: an array of .osm.pbf or .osm files (absolute paths on the server) or http(s) URLs');
  osm.forEach((entry: unknown, i) => {
    if (typeof entry !== 'string' || !(isAbsolute(entry) || /^https?:\/\/[^/]/.test(entry))) {
      throw badRequest(`"osm[${i}]" must be an absolute path on the server or an http(s) URL, not ${JSON.stringify(entry)}`);
    }
  });
  if (typeof world !== 'boolean') throw badRequest(`"world" must be true or false, not ${JSON.stringify(world)}`);
  if (osm.length === 0 && !world) throw badRequest('"osm" is empty and "world" is false: name at least one OSM file or set "world": true');
  return { osm: osm as string[], world };
}
