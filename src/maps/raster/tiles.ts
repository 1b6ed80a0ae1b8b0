/**
 * GET /styles/{slug}/tiles/{z}/{x}/{y}{@2x}.{png|webp|jpg}?lang= — raster tiles of a style, 256 CSS
 * pixels (512 device pixels for `@2x`), z0–20. A tile is answered from the memory cache, else the
 * disk cache, else the renderer: one metatile job draws it with its neighbours (2×2 from z2, the
 * whole world below), so labels are placed once across them; requests for tiles of one metatile
 * share that job, and every tile of its answer goes into both caches.
 */
import { sanitize } from '../../http/params/compose.js';
import { currentDataset, type Dataset, type DatasetHolder } from '../../dataset/index.js';
import { ApiError } from '../../http/errors.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import type { LabelLanguage, StyleEntry } from '../../../core/maps/style-catalog.js';
import { labelLanguage, styleOfSlug } from '../styles.js';
import { datasetTileCache } from '../tile-cache.js';
import type { RasterDiskCache } from './disk-cache.js';
import { imageAnswer, imageReply, type ImageAnswer } from './image-answer.js';
import type { RasterFormat } from '../../../workers/render/task.js';
import type { RasterPool } from './pool.js';
import { EXTENSION_FORMATS, FORMAT_EXTENSIONS } from './sanitize/picture.js';
import { sanitizeLang } from './sanitize/style.js';
import { MAX_ZOOM } from './sanitize/view.js';
import { renderedStyle } from './style-documents.js';

const TILE_NAME = /^(\d{1,7})(@2x)?\.([a-z]+)$/;
const EXTENSIONS = Object.keys(EXTENSION_FORMATS).join(', ');
/** Raster tiles per metatile side from z2; the world (1 or 2 tiles a side) below. */
const METATILE = 2;

interface TileRequest {
  style: StyleEntry;
  language: LabelLanguage;
  z: number;
  x: number;
  y: number;
  pixelRatio: 1 | 2;
  format: RasterFormat;
}

/** A tile coordinate of up to 7 digits, at most `max`; else the 400 naming it. */
export function coordinate(raw: string, name: string, max: number, at: string): number {
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max)
    throw new ApiError(400, `${name} must be an integer from 0 to ${max}${at}; got "${raw.slice(0, 20)}"`);
  return Number(raw);
}

/** The path's slug, z, x and `{y}{@2x}.{ext}`, and the `lang` query parameter; 404 for an unknown style, else 400 naming the part. */
export function parseTileRequest(req: Request): TileRequest {
  const { slug, z: zRaw, x: xRaw, tile } = req.params;
  const style = styleOfSlug(slug!);
  const name = TILE_NAME.exec(tile!);
  if (!name)
    throw new ApiError(400, `the tile must be named {y}.{ext} or {y}@2x.{ext} with ext one of ${EXTENSIONS}; got "${tile!.slice(0, 30)}"`);
  const format = EXTENSION_FORMATS[name[3]!];
  if (!format) throw new ApiError(400, `the tile extension must be one of ${EXTENSIONS}; got "${name[3]!.slice(0, 10)}"`);
  const z = coordinate(zRaw!, 'z', MAX_ZOOM, '');
  const last = 2 ** z - 1;
  const x = coordinate(xRaw!, 'x', last, ` at zoom ${z}`);
  const y = coordinate(name[1]!, 'y', last, ` at zoom ${z}`);
  // Most tile requests name no language; they skip parsing the query.
  const language =
    req.queryAll('lang').length === 0 ? labelLanguage(null) : sanitize(req.query, { lang: sanitizeLang }, ['lang']).params.lang;
  return { style, language, z, x, y, pixelRatio: name[2] ? 2 : 1, format };
}

/** The tile's name in the caches, relative to the dataset: style, language, z/x/y, scale and format. */
const tileKey = (t: TileRequest, x: number, y: number) =>
  `${t.style.slug}/${t.language}/${t.z}/${x}/${y}@${t.pixelRatio}x.${FORMAT_EXTENSIONS[t.format]}`;

const memoryKeyOf = (dataset: Dataset, key: string) => `${dataset.id}/raster/${key}`;

export interface RasterTileDeps {
  datasets: DatasetHolder;
  pools: () => { dataset: Dataset; pool: RasterPool };
  disk: RasterDiskCache;
}

export function rasterTileHandler({ datasets, pools, disk }: RasterTileDeps): (req: Request) => Reply | Promise<Reply> {
  const memory = datasetTileCache<ImageAnswer>(datasets);
  /** Metatile jobs under way, by dataset and metatile key: later requests for any of their tiles wait for them. */
  const inFlight = new Map<string, Promise<Map<string, ImageAnswer>>>();

  /** Takes the pool only on a miss of both caches, so a warm disk cache starts no render thread. */
  const renderMetatile = (t: TileRequest): Promise<Map<string, ImageAnswer>> => {
    const { dataset, pool } = pools();
    const size = Math.min(METATILE, 2 ** t.z);
    const mx = t.x - (t.x % size);
    const my = t.y - (t.y % size);
    const flightKey = `${dataset.id}/${tileKey(t, mx, my)}/meta`;
    let flight = inFlight.get(flightKey);
    if (flight) return flight;
    flight = pool
      .run({
        kind: 'metatile',
        datasetDir: dataset.dir,
        style: renderedStyle(t.style, t.language, dataset.manifest.elevation !== undefined),
        format: t.format,
        pixelRatio: t.pixelRatio,
        z: t.z,
        x: mx,
        y: my,
        metatile: size,
        tileSize: 256,
      })
      .then((answer) => {
        if (answer.kind !== 'metatile') throw new ApiError(500, 'the renderer answered a metatile job with another kind of picture');
        const tiles = new Map<string, ImageAnswer>();
        for (const tile of answer.tiles) {
          const key = tileKey(t, tile.x, tile.y);
          const image = imageAnswer(Buffer.from(tile.image.buffer, tile.image.byteOffset, tile.image.byteLength), t.format);
          tiles.set(key, image);
          memory?.set(memoryKeyOf(dataset, key), image, image.data.byteLength);
          void disk.write(dataset, key, image.data);
        }
        return tiles;
      })
      .finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, flight);
    return flight;
  };

  /** A tile missing from the memory cache: from the disk cache, else from its metatile's job. */
  const readOrRender = async (req: Request, t: TileRequest, key: string): Promise<Reply> => {
    const dataset = currentDataset(datasets);
    const stored = await disk.read(dataset, key);
    let answer: ImageAnswer | undefined;
    if (stored !== null) {
      answer = imageAnswer(stored, t.format);
      memory?.set(memoryKeyOf(dataset, key), answer, stored.byteLength);
    }
    answer ??= (await renderMetatile(t)).get(key);
    if (answer === undefined) throw new ApiError(500, `the renderer's metatile lacks tile ${t.z}/${t.x}/${t.y}`);
    return imageReply(req, answer);
  };

  // A memory-cache hit is answered synchronously, as a vector tile is.
  return (req) => {
    const t = parseTileRequest(req);
    const key = tileKey(t, t.x, t.y);
    const cached = memory?.get(memoryKeyOf(currentDataset(datasets), key));
    return cached === undefined ? readOrRender(req, t, key) : imageReply(req, cached);
  };
}
