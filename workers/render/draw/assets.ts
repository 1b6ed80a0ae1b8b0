/**
 * What a render thread reads once per dataset and keeps: the MBTiles archive, the sprite sheets
 * (image + index per pixel ratio), and the Noto Sans TTFs the glyphs are made from, registered with
 * Skia so labels use the same faces as the vector maps.
 */
import { GlobalFonts, loadImage, type Image } from '@napi-rs/canvas';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../../core/dataset-layout.js';
import { SPRITE_NAME, spriteFile } from '../../../core/maps/style-catalog.js';
import { FONTS } from '../../../core/maps/fonts.js';
import { MbtilesReader } from '../../../core/maps/mbtiles.js';

export interface SpriteIcon {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio: number;
  sdf?: boolean;
}

export interface SpriteSheet {
  image: Image;
  icons: Record<string, SpriteIcon>;
}

export interface DatasetAssets {
  archive: MbtilesReader;
  /** Sprite sheet by pixel ratio; null where the dataset has none. */
  sprites: Map<number, SpriteSheet | null>;
}

const datasets = new Map<string, DatasetAssets>();

export function datasetAssets(datasetDir: string): DatasetAssets {
  let assets = datasets.get(datasetDir);
  if (assets === undefined) {
    assets = { archive: new MbtilesReader(paths.tiles(datasetDir)), sprites: new Map() };
    datasets.set(datasetDir, assets);
  }
  return assets;
}

/** The dataset's `base` sprite sheet at a pixel ratio, loaded on first use. */
export async function spriteSheet(datasetDir: string, pixelRatio: number): Promise<SpriteSheet | null> {
  const assets = datasetAssets(datasetDir);
  if (!assets.sprites.has(pixelRatio)) {
    const dir = paths.sprites(datasetDir);
    const json = join(dir, spriteFile(SPRITE_NAME, pixelRatio, 'json'));
    const png = join(dir, spriteFile(SPRITE_NAME, pixelRatio, 'png'));
    const sheet =
      existsSync(json) && existsSync(png)
        ? { icons: JSON.parse(readFileSync(json, 'utf8')) as Record<string, SpriteIcon>, image: await loadImage(readFileSync(png)) }
        : null;
    assets.sprites.set(pixelRatio, sheet);
  }
  return assets.sprites.get(pixelRatio)!;
}

/** Canvas font family of each `text-font` name Waymark has a TTF for. */
const FAMILIES = new Map<string, string>();
for (const font of FONTS) {
  const family = `waymark ${font.name}`;
  if (!GlobalFonts.has(family) && !GlobalFonts.registerFromPath(font.ttf, family)) throw new Error(`cannot load the font ${font.ttf}`);
  FAMILIES.set(font.name, family);
}
const FALLBACK_FAMILY = FAMILIES.values().next().value!;

/** The family of the first font of a `text-font` stack Waymark has; an unknown stack draws in the regular face. */
export function fontFamily(stack: readonly string[] | undefined): string {
  for (const name of stack ?? []) {
    const family = FAMILIES.get(name);
    if (family !== undefined) return family;
  }
  return FALLBACK_FAMILY;
}
