/**
 * Builds SDF glyph ranges with tiny-sdf (font size 24, buffer 3, radius 8, as MapLibre expects)
 * from TTFs registered in @napi-rs/canvas. Code points U+0000–U+04FF (Latin, Greek, Cyrillic) are
 * drawn, skipping control and unassigned ones; other ranges are served as valid empty PBFs.
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import TinySDF from '@mapbox/tiny-sdf';
import { encodeGlyphRange, RANGE_SIZE, type SdfGlyph } from '../../core/maps/glyph-pbf.js';
import type { FontSource } from '../../core/maps/fonts.js';

/** Ranges 0–4: U+0000–U+04FF. */
export const DRAWN_RANGES = 5;
/** MapLibre's calibration of tiny-sdf's baseline against server glyphs (its glyph_manager.ts). */
const TOP_ADJUSTMENT = 27.5;
const NOT_DRAWN = /^[\p{Cc}\p{Cn}]$/u;

/** tiny-sdf looks for OffscreenCanvas or a DOM; in Node it draws on an @napi-rs/canvas canvas. */
class NodeTinySdf extends TinySDF {
  _createCanvas(size: number) {
    return createCanvas(size, size);
  }
}

function rasterizer(font: FontSource): TinySDF {
  const family = `waymark ${font.name}`;
  if (!GlobalFonts.has(family) && !GlobalFonts.registerFromPath(font.ttf, family)) {
    throw new Error(`cannot load the font ${font.ttf}`);
  }
  return new NodeTinySdf({ fontSize: 24, buffer: 3, radius: 8, cutoff: 0.25, fontFamily: `"${family}"` });
}

/** The glyph PBF of each drawn range of `font`, in range order. */
export function buildGlyphRanges(font: FontSource): Uint8Array[] {
  const sdf = rasterizer(font);
  const ranges: Uint8Array[] = [];
  for (let range = 0; range < DRAWN_RANGES; range++) {
    const glyphs: SdfGlyph[] = [];
    for (let id = range * RANGE_SIZE; id < (range + 1) * RANGE_SIZE; id++) {
      const char = String.fromCodePoint(id);
      if (NOT_DRAWN.test(char)) continue;
      const drawn = sdf.draw(char);
      const inked = drawn.glyphWidth > 0 && drawn.glyphHeight > 0;
      glyphs.push({
        id,
        bitmap: inked ? new Uint8Array(drawn.data.buffer, drawn.data.byteOffset, drawn.data.length) : new Uint8Array(0),
        width: inked ? drawn.glyphWidth : 0,
        height: inked ? drawn.glyphHeight : 0,
        left: drawn.glyphLeft,
        top: Math.round(drawn.glyphTop - TOP_ADJUSTMENT),
        advance: Math.round(drawn.glyphAdvance),
      });
    }
    ranges.push(encodeGlyphRange(font.name, range, glyphs));
  }
  return ranges;
}
