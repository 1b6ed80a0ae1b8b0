/**
 * Pictures of a style drawn by MapLibre GL JS in Chromium (on a page of the test server's origin,
 * so MapLibre's module and the API answer same-origin), the raster renderer's job for the same
 * picture, and the comparison of two pictures: the raster renderer is measured against MapLibre.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { Browser } from 'playwright-core';
import type { StaticMapJob } from '../../workers/render/task.js';

export interface MapView {
  center: readonly [number, number];
  zoom: number;
}

export interface MaplibrePicture {
  /** PNG screenshot of the map. */
  picture: Buffer;
  /** The properties of the features drawn by each layer asked for (`queryRenderedFeatures`). */
  rendered: Record<string, Record<string, unknown>[]>;
  /** Page errors, console errors and API answers other than 200 while the map loaded (and moved to this view). */
  problems: string[];
}

/**
 * `style` drawn by MapLibre GL JS at each of `views` in turn, on a `size`-px square, once idle, in
 * Web Mercator (the served style asks for the globe; raster tiles are Mercator). One page and one
 * map for all of them: software WebGL compiles its shaders per page. A map error event rejects.
 */
export async function maplibrePictures(
  browser: Browser,
  serverUrl: string,
  style: StyleSpecification,
  views: readonly MapView[],
  size: number,
  queryLayers: string[] = [],
): Promise<MaplibrePicture[]> {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  let problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/v1/') && response.status() !== 200) problems.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(`${serverUrl}/dashboard/vendor/maplibre-gl/maplibre-gl.css`);
    await page.setContent(
      `<link rel="stylesheet" href="/dashboard/vendor/maplibre-gl/maplibre-gl.css"><style>body{margin:0}</style><div id="map" style="width:${size}px;height:${size}px"></div>`,
    );
    const pictures: MaplibrePicture[] = [];
    for (const view of views) {
      // The style goes as JSON: its full type is too deep for playwright's argument types.
      const rendered = await page.evaluate(
        async ({ styleJson, center, zoom, layers }) => {
          const held = globalThis as unknown as { waymarkMap?: any };
          if (!held.waymarkMap) {
            const maplibre = await import('/dashboard/vendor/maplibre-gl/maplibre-gl.mjs' as string);
            // No fade-in, so every placed label is fully drawn when the map is idle.
            held.waymarkMap = new maplibre.Map({
              container: 'map',
              style: JSON.parse(styleJson),
              center,
              zoom,
              interactive: false,
              attributionControl: false,
              fadeDuration: 0,
            });
          } else {
            held.waymarkMap.jumpTo({ center, zoom });
            held.waymarkMap.triggerRepaint(); // an idle event follows even if nothing moved
          }
          const map = held.waymarkMap;
          return await new Promise<Record<string, Record<string, unknown>[]>>((resolve, reject) => {
            const failed = (event: { error?: Error }) => reject(event.error ?? new Error('map error'));
            map.once('error', failed);
            map.once('idle', () => {
              map.off('error', failed);
              const found: Record<string, Record<string, unknown>[]> = {};
              for (const layer of layers)
                found[layer] = map
                  .queryRenderedFeatures({ layers: [layer] })
                  .map((f: { properties: Record<string, unknown> }) => f.properties);
              resolve(found);
            });
          });
        },
        {
          styleJson: JSON.stringify({ ...style, projection: { type: 'mercator' } }),
          center: [view.center[0], view.center[1]] as [number, number],
          zoom: view.zoom,
          layers: queryLayers,
        },
      );
      pictures.push({ picture: await page.locator('#map').screenshot(), rendered, problems });
      problems = [];
    }
    return pictures;
  } finally {
    await page.close();
  }
}

/** The raster renderer's job for the same picture: a static map of `view`, without overlays nor attribution. */
export function staticMapJob(datasetDir: string, style: StyleSpecification, view: MapView, size: number): StaticMapJob {
  return {
    kind: 'static',
    datasetDir,
    style,
    format: 'png',
    pixelRatio: 1,
    center: [view.center[0], view.center[1]],
    zoom: view.zoom,
    width: size,
    height: size,
    markers: [],
    paths: [],
    attribution: '',
  };
}

/** The RGBA pixels of an encoded picture. */
export async function pixelsOf(encoded: Uint8Array): Promise<Uint8ClampedArray> {
  const image = await loadImage(Buffer.from(encoded));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height).data;
}

/** The mean channel difference (0–1) of two same-sized pictures, and a picture of it: grey where equal, red where they differ. */
export function comparePictures(ours: Uint8ClampedArray, theirs: Uint8ClampedArray, size: number): { mean: number; picture: Buffer } {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const out = ctx.createImageData(size, size);
  let total = 0;
  for (let i = 0; i < ours.length; i += 4) {
    const d = Math.abs(ours[i]! - theirs[i]!) + Math.abs(ours[i + 1]! - theirs[i + 1]!) + Math.abs(ours[i + 2]! - theirs[i + 2]!);
    total += d;
    const grey = (theirs[i]! + theirs[i + 1]! + theirs[i + 2]!) / 12 + 160;
    out.data[i] = Math.min(255, grey + d);
    out.data[i + 1] = out.data[i + 2] = Math.max(0, grey - d);
    out.data[i + 3] = 255;
  }
  ctx.putImageData(out, 0, 0);
  return { mean: total / (3 * 255 * (ours.length / 4)), picture: canvas.toBuffer('image/png') };
}
