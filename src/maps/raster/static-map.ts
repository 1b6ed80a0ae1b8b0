/**
 * GET /staticmap — one picture of a style around a center and zoom (given, or fitted to a bbox or to
 * the overlays), with markers, paths and the dataset's attribution, rendered in the raster pool.
 * Not cached by the server (the parameter space is unbounded); ETag and 304 spare the transfer.
 */
import type { Dataset } from '../../dataset/index.js';
import { ApiError } from '../../http/errors.js';
import type { Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { staticMapView } from './fit.js';
import { imageAnswer, imageReply } from './image-answer.js';
import type { StaticMapJob } from '../../../workers/render/task.js';
import type { RasterPool } from './pool.js';
import { sanitizeStaticMap } from './sanitize/index.js';
import type { View } from './sanitize/view.js';
import { isSwapped, outsideCoverage } from '../../http/params/coverage.js';
import { renderedStyle } from './style-documents.js';
import type { BBox } from '../../../core/geo/types.js';

/**
 * A `center` outside the dataset's bounds whose swapped point lies inside was written `lng,lat`:
 * a 400 naming the coverage and the swap, where it would have drawn another part of the world.
 */
function checkCenterOrder(view: View, bounds: BBox): void {
  if (view.kind === 'center' && isSwapped(bounds, view.center))
    throw new ApiError(400, `invalid parameter 'center': ${outsideCoverage(bounds, view.center, 'lat,lng')}`);
}

export function staticMapJob(query: URLSearchParams, dataset: Dataset): StaticMapJob {
  const params = sanitizeStaticMap(query);
  checkCenterOrder(params.view, dataset.manifest.bounds);
  const { width, height } = params.size;
  const { center, zoom } = staticMapView(params.view, width, height, params.markers, params.paths);
  return {
    kind: 'static',
    datasetDir: dataset.dir,
    style: renderedStyle(params.style, params.lang, dataset.manifest.elevation !== undefined),
    format: params.format,
    pixelRatio: params.scale,
    center,
    zoom,
    width,
    height,
    markers: params.markers,
    paths: params.paths,
    attribution: dataset.manifest.attribution,
  };
}

export function staticMapHandler(pools: () => { dataset: Dataset; pool: RasterPool }): (req: Request) => Promise<Reply> {
  return async (req) => {
    const { dataset, pool } = pools();
    const job = staticMapJob(req.query, dataset);
    const answer = await pool.run(job);
    if (answer.kind !== 'static') throw new ApiError(500, 'the renderer answered a static map job with another kind of picture');
    return imageReply(req, imageAnswer(answer.image, job.format));
  };
}
