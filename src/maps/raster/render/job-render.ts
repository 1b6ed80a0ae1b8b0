/**
 * Answers a RasterJob (src/maps/raster/job.ts): a metatile is drawn once with a buffer around it and
 * cut into its tiles, so labels near tile edges are placed once and never cut; a static map is drawn
 * at its size with its overlays and attribution.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { MetatileJob, RasterAnswer, RasterFormat, RasterJob, StaticMapJob } from '../job.js';
import { drawAttribution, drawOverlays } from '../overlays.js';
import { renderViewport } from './render.js';
import { metatileViewport, projector, staticViewport } from './viewport.js';

/** CSS pixels drawn around a metatile so features and labels crossing its edges are whole. */
const METATILE_BUFFER = 64;

async function encode(canvas: Canvas, format: RasterFormat): Promise<Uint8Array> {
  // The canvas overloads take the format as a literal, hence the three calls.
  const bytes = format === 'png' ? await canvas.encode('png') : format === 'webp' ? await canvas.encode('webp') : await canvas.encode('jpeg');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function renderMetatile(job: MetatileJob): Promise<RasterAnswer> {
  const buffer = METATILE_BUFFER * job.pixelRatio;
  const viewport = metatileViewport(job, buffer);
  const picture = await renderViewport(job.datasetDir, job.style, viewport);
  const side = job.tileSize * job.pixelRatio;
  const across = Math.min(job.metatile, 2 ** job.z);
  const tiles: { x: number; y: number; image: Uint8Array }[] = [];
  for (let row = 0; row < across; row++) {
    for (let column = 0; column < across; column++) {
      const tile = createCanvas(side, side);
      tile.getContext('2d').drawImage(picture, buffer + column * side, buffer + row * side, side, side, 0, 0, side, side);
      tiles.push({ x: job.x + column, y: job.y + row, image: await encode(tile, job.format) });
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
  return { kind: 'static', image: await encode(picture, job.format) };
}

export function renderJob(job: RasterJob): Promise<RasterAnswer> {
  return job.kind === 'metatile' ? renderMetatile(job) : renderStatic(job);
}
