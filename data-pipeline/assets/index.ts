/**
 * Builds the style assets of a dataset: SDF glyph ranges for every font the served styles use
 * (`glyphs/<font>/<range>.pbf`) and the sprite sheet of every icon they reference
 * (`sprites/base[@2x].{json,png}`). The import pipeline calls it for each new dataset.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProgressReporter } from '../progress.js';
import { paths } from '../../core/dataset-layout.js';
import { allReferencedAssets, SPRITE_NAME, spriteFile } from '../../core/maps/style-catalog.js';
import { FONTS } from '../../core/maps/fonts.js';
import { rangeName } from '../../core/maps/glyph-pbf.js';
import { buildGlyphRanges, DRAWN_RANGES } from './glyphs.js';
import { iconSource } from './icons.js';
import { buildSpriteSheets } from './sprites.js';

export async function buildStyleAssets(
  datasetDir: string,
  onProgress: ProgressReporter,
): Promise<{ fontstacks: string[]; sprites: string[] }> {
  const { fonts, icons } = allReferencedAssets();

  const glyphsDir = paths.glyphs(datasetDir);
  const total = fonts.length * DRAWN_RANGES;
  onProgress({ phase: 'glyphs', done: 0, total, unit: 'ranges' });
  for (const [i, fontName] of fonts.entries()) {
    const font = FONTS.find((f) => f.name === fontName);
    if (!font) throw new Error(`the styles use the font "${fontName}", which Waymark has no TTF for (core/maps/fonts.ts)`);
    const dir = join(glyphsDir, fontName);
    mkdirSync(dir, { recursive: true });
    for (const [range, pbf] of buildGlyphRanges(font).entries()) writeFileSync(join(dir, `${rangeName(range)}.pbf`), pbf);
    onProgress({ phase: 'glyphs', done: (i + 1) * DRAWN_RANGES, total, unit: 'ranges' });
  }

  onProgress({ phase: 'sprites', done: 0, total: icons.length, unit: 'icons' });
  const spritesDir = paths.sprites(datasetDir);
  mkdirSync(spritesDir, { recursive: true });
  for (const sheet of buildSpriteSheets(icons.map(iconSource))) {
    writeFileSync(join(spritesDir, spriteFile(SPRITE_NAME, sheet.pixelRatio, 'png')), sheet.png);
    writeFileSync(join(spritesDir, spriteFile(SPRITE_NAME, sheet.pixelRatio, 'json')), JSON.stringify(sheet.index));
  }
  onProgress({ phase: 'sprites', done: icons.length, total: icons.length, unit: 'icons' });

  return { fontstacks: [...fonts], sprites: [SPRITE_NAME] };
}
