/**
 * GET /tiles/terrain.json — TileJSON 3.0.0 of the terrain tiles, as MapLibre's `raster-dem`
 * sources read it: `encoding` "mapbox", 512-px tiles, the coverage's bounds (MapLibre requests no
 * tile outside them), and maxzoom the data's zoom (MapLibre overzooms beyond it). The tile URL is
 * absolute and carries the caller's key.
 */
import { TERRAIN_TILE_SIZE, terrainDataZoom } from '../../../core/terrain/terrain-rgb.js';
import { currentDataset, type DatasetHolder } from '../../dataset/index.js';
import { json, type Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { requiredElevation } from '../../terrain/index.js';
import { callerKey } from '../absolute-urls.js';
import { KEYED_DOCUMENT_CACHE } from '../http-caching.js';

const SRTM_ATTRIBUTION = '<a href="https://www.earthdata.nasa.gov/data/instruments/srtm" target="_blank">NASA SRTM</a>';

/** Credit for the DEMs the manifest lists: SRTM tiles (`srtm:`), GeoTIFFs (`dem:`) the operator's. */
export function terrainAttribution(inputs: readonly string[]): string {
  const credits = [];
  if (inputs.some((input) => input.startsWith('srtm:'))) credits.push(SRTM_ATTRIBUTION);
  if (inputs.some((input) => input.startsWith('dem:'))) credits.push('elevation data imported by the operator');
  return credits.join('; ');
}

export function terrainTileJsonHandler(datasets: DatasetHolder, apiBase: (req: Request) => string): (req: Request) => Reply {
  return (req) => {
    const dataset = currentDataset(datasets);
    const store = requiredElevation(dataset);
    const [west, south, east, north] = store.bounds;
    const body = {
      tilejson: '3.0.0',
      name: 'Waymark terrain',
      description: 'Elevation as Mapbox Terrain-RGB: -10000 + (R * 65536 + G * 256 + B) * 0.1 metres; 0 m where there is no data',
      version: dataset.manifest.id,
      attribution: terrainAttribution(dataset.manifest.inputs),
      scheme: 'xyz',
      format: 'png',
      encoding: 'mapbox',
      tileSize: TERRAIN_TILE_SIZE,
      tiles: [`${apiBase(req)}/tiles/terrain/{z}/{x}/{y}.png?key=${callerKey(req)}`],
      minzoom: 0,
      maxzoom: terrainDataZoom(store.grids),
      bounds: store.bounds,
      center: [(west + east) / 2, (south + north) / 2, Math.min(terrainDataZoom(store.grids), 8)],
    };
    return json(200, body, { 'Cache-Control': KEYED_DOCUMENT_CACHE });
  };
}
