/**
 * Symbol layers: text labels (point and along lines) and sprite icons. Placement runs over every
 * tile of the canvas at once, layers from the top of the style down (as MapLibre gives the upper
 * layers priority), features by `symbol-sort-key`; a symbol overlapping one placed before it is
 * dropped. Anchors outside their own tile are skipped: the neighbouring tile carries that feature too.
 */
import { createCanvas, type Canvas, type Image } from '@napi-rs/canvas';
import type { VectorTileFeature } from '@mapbox/vector-tile';
import type { Color, Formatted, ResolvedImage } from '@maplibre/maplibre-gl-style-spec';
import type { SpriteIcon, SpriteSheet } from './assets.js';
import { fontFamily } from './assets.js';
import type { CollisionGrid, Box } from './collision.js';
import { css, type DrawContext } from './features.js';
import { MeasuredLine, type PathPoint } from './line-path.js';
import { textWidth } from './text-widths.js';
import type { CompiledLayer } from './style-layers.js';
import { LINE, POINT, type PlacedTile, type Rings, type TileFeature } from './tile-source.js';

interface TextStyle {
  font: string;
  size: number;
  color: string;
  haloColor: string;
  haloWidth: number;
  opacity: number;
}

interface IconDraw {
  icon: SpriteIcon;
  /** The icon's pixels: a tinted copy of an SDF icon, else the sprite sheet at the icon's rectangle. */
  image: Canvas | Image;
  sx: number;
  sy: number;
  x: number;
  y: number;
  scale: number;
  rotation: number;
  opacity: number;
}

/** What one placed symbol draws: text runs (each glyph or line at a point and angle) and an icon. */
export interface PlacedSymbol {
  text: { style: TextStyle; runs: { text: string; x: number; y: number; angle: number; align: TextAlign }[] } | null;
  icon: IconDraw | null;
}

/** Everything the placement of one layer needs. */
interface SymbolContext {
  draw: DrawContext;
  layer: CompiledLayer;
  grid: CollisionGrid;
  sprites: SpriteSheet | null;
}

type TextAlign = 'left' | 'right' | 'center';

const ANCHOR_X: Record<string, number> = { left: 0, right: -1, 'top-left': 0, 'bottom-left': 0, 'top-right': -1, 'bottom-right': -1 };
const ANCHOR_Y: Record<string, number> = { top: 0, bottom: -1, 'top-left': 0, 'top-right': 0, 'bottom-left': -1, 'bottom-right': -1 };
/** SDF icons tinted per colour, kept per thread. */
const tinted = new Map<string, Canvas>();

function textOf(layer: CompiledLayer, zoom: number, feature: VectorTileFeature): string {
  const field = layer.property<Formatted | string | undefined>('text-field', zoom)(feature);
  let text = field === undefined ? '' : field.toString().trim();
  const transform = layer.property<string>('text-transform', zoom)(feature);
  if (transform === 'uppercase') text = text.toUpperCase();
  else if (transform === 'lowercase') text = text.toLowerCase();
  return text;
}

/** Lines of at most `maxWidth` pixels, broken at spaces, and at every line break of the text (as MapLibre does). */
function wrap(ctx: DrawContext['ctx'], font: string, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && textWidth(ctx, font, candidate) > maxWidth) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** The sprite icon tinted with `color` (SDF icons are single-colour masks). */
function tint(sheet: SpriteSheet, name: string, icon: SpriteIcon, color: string): Canvas {
  const key = `${name}|${icon.pixelRatio}|${color}`;
  let canvas = tinted.get(key);
  if (canvas === undefined) {
    canvas = createCanvas(icon.width, icon.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(sheet.image, icon.x, icon.y, icon.width, icon.height, 0, 0, icon.width, icon.height);
    ctx.globalCompositeOperation = 'source-in';
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, icon.width, icon.height);
    tinted.set(key, canvas);
  }
  return canvas;
}

