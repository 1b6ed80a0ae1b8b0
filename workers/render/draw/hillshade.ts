/**
 * A `hillshade` style layer drawn by the raster renderer from the dataset's elevation store: the
 * elevations sampled every 2 CSS pixels over the canvas, shaded (core/terrain/hillshade.ts), painted
 * in the layer's shadow and highlight colours with the shade as their opacity, and scaled up
 * smoothly onto the canvas. A dataset without an elevation store draws nothing.
 */
import { existsSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import type { Color } from '@maplibre/maplibre-gl-style-spec';
import { paths } from '../../../core/dataset-layout.js';
import { hillshade } from '../../../core/terrain/hillshade.js';
import { mercatorLat } from '../../../core/terrain/sample-axes.js';
import type { DrawContext } from './features.js';
import type { CompiledLayer } from './style-layers.js';
import { threadElevationStore } from './terrain-tile.js';
import type { Viewport } from './viewport.js';

/** CSS pixels between samples: the DEM's 90 m samples are coarser than that at every zoom hillshade shows. */
const CSS_PIXELS_PER_SAMPLE = 2;
const EARTH_CIRCUMFERENCE = 40_075_016.686;

/** RGBA bytes (0–255, not premultiplied) of a style colour; of the first of a list (the spec's colour arrays, one per light). */
function rgba(value: Color | { values: Color[] } | undefined): [number, number, number, number] {
  const color = value !== undefined && 'values' in value ? value.values[0] : value;
  if (color === undefined || color.a === 0) return [0, 0, 0, 0];
  return [(color.r / color.a) * 255, (color.g / color.a) * 255, (color.b / color.a) * 255, color.a];
}

export function drawHillshade(draw: DrawContext, layer: CompiledLayer, viewport: Viewport, datasetDir: string): void {
  if (!existsSync(paths.elevation(datasetDir))) return;
  const step = CSS_PIXELS_PER_SAMPLE * viewport.pixelRatio;
  const columns = Math.ceil(viewport.width / step) + 1;
  const rows = Math.ceil(viewport.height / step) + 1;
  const lons = Float64Array.from({ length: columns }, (_, c) => ((viewport.left + c * step) / viewport.worldSize) * 360 - 180);
  const lats = Float64Array.from({ length: rows }, (_, r) => mercatorLat((viewport.top + r * step) / viewport.worldSize));
  const values = threadElevationStore(datasetDir).sampleGrid(lons, lats);
  const spacing = Float64Array.from(lats, (lat) => (step / viewport.worldSize) * EARTH_CIRCUMFERENCE * Math.cos((lat * Math.PI) / 180));
  const exaggeration = layer.property<number>('hillshade-exaggeration', draw.zoom)();
  const shade = hillshade(values, columns, rows, spacing, exaggeration);
  const shadow = rgba(layer.property<Color | { values: Color[] }>('hillshade-shadow-color', draw.zoom)());
  const highlight = rgba(layer.property<Color | { values: Color[] }>('hillshade-highlight-color', draw.zoom)());
  const small = createCanvas(columns, rows);
  const context = small.getContext('2d');
  const image = context.createImageData(columns, rows);
  for (let i = 0; i < shade.length; i++) {
    const value = shade[i]!;
    const [r, g, b, a] = value < 0 ? shadow : highlight;
    image.data[4 * i] = r;
    image.data[4 * i + 1] = g;
    image.data[4 * i + 2] = b;
    image.data[4 * i + 3] = Math.abs(value) * a * 255;
  }
  context.putImageData(image, 0, 0);
  // Sample (c, r) lies on canvas pixel (c·step, r·step): the picture is scaled by `step` from there.
  draw.ctx.imageSmoothingEnabled = true;
  draw.ctx.drawImage(small, -step / 2, -step / 2, columns * step, rows * step);
}
