/**
 * Builds a MapLibre sprite sheet at 1× and 2×: icons packed with potpack (positions chosen once at
 * 1× and doubled for 2×), laid out as nested SVGs in one document and rasterized by resvg into a
 * PNG, with the JSON index MapLibre reads (`{name: {x, y, width, height, pixelRatio, sdf}}`).
 */
import { Resvg } from '@resvg/resvg-js';
import potpack from 'potpack';
import type { IconSource } from './icons.js';

export interface SpriteSheet {
  pixelRatio: number;
  png: Buffer;
  index: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number; sdf?: boolean }>;
}

/** Empty pixels around each icon, so linear sampling never bleeds a neighbour in. */
const PADDING = 1;

interface PlacedIcon {
  icon: IconSource;
  w: number;
  h: number;
  x: number;
  y: number;
}

function render(placed: PlacedIcon[], width: number, height: number, pixelRatio: number): SpriteSheet {
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  const index: SpriteSheet['index'] = {};
  for (const { icon, x, y } of placed) {
    const left = x + PADDING;
    const top = y + PADDING;
    svg += `<svg x="${left}" y="${top}" width="${icon.size}" height="${icon.size}" viewBox="${icon.viewBox}">${icon.content}</svg>`;
    index[icon.name] = {
      x: left * pixelRatio,
      y: top * pixelRatio,
      width: icon.size * pixelRatio,
      height: icon.size * pixelRatio,
      pixelRatio,
      ...(icon.sdf ? { sdf: true } : {}),
    };
  }
  svg += '</svg>';
  const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: pixelRatio } }).render().asPng();
  return { pixelRatio, png, index };
}

/** The 1× and 2× sheets holding `icons`. */
export function buildSpriteSheets(icons: IconSource[]): SpriteSheet[] {
  const placed: PlacedIcon[] = icons.map((icon) => ({ icon, w: icon.size + 2 * PADDING, h: icon.size + 2 * PADDING, x: 0, y: 0 }));
  const { w, h } = potpack(placed);
  return [1, 2].map((pixelRatio) => render(placed, w, h, pixelRatio));
}
