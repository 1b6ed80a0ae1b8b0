/** The raster routes of the maps product: tiles (one unit each), static maps (one unit each) and the raster TileJSON (free). */
import type { DatasetHolder } from '../../dataset/index.js';
import type { ServiceRoute } from '../../gateway/index.js';
import type { Request } from '../../http/request.js';
import { RasterDiskCache } from './disk-cache.js';
import { rasterPoolFor } from './pool.js';
import { staticMapHandler } from './static-map.js';
import { rasterTileJsonHandler } from './tilejson.js';
import { rasterTileHandler, type RasterTileDeps } from './tiles.js';

/** The raster threads of the served dataset and the disk cache, shared by every route that draws pictures (terrain tiles too). */
export type RasterDrawing = Omit<RasterTileDeps, 'datasets'>;

export const rasterDrawing = (datasets: DatasetHolder): RasterDrawing => ({
  pools: () => rasterPoolFor(datasets),
  disk: new RasterDiskCache(datasets),
});

export function rasterRoutes(datasets: DatasetHolder, apiBase: (req: Request) => string, { pools, disk }: RasterDrawing): ServiceRoute[] {
  return [
    // `{y}@2x.png` cannot be a `:y.png` pattern: the last segment is one parameter, named and checked by the handler.
    { path: '/styles/:slug/tiles/:z/:x/:tile', service: 'maps', handler: rasterTileHandler({ datasets, pools, disk }) },
    { path: '/styles/:slug/tiles.json', service: 'maps', metered: false, handler: rasterTileJsonHandler(datasets, apiBase) },
    { path: '/staticmap', service: 'maps', handler: staticMapHandler(pools) },
  ];
}
