/**
 * The Piscina task of the raster pool: draws a metatile or a static map (src/maps/raster/job.ts).
 * Each thread keeps, per dataset folder, the opened MBTiles archive and sprite sheets, and the
 * compiled styles and tinted icons (src/maps/raster/render/), so only the first job pays for them.
 */
import type { RasterAnswer, RasterJob } from '../src/maps/raster/job.js';
import { renderJob } from '../src/maps/raster/render/job-render.js';

export default function rasterTask(job: RasterJob): Promise<RasterAnswer> {
  return renderJob(job);
}