function iconFor(sc: SymbolContext, feature: VectorTileFeature, x: number, y: number, rotation: number): IconDraw | null {
  const { draw, layer, sprites } = sc;
  // A constant icon-image stays the style's string; an expression yields a ResolvedImage.
  const image = layer.property<ResolvedImage | string | null | undefined>('icon-image', draw.zoom)(feature);
  const imageName = typeof image === 'string' ? image : image?.name;
  if (!imageName || sprites === null) return null;
  const name = imageName.replace(/^[^:]+:/, '');
  const icon = sprites.icons[name];
  if (icon === undefined) return null; // an icon the sheet lacks is not drawn, as in MapLibre
  const color = css(layer.property<Color>('icon-color', draw.zoom)(feature));
  const scale = (layer.property<number>('icon-size', draw.zoom)(feature) * draw.pixelRatio) / icon.pixelRatio;
  const rotate = (layer.property<number>('icon-rotate', draw.zoom)(feature) * Math.PI) / 180;
  return {
    icon,
    ...(icon.sdf ? { image: tint(sprites, name, icon, color), sx: 0, sy: 0 } : { image: sprites.image, sx: icon.x, sy: icon.y }),
    x,
    y,
    scale,
    rotation: rotation + rotate,
    opacity: layer.property<number>('icon-opacity', draw.zoom)(feature),
  };
}

function iconBox(icon: IconDraw, padding: number): Box {
  const half = (Math.max(icon.icon.width, icon.icon.height) * icon.scale) / 2 + padding;
  return { x0: icon.x - half, y0: icon.y - half, x1: icon.x + half, y1: icon.y + half };
}

function textStyle(sc: SymbolContext, feature: VectorTileFeature): TextStyle {
  const { draw, layer } = sc;
  const size = layer.property<number>('text-size', draw.zoom)(feature) * draw.pixelRatio;
  const stack = layer.property<string[]>('text-font', draw.zoom)(feature);
  return {
    font: `${size}px "${fontFamily(stack)}"`,
    size,
    color: css(layer.property<Color>('text-color', draw.zoom)(feature)),
    haloColor: css(layer.property<Color>('text-halo-color', draw.zoom)(feature)),
    haloWidth: layer.property<number>('text-halo-width', draw.zoom)(feature) * draw.pixelRatio,
    opacity: layer.property<number>('text-opacity', draw.zoom)(feature),
  };
}

/** A point label (with its icon) at an anchor: wrapped lines placed by text-anchor and text-offset. */
function pointSymbol(
  sc: SymbolContext,
  feature: VectorTileFeature,
  text: string,
  anchor: { x: number; y: number },
): { symbol: PlacedSymbol; boxes: Box[] } | null {
  const { draw, layer } = sc;
  const boxes: Box[] = [];
  const icon = iconFor(sc, feature, anchor.x, anchor.y, 0);
  if (icon !== null) boxes.push(iconBox(icon, layer.property<number>('icon-padding', draw.zoom)(feature) * draw.pixelRatio));
  if (text === '') return icon === null ? null : { symbol: { text: null, icon }, boxes };
  const style = textStyle(sc, feature);
  const lines = wrap(draw.ctx, style.font, text, layer.property<number>('text-max-width', draw.zoom)(feature) * style.size);
  const lineHeight = layer.property<number>('text-line-height', draw.zoom)(feature) * style.size;
  const width = Math.max(...lines.map((line) => textWidth(draw.ctx, style.font, line)));
  const height = lines.length * lineHeight;
  const anchorName = layer.property<string>('text-anchor', draw.zoom)(feature);
  const [ox, oy] = layer.property<number[]>('text-offset', draw.zoom)(feature);
  const left = anchor.x + (ANCHOR_X[anchorName] ?? -0.5) * width + ox! * style.size;
  const top = anchor.y + (ANCHOR_Y[anchorName] ?? -0.5) * height + oy! * style.size;
  const padding = layer.property<number>('text-padding', draw.zoom)(feature) * draw.pixelRatio;
  boxes.push({ x0: left - padding, y0: top - padding, x1: left + width + padding, y1: top + height + padding });
  const justify = anchorName.endsWith('left') ? 'left' : anchorName.endsWith('right') ? 'right' : 'center';
  const x = justify === 'left' ? left : justify === 'right' ? left + width : left + width / 2;
  const runs = lines.map((line, i) => ({ text: line, x, y: top + (i + 0.5) * lineHeight, angle: 0, align: justify as TextAlign }));
  return { symbol: { text: { style, runs }, icon }, boxes };
}

