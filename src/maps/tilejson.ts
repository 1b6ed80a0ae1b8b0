/**
 * GET /tiles/{tileset}.json — TileJSON 3.0.0 of the served dataset, its tile URL absolute and
 * carrying the caller's key. Bounds are the whole world: the world layer covers every low-zoom tile,
 * and MapLibre requests no tile outside `bounds`. `vector_layers` lists the dataset's layers plus
 * every other Shortbread layer the styles draw (empty in this dataset): MapLibre fires an error
 * event for each style layer whose source layer the TileJSON does not list.
 */
import { TILESET_ID } from '../../core/dataset-layout.js';
import type { VectorLayerInfo } from '../../core/dataset-layout.js';
import { currentDataset, type Dataset, type DatasetHolder } from '../dataset/index.js';
import { json, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { callerKey } from './absolute-urls.js';
import { KEYED_DOCUMENT_CACHE } from './http-caching.js';
import { allReferencedAssets } from '../../core/maps/style-catalog.js';
import { unknownTileset } from './tiles.js';

export const WORLD_BOUNDS = [-180, -85.051129, 180, 85.051129];

/** The dataset's vector layers, then the style-drawn layers it lacks, spanning its zoom range. */
function vectorLayers({ manifest }: Dataset, styleLayers: readonly string[]): VectorLayerInfo[] {
  const layers = [...manifest.vectorLayers];
  for (const id of styleLayers) {
    if (!layers.some((layer) => layer.id === id)) layers.push({ id, minzoom: manifest.minzoom, maxzoom: manifest.maxzoom, fields: {} });
  }
  return layers;
}

export function tileJsonHandler(datasets: DatasetHolder, apiBase: (req: Request) => string): (req: Request) => Reply {
  const styleLayers = allReferencedAssets().sourceLayers;
  return (req) => {
    const { tileset } = req.params;
    if (tileset !== TILESET_ID) throw unknownTileset(tileset!);
    const dataset = currentDataset(datasets);
    const { manifest } = dataset;
    const tileUrl = `${apiBase(req)}/tiles/${TILESET_ID}/{z}/{x}/{y}.pbf?key=${callerKey(req)}`;
    const body = {
      tilejson: '3.0.0',
      name: 'Waymark Shortbread',
      description: 'Shortbread 1.0 vector tiles: Natural Earth and GeoNames worldwide, OpenStreetMap in detail where imported',
      version: manifest.id,
      attribution: manifest.attribution,
      scheme: 'xyz',
      format: 'pbf',
      tiles: [tileUrl],
      minzoom: manifest.minzoom,
      maxzoom: manifest.maxzoom,
      bounds: WORLD_BOUNDS,
      center: manifest.center,
      vector_layers: vectorLayers(dataset, styleLayers),
    };
    return json(200, body, { 'Cache-Control': KEYED_DOCUMENT_CACHE });
  };
}
