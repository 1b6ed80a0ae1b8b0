/**
 * Non-symbol layers: background, fill, fill-extrusion (flat), line and circle. Features of one
 * layer and tile that share their evaluated paint are drawn as one path, clipped to the tile's kept
 * part of the canvas.
 */
import { Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import type { VectorTileFeature } from '@mapbox/vector-tile';
import type { Color } from '@maplibre/maplibre-gl-style-spec';
import type { CompiledLayer } from './style-layers.js';
import { LINE, POLYGON, type PlacedTile, type Rings } from './tile-source.js';

export interface DrawContext {
  ctx: SKRSContext2D;
  zoom: number;
  pixelRatio: number;
  width: number;
  height: number;
  /** Device pixels on each side of the canvas that are cut away (viewport.ts). */
  buffer: number;
}

export const css = (color: Color | undefined): string => (color === undefined ? 'rgba(0,0,0,0)' : color.toString());

function addRings(path: Path2D, rings: Rings, close: boolean): void {
  for (const ring of rings) {
    ring.forEach((p, i) => (i === 0 ? path.moveTo(p.x, p.y) : path.lineTo(p.x, p.y)));
    if (close) path.closePath();
  }
}

type Group<S> = { paint: S; path: Path2D };

/**
 * The layer's features of geometry type `type` in the tile, grouped by a key of their paint (a group
 * draws as one path). The paint is evaluated once per feature signature (feature-signatures.ts).
 */
function groups<S>(layer: CompiledLayer, tile: PlacedTile, paintOf: (f: VectorTileFeature) => S, type: number): Map<string, Group<S>> {
  const found = new Map<string, Group<S>>();
  const bySignature = new Map<number, Group<S>>();
  for (const decoded of tile.passing(layer)) {
    const { feature, signature } = decoded;
    if (feature.type !== type) continue;
    let group = bySignature.get(signature);
    if (group === undefined) {
      const paint = paintOf(feature);
      const key = Object.values(paint as object).join('|');
      group = found.get(key);
      if (group === undefined) found.set(key, (group = { paint, path: new Path2D() }));
      bySignature.set(signature, group);
    }
    addRings(group.path, decoded.rings(), type === POLYGON);
  }
  return found;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The tile's part of the canvas that is kept (not in the buffer), on whole device pixels; null
 * where there is none. A tile's edge mostly falls inside a pixel: clipped there, each of the two
 * tiles would cover the pixel in part, and their two anti-aliased fills over the land beneath
 * would leave a 1-px seam of land colour in the sea. Rounded, the two tiles share the edge
 * exactly, and each pixel is drawn whole by one of them (their features reach into each other's
 * buffer, so nothing is missing there).
 */
function keptPart({ buffer, width, height }: DrawContext, tile: PlacedTile): Rect | null {
  const rect = {
    left: Math.max(Math.round(tile.left), buffer),
    top: Math.max(Math.round(tile.top), buffer),
    right: Math.min(Math.round(tile.left + tile.size), width - buffer),
    bottom: Math.min(Math.round(tile.top + tile.size), height - buffer),
  };
  return rect.left < rect.right && rect.top < rect.bottom ? rect : null;
}

/**
 * Draws clipped to `rect`: a tile's kept part, so the tiles' overlapping buffers are not drawn twice
 * and nothing is rasterised in the canvas's buffer, which is cut away.
 */
function clipped(draw: DrawContext, { left, top, right, bottom }: Rect, body: () => void): void {
  draw.ctx.save();
  draw.ctx.beginPath();
  draw.ctx.rect(left, top, right - left, bottom - top);
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
  const kept = keptPart(draw, tile);
  if (kept === null) return;
  const found = groups(
    layer,
    tile,
    (f) => ({ color: css(color(f)), opacity: opacity(f), outline: outline ? css(outline(f)) : null }),
    POLYGON,
  );
  if (found.size === 0) return;
  clipped(draw, kept, () => {
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
  const kept = keptPart(draw, tile);
  if (kept === null) return;
  const found = groups(
    layer,
    tile,
    (f) => ({
      color: css(color(f)),
      opacity: opacity(f),
      width: width(f) * draw.pixelRatio,
      cap: cap(f),
      join: join(f),
    }),
    LINE,
  );
  if (found.size === 0) return;
  clipped(draw, kept, () => {
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
  for (const decoded of tile.passing(layer)) {
    const { feature } = decoded;
    const r = radius(feature) * draw.pixelRatio;
    const stroke = strokeWidth(feature) * draw.pixelRatio;
    const fill = css(color(feature));
    const outline = stroke > 0 ? css(strokeColor(feature)) : '';
    draw.ctx.globalAlpha = opacity(feature);
    for (const ring of decoded.rings()) {
      for (const p of ring) {
        draw.ctx.beginPath();
        draw.ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
        draw.ctx.fillStyle = fill;
        draw.ctx.fill();
        if (stroke > 0) {
          draw.ctx.lineWidth = stroke;
          draw.ctx.strokeStyle = outline;
          draw.ctx.stroke();
        }
      }
    }
  }
  draw.ctx.globalAlpha = 1;
}
