/**
 * GET /tiles/contours/{z}/{x}/{y}.pbf — contour lines from the dataset's elevation: layer
 * `contour`, one line feature per elevation with `ele` (metres) and `level` (`major`/`minor`), at
 * the intervals of core/terrain/contour-tile.ts by zoom; z0–14 (clients overzoom beyond), an
 * empty tile below z9 and outside the coverage's box, a 503 without elevation. Drawn in a raster
 * thread (render/terrain-tile.ts), cached (drawn-tiles.ts), answered as the Shortbread tiles are
 * (gzip, ETag the MD5 of the gzipped tile). And GET /tiles/contours.json, its TileJSON.
 */
import { createHash } from 'node:crypto';
import { CONTOUR_MAX_ZOOM, CONTOUR_MIN_ZOOM } from '../../../core/terrain/contour-tile.js';
import { tileOverlaps } from '../../../core/terrain/terrain-rgb.js';
import { currentDataset, type DatasetHolder } from '../../dataset/index.js';
import { ApiError } from '../../http/errors.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { requiredElevation } from '../../terrain/index.js';
import type { RasterTileDeps } from '../raster/tiles.js';
import { coordinate, tileAnswer, vectorTileReply } from '../tiles.js';
import { drawnTiles } from './drawn-tiles.js';
import { elevationTileJsonHandler } from './tilejson.js';

const EMPTY = tileAnswer(null);

const contourAnswer = (bytes: Uint8Array) => {
  if (bytes.length === 0) return EMPTY;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return tileAnswer({ data, id: createHash('md5').update(data).digest('hex') });
};

export function contourTileHandler({ datasets, pools, disk }: RasterTileDeps): (req: Request) => Reply | Promise<Reply> {
  const tiles = drawnTiles(datasets, disk, contourAnswer);
  return (req) => {
    const { z: zRaw, x: xRaw, y: yRaw } = req.params;
    const z = coordinate(zRaw!, 'z', CONTOUR_MAX_ZOOM, '');
    const last = 2 ** z - 1;
    const x = coordinate(xRaw!, 'x', last, ` at zoom ${z}`);
    const y = coordinate(yRaw!, 'y', last, ` at zoom ${z}`);
    const dataset = currentDataset(datasets);
    const { bounds } = requiredElevation(dataset);
    if (z < CONTOUR_MIN_ZOOM || !tileOverlaps(z, x, y, bounds)) return vectorTileReply(req, EMPTY);
    const answer = tiles(dataset, `contours/${z}/${x}/${y}.pbf.gz`, async () => {
      const drawn = await pools().pool.run({ kind: 'contours', datasetDir: dataset.dir, z, x, y });
      if (drawn.kind !== 'contours') throw new ApiError(500, 'the renderer answered a contour tile job with another kind of tile');
      return drawn.tile;
    });
    return answer instanceof Promise ? answer.then((tile) => vectorTileReply(req, tile)) : vectorTileReply(req, answer);
  };
}

/** GET /tiles/contours.json. */
export const contourTileJsonHandler = (datasets: DatasetHolder, apiBase: (req: Request) => string) =>
  elevationTileJsonHandler(datasets, apiBase, () => ({
    name: 'Waymark contours',
    description: 'Contour lines: layer contour, ele in metres, level major or minor',
    format: 'pbf',
    path: '/tiles/contours/{z}/{x}/{y}.pbf',
    minzoom: CONTOUR_MIN_ZOOM,
    maxzoom: CONTOUR_MAX_ZOOM,
    vector_layers: [{ id: 'contour', minzoom: CONTOUR_MIN_ZOOM, maxzoom: CONTOUR_MAX_ZOOM, fields: { ele: 'Number', level: 'String' } }],
  }));
