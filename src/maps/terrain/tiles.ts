/**
 * GET /tiles/terrain/{z}/{x}/{y}.{png|webp} — terrain tiles: the dataset's elevations at the 512²
 * pixel centres of a web-mercator tile, Mapbox Terrain-RGB encoded (core/terrain/terrain-rgb.ts),
 * lossless. z0–20: beyond the data's zoom (the TileJSON's maxzoom) the pixels interpolate between
 * the same samples. Pixels without elevation say 0 m (sea level, as Mapbox's tiles over the sea); a
 * tile wholly outside the coverage's bounds is a 404 (MapLibre requests none: the TileJSON's
 * bounds), a dataset without elevation a 503. Tiles are drawn in a raster thread
 * (render/terrain-tile.ts) and cached (drawn-tiles.ts).
 */
import { tileOverlaps } from '../../../core/terrain/terrain-rgb.js';
import { currentDataset } from '../../dataset/index.js';
import { ApiError } from '../../http/errors.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { requiredElevation } from '../../terrain/index.js';
import { imageAnswer, imageReply } from '../raster/image-answer.js';
import { MAX_ZOOM } from '../raster/sanitize/view.js';
import { coordinate, type RasterTileDeps } from '../raster/tiles.js';
import { drawnTiles } from './drawn-tiles.js';

const TILE_NAME = /^(\d{1,7})\.([a-z0-9]+)$/;
const FORMATS = ['png', 'webp'] as const;
type TerrainFormat = (typeof FORMATS)[number];

export interface TerrainTile {
  z: number;
  x: number;
  y: number;
  format: TerrainFormat;
}

/** z, x and `{y}.{png|webp}` of the path; else the 400 naming the part. */
export function parseTerrainTile(req: Request): TerrainTile {
  const { z: zRaw, x: xRaw, tile } = req.params;
  const name = TILE_NAME.exec(tile!);
  if (!name) throw new ApiError(400, `the tile must be named {y}.png or {y}.webp; got "${tile!.slice(0, 30)}"`);
  const format = FORMATS.find((known) => known === name[2]);
  if (!format) throw new ApiError(400, `the tile extension must be png or webp; got "${name[2]!.slice(0, 10)}"`);
  const z = coordinate(zRaw!, 'z', MAX_ZOOM, '');
  const last = 2 ** z - 1;
  return { z, x: coordinate(xRaw!, 'x', last, ` at zoom ${z}`), y: coordinate(name[1]!, 'y', last, ` at zoom ${z}`), format };
}

export function terrainTileHandler({ datasets, pools, disk }: RasterTileDeps): (req: Request) => Reply | Promise<Reply> {
  const tiles = new Map(FORMATS.map((format) => [format, drawnTiles(datasets, disk, (bytes) => imageAnswer(bytes, format))]));
  return (req) => {
    const t = parseTerrainTile(req);
    const dataset = currentDataset(datasets);
    const { bounds } = requiredElevation(dataset);
    if (!tileOverlaps(t.z, t.x, t.y, bounds))
      throw new ApiError(404, `terrain tile ${t.z}/${t.x}/${t.y} lies outside the elevation data, which covers [${bounds.join(', ')}]`);
    const answer = tiles.get(t.format)!(dataset, `terrain/${t.z}/${t.x}/${t.y}.${t.format}`, async () => {
      const drawn = await pools().pool.run({ kind: 'terrain', datasetDir: dataset.dir, ...t });
      if (drawn.kind !== 'terrain') throw new ApiError(500, 'the renderer answered a terrain tile job with another kind of picture');
      return drawn.image;
    });
    return answer instanceof Promise ? answer.then((image) => imageReply(req, image)) : imageReply(req, answer);
  };
}
