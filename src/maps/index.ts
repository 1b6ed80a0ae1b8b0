/**
 * The maps product behind the gateway (scope `maps`): vector, raster, terrain and contour tiles and static maps
 * (metered, one unit per tile or picture), and TileJSON, styles, glyphs and sprites (scope required, not metered). See docs/MAPS.md.
 */
import type { ServiceRoute } from '../gateway/index.js';
import type { DatasetHolder } from '../dataset/index.js';
import { apiBaseResolver } from '../http/public-origin.js';
import { fontHandler } from './fonts.js';
import { rasterDrawing, rasterRoutes } from './raster/routes.js';
import { spriteHandler } from './sprites.js';
import { styleRoutes } from './styles.js';
import { contourTileHandler, contourTileJsonHandler } from './terrain/contours.js';
import { terrainTileJsonHandler } from './terrain/tilejson.js';
import { terrainTileHandler } from './terrain/tiles.js';
import { tileJsonHandler } from './tilejson.js';
import { tileHandler } from './tiles.js';

export function mapsRoutes(datasets: DatasetHolder, publicUrl: string | undefined): ServiceRoute[] {
  const apiBase = apiBaseResolver(publicUrl);
  const styles = styleRoutes(apiBase, datasets);
  const free = (path: string, handler: ServiceRoute['handler']): ServiceRoute => ({ path, service: 'maps', metered: false, handler });
  const drawing = rasterDrawing(datasets);
  return [
    // Before the Shortbread tiles' pattern, which would take their paths for a tileset's.
    { path: '/tiles/terrain/:z/:x/:tile', service: 'maps', handler: terrainTileHandler({ datasets, ...drawing }) },
    free('/tiles/terrain.json', terrainTileJsonHandler(datasets, apiBase)),
    { path: '/tiles/contours/:z/:x/:y.pbf', service: 'maps', handler: contourTileHandler({ datasets, ...drawing }) },
    free('/tiles/contours.json', contourTileJsonHandler(datasets, apiBase)),
    { path: '/tiles/:tileset/:z/:x/:y.pbf', service: 'maps', handler: tileHandler(datasets) },
    free('/tiles/:tileset.json', tileJsonHandler(datasets, apiBase)),
    free('/styles', styles.list),
    free('/styles/:slug/style.json', styles.style),
    free('/fonts/:fontstack/:range.pbf', fontHandler(datasets)),
    free('/sprites/:name.json', spriteHandler(datasets, 'json')),
    free('/sprites/:name.png', spriteHandler(datasets, 'png')),
    ...rasterRoutes(datasets, apiBase, drawing),
  ];
}