/** A label whose glyphs follow the line around `centre` (a distance along it), kept upright; null where it turns too sharply. */
function curvedText(
  sc: SymbolContext,
  style: TextStyle,
  text: string,
  line: MeasuredLine,
  centre: number,
): { runs: NonNullable<PlacedSymbol['text']>['runs']; boxes: Box[] } | null {
  const { ctx } = sc.draw;
  const glyphs = [...text];
  const widths = glyphs.map((g) => textWidth(ctx, style.font, g));
  const total = widths.reduce((a, b) => a + b, 0);
  if (total > line.length) return null;
  // Read left to right: walk the line the other way when it points leftwards at the label.
  const mid = line.at(centre);
  const path = Math.cos(mid.angle) < 0 ? line.reversed() : line;
  const start = (path === line ? centre : line.length - centre) - total / 2;
  const maxAngle = (sc.layer.property<number>('text-max-angle', sc.draw.zoom)() * Math.PI) / 180;
  const runs: NonNullable<PlacedSymbol['text']>['runs'] = [];
  const boxes: Box[] = [];
  let along = start;
  let previous: PathPoint | null = null;
  for (let i = 0; i < glyphs.length; i++) {
    const point = path.at(along + widths[i]! / 2);
    if (previous !== null) {
      const turn = Math.abs(Math.atan2(Math.sin(point.angle - previous.angle), Math.cos(point.angle - previous.angle)));
      if (turn > maxAngle) return null;
    }
    previous = point;
    runs.push({ text: glyphs[i]!, x: point.x, y: point.y, angle: point.angle, align: 'center' });
    // A glyph's box is about its x-height around the baseline middle, as tight as MapLibre's collision circles.
    const half = style.size * 0.35;
    boxes.push({ x0: point.x - half, y0: point.y - half, x1: point.x + half, y1: point.y + half });
    along += widths[i]!;
  }
  return { runs, boxes };
}

/** Symbols along a line: at its middle (`line-center`) or every `symbol-spacing` pixels (`line`). */
function lineSymbols(
  sc: SymbolContext,
  feature: VectorTileFeature,
  text: string,
  tile: PlacedTile,
  points: { x: number; y: number }[],
): { symbol: PlacedSymbol; boxes: Box[] }[] {
  const { draw, layer } = sc;
  const line = new MeasuredLine(points);
  const placement = layer.property<string>('symbol-placement', draw.zoom)(feature);
  const spacing = Math.max(1, layer.property<number>('symbol-spacing', draw.zoom)(feature) * draw.pixelRatio);
  const style = text === '' ? null : textStyle(sc, feature);
  // Every `spacing` pixels where the whole label fits on the line; a line too short for that gets one at its middle.
  const half = style === null ? 0 : textWidth(draw.ctx, style.font, text) / 2;
  const centres: number[] = [];
  if (placement === 'line')
    for (let d = spacing / 2; d < line.length; d += spacing) if (d >= half && d + half <= line.length) centres.push(d);
  if (centres.length === 0) centres.push(line.length / 2);
  const found: { symbol: PlacedSymbol; boxes: Box[] }[] = [];
  for (const centre of centres) {
    const anchor = line.at(centre);
    if (!insideTile(tile, anchor)) continue;
    if (style === null) {
      const icon = iconFor(sc, feature, anchor.x, anchor.y, anchor.angle);
      if (icon !== null)
        found.push({
          symbol: { text: null, icon },
          boxes: [iconBox(icon, layer.property<number>('icon-padding', draw.zoom)(feature) * draw.pixelRatio)],
        });
      continue;
    }
    const curved = curvedText(sc, style, text, line, centre);
    if (curved !== null) found.push({ symbol: { text: { style, runs: curved.runs }, icon: null }, boxes: curved.boxes });
  }
  return found;
}

