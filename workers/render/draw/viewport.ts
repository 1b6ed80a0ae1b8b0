/**
 * The area a job draws, in device pixels of the Web Mercator world at the style zoom (MapLibre's
 * 512-px world at zoom 0): the canvas's top-left world pixel, its size, and the scale between CSS
 * and device pixels.
 */
import type { MetatileJob, StaticMapJob } from '../task.js';
import { worldPixel } from '../../../core/geo/web-mercator.js';

export interface Viewport {
  /** Style zoom (MapLibre's), which expressions are evaluated at. */
  zoom: number;
  pixelRatio: number;
  /** World size in device pixels at `zoom`. */
  worldSize: number;
  /** World pixel of the canvas's top-left corner (device pixels). */
  left: number;
  top: number;
  /** Canvas size in device pixels. */
  width: number;
  height: number;
  /** Device pixels on each side of the canvas that are cut away: drawn only to place labels across them. */
  buffer: number;
}

/**
 * A metatile's tiles plus `buffer` device pixels on every side, so features and labels crossing its
 * edges are drawn whole. A raster tile of `tileSize` CSS pixels at zoom z is the style at zoom
 * z + log2(tileSize / 512).
 */
export function metatileViewport(job: MetatileJob, buffer: number): Viewport {
  const zoom = job.z + Math.log2(job.tileSize / 512);
  const tileDevice = job.tileSize * job.pixelRatio;
  const side = Math.min(job.metatile, 2 ** job.z) * tileDevice;
  return {
    zoom,
    pixelRatio: job.pixelRatio,
    worldSize: 2 ** job.z * tileDevice,
    left: job.x * tileDevice - buffer,
    top: job.y * tileDevice - buffer,
    width: side + 2 * buffer,
    height: side + 2 * buffer,
    buffer,
  };
}

export function staticViewport(job: StaticMapJob): Viewport {
  const worldSize = 512 * 2 ** job.zoom * job.pixelRatio;
  const [cx, cy] = worldPixel(worldSize, job.center[0], job.center[1]);
  const width = Math.round(job.width * job.pixelRatio);
  const height = Math.round(job.height * job.pixelRatio);
  return { zoom: job.zoom, pixelRatio: job.pixelRatio, worldSize, left: cx - width / 2, top: cy - height / 2, width, height, buffer: 0 };
}

/** Canvas pixel of a longitude and latitude in the viewport. */
export function projector(viewport: Viewport): (lon: number, lat: number) => [number, number] {
  return (lon, lat) => {
    const [x, y] = worldPixel(viewport.worldSize, lon, lat);
    return [x - viewport.left, y - viewport.top];
  };
}
