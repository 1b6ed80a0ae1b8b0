/**
 * Answers a RasterJob (workers/render/task.ts): a metatile is drawn once with a buffer around it and
 * cut into its tiles, so labels near tile edges are placed once and never cut; a static map is drawn
 * at its size with its overlays and attribution; terrain and contour tiles are drawn from the
 * elevation store (terrain-tile.ts). `renderJob` is the task of the raster pool's
 * threads (pool.ts; Piscina runs a module's default export). Each thread keeps, per dataset folder,
 * the opened MBTiles archive and sprite sheets, and the compiled styles and tinted icons (this
 * folder), so only the first job pays for them.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { MetatileJob, RasterAnswer, RasterFormat, RasterJob, RenderedTile, StaticMapJob } from './task.js';
import { drawAttribution, drawOverlays } from './draw/overlays.js';
import { encodePng } from './draw/png.js';
import { renderViewport } from './draw/render.js';
import { renderContourTile, renderTerrainTile } from './draw/terrain-tile.js';
import { metatileViewport, projector, staticViewport } from './draw/viewport.js';

/** CSS pixels drawn around a metatile so features and labels crossing its edges are whole. */
const METATILE_BUFFER = 64;

interface Area {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** An area of the canvas, encoded: PNG by png.ts (much faster than Skia's encoder), WebP and JPEG by Skia. */
async function encodeArea(canvas: Canvas, { left, top, width, height }: Area, format: RasterFormat): Promise<Uint8Array> {
  if (format === 'png') return encodePng(canvas.getContext('2d').getImageData(left, top, width, height));
  const area = createCanvas(width, height);
  area.getContext('2d').drawImage(canvas, left, top, width, height, 0, 0, width, height);
  // The canvas overloads take the format as a literal, hence the two calls.
  const bytes = format === 'webp' ? await area.encode('webp') : await area.encode('jpeg');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function renderMetatile(job: MetatileJob): Promise<RasterAnswer> {
  const buffer = METATILE_BUFFER * job.pixelRatio;
  const viewport = metatileViewport(job, buffer);
  const picture = await renderViewport(job.datasetDir, job.style, viewport);
  const side = job.tileSize * job.pixelRatio;
  const across = Math.min(job.metatile, 2 ** job.z);
  const tiles: RenderedTile[] = [];
  for (let row = 0; row < across; row++) {
    for (let column = 0; column < across; column++) {
      const area = { left: buffer + column * side, top: buffer + row * side, width: side, height: side };
      tiles.push({ x: job.x + column, y: job.y + row, image: await encodeArea(picture, area, job.format) });
    }
  }
  return { kind: 'metatile', tiles };
}

async function renderStatic(job: StaticMapJob): Promise<RasterAnswer> {
  const viewport = staticViewport(job);
  const picture = await renderViewport(job.datasetDir, job.style, viewport);
  const ctx = picture.getContext('2d');
  drawOverlays(ctx, projector(viewport), job);
  drawAttribution(ctx, job.attribution, job.width, job.height, job.pixelRatio);
  return {
    kind: 'static',
    image: await encodeArea(picture, { left: 0, top: 0, width: picture.width, height: picture.height }, job.format),
  };
}

export function renderJob(job: RasterJob): Promise<RasterAnswer> {
  if (job.kind === 'terrain') return renderTerrainTile(job);
  if (job.kind === 'contours') return Promise.resolve(renderContourTile(job));
  return job.kind === 'metatile' ? renderMetatile(job) : renderStatic(job);
}

/** The task of the raster pool's threads (Piscina runs a module's default export). */
export default renderJob;
