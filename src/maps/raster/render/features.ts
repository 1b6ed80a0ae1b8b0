/**
 * Non-symbol layers: background, fill, fill-extrusion (flat), line and circle. Features of one
 * layer and tile that share their evaluated paint are drawn as one path, clipped to their tile so
 * the tiles' overlapping buffers are not drawn twice.
 */
import { Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import type { VectorTileFeature } from '@mapbox/vector-tile';
import type { Color } from '@maplibre/maplibre-gl-style-spec';
import type { CompiledLayer } from './style-layers.js';
import type { PlacedTile, Rings } from './tile-source.js';

export interface DrawContext {
  ctx: SKRSContext2D;
  zoom: number;
  pixelRatio: number;
  width: number;
  height: number;
}

export const css = (color: Color | undefined): string => (color === undefined ? 'rgba(0,0,0,0)' : color.toString());

function addRings(path: Path2D, rings: Rings, close: boolean): void {
  for (const ring of rings) {
    ring.forEach((p, i) => (i === 0 ? path.moveTo(p.x, p.y) : path.lineTo(p.x, p.y)));
    if (close) path.closePath();
  }
}

/** Features of the layer in the tile, grouped by a key of their paint (a group draws as one path). */
function groups<S>(draw: DrawContext, layer: CompiledLayer, tile: PlacedTile, paintOf: (f: VectorTileFeature) => S, close: boolean, type: number): Map<string, { paint: S; path: Path2D }> {
  const found = new Map<string, { paint: S; path: Path2D }>();
  for (const decoded of tile.features(layer.sourceLayer)) {
    const { feature } = decoded;
    if (feature.type !== type || !layer.passes(draw.zoom, feature)) continue;
    const paint = paintOf(feature);
    const key = Object.values(paint as object).join('|');
    let group = found.get(key);
    if (group === undefined) found.set(key, (group = { paint, path: new Path2D() }));
    addRings(group.path, decoded.rings(), close);
  }
  return found;
}

function clipped(draw: DrawContext, tile: PlacedTile, body: () => void): void {
  draw.ctx.save();
  draw.ctx.beginPath();
  draw.ctx.rect(tile.left, tile.top, tile.size, tile.size);
  draw.ctx.clip();
  body();
  draw.ctx.restore();
}

export function drawBackground(draw: DrawContext, layer: CompiledLayer): void {
  draw.ctx.globalAlpha = layer.property<number>('background-opacity', draw.zoom)();
  draw.ctx.fillStyle = css(layer.property<Color>('background-color', draw.zoom)());
  draw.ctx.fillRect(0, 0, draw.width, draw.height);
  draw.ctx.globalAlpha = 1;
}

/** fill and fill-extrusion (an extrusion is drawn flat, as its footprint). */
export function drawFill(draw: DrawContext, layer: CompiledLayer, tile: PlacedTile): void {
  const prefix = layer.type === 'fill' ? 'fill' : 'fill-extrusion';
  const color = layer.property<Color>(`${prefix}-color`, draw.zoom);
  const opacity = layer.property<number>(`${prefix}-opacity`, draw.zoom);
  const outline = layer.type === 'fill' && layer.sets('fill-outline-color') ? layer.property<Color>('fill-outline-color', draw.zoom) : null;
  const found = groups(draw, layer, tile, (f) => ({ color: css(color(f)), opacity: opacity(f), outline: outline ? css(outline(f)) : null }), true, 3);
  if (found.size === 0) return;
  clipped(draw, tile, () => {
    for (const { paint, path } of found.values()) {
      draw.ctx.globalAlpha = paint.opacity;
      draw.ctx.fillStyle = paint.color;
      draw.ctx.fill(path);
      if (paint.outline !== null) {
        draw.ctx.strokeStyle = paint.outline;
        draw.ctx.lineWidth = 1;
        draw.ctx.stroke(path);
      }
    }
  });
  draw.ctx.globalAlpha = 1;
}

export function drawLine(draw: DrawContext, layer: CompiledLayer, tile: PlacedTile): void {
  const color = layer.property<Color>('line-color', draw.zoom);
  const opacity = layer.property<number>('line-opacity', draw.zoom);
  const width = layer.property<number>('line-width', draw.zoom);
  const dashes = layer.property<number[] | undefined>('line-dasharray', draw.zoom)();
  const cap = layer.property<'butt' | 'round' | 'square'>('line-cap', draw.zoom);
  const join = layer.property<'bevel' | 'round' | 'miter'>('line-join', draw.zoom);
  const found = groups(draw, layer, tile, (f) => ({
    color: css(color(f)), opacity: opacity(f), width: width(f) * draw.pixelRatio, cap: cap(f), join: join(f),
  }), false, 2);
  if (found.size === 0) return;
  clipped(draw, tile, () => {
    for (const { paint, path } of found.values()) {
      if (paint.width <= 0 || paint.opacity <= 0) continue;
      draw.ctx.globalAlpha = paint.opacity;
      draw.ctx.strokeStyle = paint.color;
      draw.ctx.lineWidth = paint.width;
      draw.ctx.lineCap = paint.cap;
      draw.ctx.lineJoin = paint.join;
      // Dash lengths are in line widths.
      draw.ctx.setLineDash(dashes ? dashes.map((d) => d * paint.width) : []);
      draw.ctx.stroke(path);
    }
  });
  draw.ctx.setLineDash([]);
  draw.ctx.globalAlpha = 1;
}

export function drawCircle(draw: DrawContext, layer: CompiledLayer, tile: PlacedTile): void {
  const radius = layer.property<number>('circle-radius', draw.zoom);
  const color = layer.property<Color>('circle-color', draw.zoom);
  const opacity = layer.property<number>('circle-opacity', draw.zoom);
  const strokeWidth = layer.property<number>('circle-stroke-width', draw.zoom);
  const strokeColor = layer.property<Color>('circle-stroke-color', draw.zoom);
  for (const decoded of tile.features(layer.sourceLayer)) {
    const { feature } = decoded;
    if (!layer.passes(draw.zoom, feature)) continue;
    const r = radius(feature) * draw.pixelRatio;
    const stroke = strokeWidth(feature) * draw.pixelRatio;
    draw.ctx.globalAlpha = opacity(feature);
    for (const ring of decoded.rings()) {
      for (const p of ring) {
        draw.ctx.beginPath();
        draw.ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
        draw.ctx.fillStyle = css(color(feature));
        draw.ctx.fill();
        if (stroke > 0) {
          draw.ctx.lineWidth = stroke;
          draw.ctx.strokeStyle = css(strokeColor(feature));
          draw.ctx.stroke();
        }
      }
    }
  }
  draw.ctx.globalAlpha = 1;
}
