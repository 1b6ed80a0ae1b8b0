/**
 * The glyph PBF format MapLibre loads (`glyphs.proto`): one fontstack message with its name, its
 * range ("0-255") and a glyph message per character (id, SDF bitmap with a 3-pixel border, width,
 * height, left, top, advance). Glyph ranges are 256 code points each, 256 ranges in all.
 */
import { PbfWriter } from 'pbf';

export interface SdfGlyph {
  id: number;
  /** (width + 6) × (height + 6) bytes of signed distance; empty for a glyph with no ink (space). */
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

export const RANGE_SIZE = 256;
export const RANGE_COUNT = 256;

/** "512-767" for range 2. */
export const rangeName = (range: number): string => `${range * RANGE_SIZE}-${range * RANGE_SIZE + RANGE_SIZE - 1}`;

function writeGlyph(glyph: SdfGlyph, pbf: PbfWriter): void {
  pbf.writeVarintField(1, glyph.id);
  if (glyph.bitmap.length > 0) pbf.writeBytesField(2, glyph.bitmap);
  pbf.writeVarintField(3, glyph.width);
  pbf.writeVarintField(4, glyph.height);
  pbf.writeSVarintField(5, glyph.left);
  pbf.writeSVarintField(6, glyph.top);
  pbf.writeVarintField(7, glyph.advance);
}

function writeFontstack(stack: { name: string; range: string; glyphs: SdfGlyph[] }, pbf: PbfWriter): void {
  pbf.writeStringField(1, stack.name);
  pbf.writeStringField(2, stack.range);
  for (const glyph of stack.glyphs) pbf.writeMessage(3, writeGlyph, glyph);
}

/** One range of one font as a glyph PBF; no glyphs gives the valid empty answer for that range. */
export function encodeGlyphRange(fontName: string, range: number, glyphs: SdfGlyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, writeFontstack, { name: fontName, range: rangeName(range), glyphs });
  return pbf.finish();
}
