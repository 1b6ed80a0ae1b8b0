/**
 * GET /styles/{slug}/tiles.json?lang=&scale=&format= — TileJSON 3.0.0 of a style's raster tiles, its
 * tile URL absolute and carrying the caller's key, so Leaflet and OpenLayers add the layer from it.
 */
import { sanitize } from '../../http/params/compose.js';
import { currentDataset, type DatasetHolder } from '../../dataset/index.js';
import { json, type Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { callerKey } from '../absolute-urls.js';
import { KEYED_DOCUMENT_CACHE } from '../http-caching.js';
import { styleOfSlug } from '../styles.js';
import { WORLD_BOUNDS } from '../tilejson.js';
import { FORMAT_EXTENSIONS, sanitizeFormat, sanitizeScale } from './sanitize/picture.js';
import { sanitizeLang } from './sanitize/style.js';
import { MAX_ZOOM } from './sanitize/view.js';

const tileJsonParameters = { lang: sanitizeLang, scale: sanitizeScale, format: sanitizeFormat };

export function rasterTileJsonHandler(datasets: DatasetHolder, apiBase: (req: Request) => string): (req: Request) => Reply {
  return (req) => {
    const style = styleOfSlug(req.params.slug!);
    const { params } = sanitize(req.query, tileJsonParameters, Object.keys(tileJsonParameters));
    const { manifest } = currentDataset(datasets);
    const extension = FORMAT_EXTENSIONS[params.format];
    const lang = params.lang === 'local' ? '' : `&lang=${params.lang}`;
    const tileUrl = `${apiBase(req)}/styles/${style.slug}/tiles/{z}/{x}/{y}${params.scale === 2 ? '@2x' : ''}.${extension}?key=${callerKey(req)}${lang}`;
    const body = {
      tilejson: '3.0.0',
      name: `Waymark ${style.name} (raster)`,
      version: manifest.id,
      attribution: manifest.attribution,
      scheme: 'xyz',
      format: extension,
      tiles: [tileUrl],
      tileSize: 256,
      minzoom: 0,
      maxzoom: MAX_ZOOM,
      bounds: WORLD_BOUNDS,
      center: manifest.center,
    };
    return json(200, body, { 'Cache-Control': KEYED_DOCUMENT_CACHE });
  };
}
