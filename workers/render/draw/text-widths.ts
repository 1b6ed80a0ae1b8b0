/**
 * Text widths as Skia measures them, kept per thread: the same labels and glyphs are measured for
 * many features and renders, and each measurement is a call into the canvas.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';

const widths = new Map<string, number>();
/** Enough for the labels of many renders; past it the cache starts over rather than grow without bound. */
const MAX_WIDTHS = 100_000;

/** The width of `text` in `font` (a CSS font); sets `ctx.font` when it measures. */
export function textWidth(ctx: SKRSContext2D, font: string, text: string): number {
  const key = `${font}\n${text}`;
  let width = widths.get(key);
  if (width === undefined) {
    if (widths.size >= MAX_WIDTHS) widths.clear();
    ctx.font = font;
    width = ctx.measureText(text).width;
    widths.set(key, width);
  }
  return width;
}
