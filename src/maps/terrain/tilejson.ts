/**
 * TileJSON of the tiles drawn from the elevation data. GET /tiles/terrain.json, as MapLibre's
 * `raster-dem` sources read it: `encoding` "mapbox", 512-px tiles, the coverage's bounds (MapLibre
 * requests no tile outside them), and maxzoom the data's zoom (MapLibre overzooms beyond it). The
 * tile URL is absolute and carries the caller's key. The contours' is in contours.ts.
 */
import { TERRAIN_TILE_SIZE, terrainDataZoom } from '../../../core/terrain/terrain-rgb.js';
import { currentDataset, type DatasetHolder } from '../../dataset/index.js';
import { json, type Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { requiredElevation, type ElevationStore } from '../../terrain/index.js';
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

/** What a tileset drawn from the elevation data says of itself besides the shared fields: name, format, tiles path, zooms… */
interface ElevationTileset {
  name: string;
  description: string;
  format: string;
  /** The tile path under the API base, e.g. `/tiles/terrain/{z}/{x}/{y}.png`. */
  path: string;
  minzoom: number;
  maxzoom: number;
  [field: string]: unknown;
}

/**
 * GET handler of a TileJSON 3.0.0 of tiles drawn from the elevation data: `tileset` gives its own
 * fields, then version, attribution, the absolute tile URL with the caller's key, the coverage's
 * bounds and centre; a 503 without elevation. Not metered.
 */
export function elevationTileJsonHandler(
  datasets: DatasetHolder,
  apiBase: (req: Request) => string,
  tileset: (store: ElevationStore) => ElevationTileset,
): (req: Request) => Reply {
  return (req) => {
    const dataset = currentDataset(datasets);
    const store = requiredElevation(dataset);
    const { name, description, format, path, minzoom, maxzoom, ...rest } = tileset(store);
    const [west, south, east, north] = store.bounds;
    const body = {
      tilejson: '3.0.0',
      name,
      description,
      version: dataset.manifest.id,
      attribution: terrainAttribution(dataset.manifest.inputs),
      scheme: 'xyz',
      format,
      ...rest,
      tiles: [`${apiBase(req)}${path}?key=${callerKey(req)}`],
      minzoom,
      maxzoom,
      bounds: store.bounds,
      center: [(west + east) / 2, (south + north) / 2, maxzoom],
    };
    return json(200, body, { 'Cache-Control': KEYED_DOCUMENT_CACHE });
  };
}

/** GET /tiles/terrain.json. */
export const terrainTileJsonHandler = (datasets: DatasetHolder, apiBase: (req: Request) => string) =>
  elevationTileJsonHandler(datasets, apiBase, (store) => ({
    name: 'Waymark terrain',
    description: 'Elevation as Mapbox Terrain-RGB: -10000 + (R * 65536 + G * 256 + B) * 0.1 metres; 0 m where there is no data',
    format: 'png',
    encoding: 'mapbox',
    tileSize: TERRAIN_TILE_SIZE,
    path: '/tiles/terrain/{z}/{x}/{y}.png',
    minzoom: 0,
    maxzoom: terrainDataZoom(store.grids),
  }));
