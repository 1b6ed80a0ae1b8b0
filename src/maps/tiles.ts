/**
 * GET /tiles/{tileset}/{z}/{x}/{y}.pbf — the hot path. Tiles are stored gzipped and sent as they
 * are when the client accepts gzip (else inflated); ETag is the tile's id, so If-None-Match gives a
 * 304. A coordinate inside the pyramid with no stored tile is an empty tile: 200 with an empty
 * body, which MapLibre reads as a tile without layers. Answers, their headers encoded once, are
 * kept in the data folder's tile cache (tile-cache.ts), the empty ones too. Beyond the world layer's
 * zooms, a tile outside the imported extracts gets the world backdrop (world-backdrop.ts).
 */
import { gunzipSync } from 'node:zlib';
import { TILESET_ID } from '../../core/dataset-layout.js';
import { currentDataset, type Dataset, type DatasetHolder } from '../dataset/index.js';
import type { StoredTile } from '../../core/maps/mbtiles.js';
import { ApiError } from '../http/errors.js';
import { presetHeaders, type PresetHeaders, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { assetCacheControl, notModified } from './http-caching.js';
import { datasetTileCache, type TileCache } from './tile-cache.js';
import { backdropTiles } from '../../core/maps/world-backdrop.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

const TILE_TYPE = 'application/x-protobuf';
const EMPTY_TILE_ETAG = '"empty"';
const GZIP = /(?:^|,)\s*(?:x-)?gzip\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?:,|$)/i;
const ANY = /(?:^|,)\s*\*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?:,|$)/;

/** Whether an Accept-Encoding header allows gzip (named, or through `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  const match = GZIP.exec(header) ?? ANY.exec(header);
  return match !== null && (match[1] === undefined || Number(match[1]) > 0);
}

/** Parses a tile coordinate: decimal digits only, at most `max`; else the 400 naming it. */
export function coordinate(value: string, name: string, max: number, range: string): number {
  let n = 0;
  for (let i = 0; i < value.length && n <= max; i++) {
    const digit = value.charCodeAt(i) - 48;
    n = digit >= 0 && digit <= 9 ? n * 10 + digit : Infinity;
  }
  if (n > max) throw new ApiError(400, `${name} must be an integer from 0 to ${max}${range}; got "${value.slice(0, 20)}"`);
  return n;
}

export function unknownTileset(tileset: string): ApiError {
  return new ApiError(
    404,
    `unknown tileset "${tileset.slice(0, 60)}"; the tilesets served are "${TILESET_ID}" and, from elevation data, "terrain" and "contours"`,
  );
}

/** A tile as it is answered: the stored gzip bytes (empty where no tile is stored) and its headers, encoded once. */
export interface TileAnswer {
  data: Buffer;
  etag: string;
  gzipped: readonly PresetHeaders[];
  inflated: readonly PresetHeaders[];
  notModified: readonly PresetHeaders[];
}

export function tileAnswer(tile: StoredTile | null): TileAnswer {
  const etag = tile ? `"${tile.id}"` : EMPTY_TILE_ETAG;
  const inflated = { 'Content-Type': TILE_TYPE, ETag: etag, Vary: 'Accept-Encoding' };
  return {
    data: tile?.data ?? Buffer.alloc(0),
    etag,
    // An empty body is sent without Content-Encoding, whatever the client accepts.
    gzipped: [presetHeaders(tile ? { ...inflated, 'Content-Encoding': 'gzip' } : inflated)],
    inflated: [presetHeaders(inflated)],
    notModified: [presetHeaders({ ETag: etag, Vary: 'Accept-Encoding' })],
  };
}

const EMPTY_ANSWER = tileAnswer(null);
const answerFor = (tile: StoredTile | null): TileAnswer => (tile ? tileAnswer(tile) : EMPTY_ANSWER);

/** The answer for z/x/y of the current dataset: from the tile cache when it holds it, else read from the MBTiles (and cached). */
function readTile(dataset: Dataset, cache: TileCache<TileAnswer> | null, z: number, x: number, y: number): TileAnswer {
  if (cache === null) return answerFor(backdropTiles(dataset.tiles).tile(z, x, y));
  const key = `${dataset.id}/${TILESET_ID}/${z}/${x}/${y}`;
  let answer = cache.get(key);
  if (answer === undefined) {
    answer = answerFor(backdropTiles(dataset.tiles).tile(z, x, y));
    cache.set(key, answer, answer.data.length);
  }
  return answer;
}

export function tileHandler(datasets: DatasetHolder): (req: Request) => Reply {
  const cache = datasetTileCache<TileAnswer>(datasets);
  return (req) => {
    const { tileset, z: zParam, x: xParam, y: yParam } = req.params;
    if (tileset !== TILESET_ID) throw unknownTileset(tileset!);
    const z = coordinate(zParam!, 'z', TILE_MAX_ZOOM, '');
    const last = (1 << z) - 1;
    const x = coordinate(xParam!, 'x', last, ` at zoom ${z}`);
    const y = coordinate(yParam!, 'y', last, ` at zoom ${z}`);
    return vectorTileReply(req, readTile(currentDataset(datasets), cache, z, x, y));
  };
}

/** A vector tile's reply: 304 for its ETag; the gzip bytes as they are when the client accepts gzip, else inflated. */
export function vectorTileReply(req: Request, answer: TileAnswer): Reply {
  const headers = { 'Cache-Control': assetCacheControl(req) };
  if (notModified(req, answer.etag)) return { status: 304, headers, preset: answer.notModified, body: '' };
  if (answer.data.length === 0 || acceptsGzip(req.header('accept-encoding')))
    return { status: 200, headers, preset: answer.gzipped, body: answer.data };
  return { status: 200, headers, preset: answer.inflated, body: gunzipSync(answer.data) };
}
