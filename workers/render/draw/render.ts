/**
 * The renderer's entry: draws a style over a viewport of a dataset on a Skia canvas, from the
 * Shortbread tiles and, for the contour layers, the contour tiles. Non-symbol layers are drawn in style order; symbols are placed first, from the top layer down, then drawn in
 * their own layer's turn.
 */
import { existsSync } from 'node:fs';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { paths } from '../../../core/dataset-layout.js';
import { CONTOURS_SOURCE } from '../../../core/maps/terrain-layers.js';
import { CONTOUR_MAX_ZOOM } from '../../../core/terrain/contour-tile.js';
import { datasetAssets, spriteSheet } from './assets.js';
import { CollisionGrid } from './collision.js';
import { drawBackground, drawCircle, drawFill, drawLine, type DrawContext } from './features.js';
import { drawHillshade } from './hillshade.js';
import { compiledLayers, type CompiledLayer } from './style-layers.js';
import { drawSymbols, placeSymbols, type PlacedSymbol } from './symbols.js';
import { contourTile } from './terrain-tile.js';
import { archiveReader, tilesUnder, type PlacedTile } from './tile-source.js';
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
  const layers = compiledLayers(style).filter((layer) => layer.shownAt(viewport.zoom));
  const shortbread = tilesUnder(viewport, archiveReader(datasetAssets(datasetDir).archive));
  // Contour layers read the contour tiles of the dataset's elevation (none without it), drawn only when shown.
  let contours: PlacedTile[] | undefined;
  const tilesOf = (layer: CompiledLayer): PlacedTile[] => {
    if (layer.source !== CONTOURS_SOURCE) return shortbread;
    contours ??= existsSync(paths.elevation(datasetDir))
      ? tilesUnder(viewport, (z, x, y) => contourTile(datasetDir, z, x, y), CONTOUR_MAX_ZOOM)
      : [];
    return contours;
  };
  const sprites = await spriteSheet(datasetDir, viewport.pixelRatio);

  const grid = new CollisionGrid();
  const symbols = new Map<string, PlacedSymbol[]>();
  for (const layer of [...layers].reverse()) {
    if (layer.type === 'symbol') symbols.set(layer.id, placeSymbols(draw, layer, tilesOf(layer), grid, sprites));
  }
  for (const layer of layers) {
    if (layer.type === 'background') drawBackground(draw, layer);
    else if (layer.type === 'hillshade') drawHillshade(draw, layer, viewport, datasetDir);
    else if (layer.type === 'symbol') drawSymbols(draw, symbols.get(layer.id)!);
    else {
      const drawFeatures = layer.type === 'line' ? drawLine : layer.type === 'circle' ? drawCircle : drawFill;
      for (const tile of tilesOf(layer)) drawFeatures(draw, layer, tile);
    }
  }
  return canvas;
}
