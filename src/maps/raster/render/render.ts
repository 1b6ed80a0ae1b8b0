/**
 * The renderer's entry: draws a style over a viewport of a dataset on a Skia canvas. Non-symbol
 * layers are drawn in style order; symbols are placed first, from the top layer down, then drawn in
 * their own layer's turn.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { datasetAssets, spriteSheet } from './assets.js';
import { CollisionGrid } from './collision.js';
import { drawBackground, drawCircle, drawFill, drawLine, type DrawContext } from './features.js';
import { drawHillshade } from './hillshade.js';
import { compiledLayers } from './style-layers.js';
import { drawSymbols, placeSymbols, type PlacedSymbol } from './symbols.js';
import { tilesUnder } from './tile-source.js';
import type { Viewport } from './viewport.js';

export async function renderViewport(datasetDir: string, style: StyleSpecification, viewport: Viewport): Promise<Canvas> {
  const canvas = createCanvas(viewport.width, viewport.height);
  const draw: DrawContext = {
    ctx: canvas.getContext('2d'),
    zoom: viewport.zoom,
    pixelRatio: viewport.pixelRatio,
    width: viewport.width,
    height: viewport.height,
    buffer: viewport.buffer,
  };
  const tiles = tilesUnder(viewport, datasetAssets(datasetDir).archive);
  const layers = compiledLayers(style).filter((layer) => layer.shownAt(viewport.zoom));
  const sprites = await spriteSheet(datasetDir, viewport.pixelRatio);

  const grid = new CollisionGrid();
  const symbols = new Map<string, PlacedSymbol[]>();
  for (const layer of [...layers].reverse()) {
    if (layer.type === 'symbol') symbols.set(layer.id, placeSymbols(draw, layer, tiles, grid, sprites));
  }
  for (const layer of layers) {
    if (layer.type === 'background') drawBackground(draw, layer);
    else if (layer.type === 'hillshade') drawHillshade(draw, layer, viewport, datasetDir);
    else if (layer.type === 'symbol') drawSymbols(draw, symbols.get(layer.id)!);
    else {
      const drawFeatures = layer.type === 'line' ? drawLine : layer.type === 'circle' ? drawCircle : drawFill;
      for (const tile of tiles) drawFeatures(draw, layer, tile);
    }
  }
  return canvas;
}