const insideTile = (tile: PlacedTile, p: { x: number; y: number }): boolean =>
  p.x >= tile.left && p.x < tile.left + tile.size && p.y >= tile.top && p.y < tile.top + tile.size;

/** The anchor of a point placement: the point itself, or the middle of a polygon's outer ring's bounds. */
function pointAnchors(feature: VectorTileFeature, rings: Rings): { x: number; y: number }[] {
  if (feature.type === POINT) return rings.flat();
  const ring = rings[0] ?? [];
  if (ring.length === 0) return [];
  if (feature.type === LINE) {
    const line = new MeasuredLine(ring);
    return [line.at(line.length / 2)];
  }
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  return [{ x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 }];
}

/** Places a symbol layer's features over all tiles; returns what to draw, in drawing order. */
export function placeSymbols(
  draw: DrawContext,
  layer: CompiledLayer,
  tiles: readonly PlacedTile[],
  grid: CollisionGrid,
  sprites: SpriteSheet | null,
): PlacedSymbol[] {
  const sc: SymbolContext = { draw, layer, grid, sprites };
  const sortKey = layer.property<number | undefined>('symbol-sort-key', draw.zoom);
  const candidates: { tile: PlacedTile; decoded: TileFeature; key: number }[] = [];
  for (const tile of tiles) {
    for (const decoded of tile.passing(layer)) candidates.push({ tile, decoded, key: sortKey(decoded.feature) ?? 0 });
  }
  candidates.sort((a, b) => a.key - b.key);
  const allowOverlap =
    layer.property<boolean>('text-allow-overlap', draw.zoom)() || layer.property<boolean>('icon-allow-overlap', draw.zoom)();
  const ignorePlacement =
    layer.property<boolean>('text-ignore-placement', draw.zoom)() && layer.property<boolean>('icon-ignore-placement', draw.zoom)();
  const placed: PlacedSymbol[] = [];
  for (const { tile, decoded } of candidates) {
    const { feature } = decoded;
    const text = textOf(layer, draw.zoom, feature);
    const rings = decoded.rings();
    const placement = layer.property<string>('symbol-placement', draw.zoom)(feature);
    const found =
      placement !== 'point' && feature.type === LINE
        ? rings.flatMap((ring) => lineSymbols(sc, feature, text, tile, ring))
        : pointAnchors(feature, rings)
            .filter((anchor) => insideTile(tile, anchor))
            .flatMap((anchor) => pointSymbol(sc, feature, text, anchor) ?? []);
    for (const { symbol, boxes } of found) {
      if (!allowOverlap && grid.collides(boxes)) continue;
      if (!ignorePlacement) grid.insert(boxes);
      placed.push(symbol);
    }
  }
  return placed;
}

export function drawSymbols(draw: DrawContext, placed: readonly PlacedSymbol[]): void {
  const { ctx } = draw;
  for (const { icon, text } of placed) {
    if (icon !== null) {
      ctx.save();
      ctx.globalAlpha = icon.opacity;
      ctx.translate(icon.x, icon.y);
      ctx.rotate(icon.rotation);
      const w = icon.icon.width * icon.scale;
      const h = icon.icon.height * icon.scale;
      ctx.drawImage(icon.image, icon.sx, icon.sy, icon.icon.width, icon.icon.height, -w / 2, -h / 2, w, h);
      ctx.restore();
    }
    if (text === null) continue;
    const { style, runs } = text;
    ctx.font = style.font;
    ctx.textBaseline = 'middle';
    ctx.globalAlpha = style.opacity;
    ctx.lineJoin = 'round';
    for (const run of runs) {
      ctx.save();
      ctx.translate(run.x, run.y);
      if (run.angle !== 0) ctx.rotate(run.angle);
      ctx.textAlign = run.align;
      if (style.haloWidth > 0) {
        ctx.strokeStyle = style.haloColor;
        ctx.lineWidth = style.haloWidth * 2;
        ctx.strokeText(run.text, 0, 0);
      }
      ctx.fillStyle = style.color;
      ctx.fillText(run.text, 0, 0);
      ctx.restore();
    }
  }
  ctx.globalAlpha = 1;
}
