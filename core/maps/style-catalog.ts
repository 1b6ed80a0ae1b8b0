/**
 * The map styles Waymark serves: their slugs, the @versatiles/style theme each is generated from,
 * the label languages the Shortbread data carries, and the style documents themselves, generated
 * with placeholder tokens where the absolute base URL and the caller's key go. The asset builder
 * reads the same documents to know which fonts and icons to build.
 */
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { osm } from '@versatiles/style';
import { TILESET_ID } from '../dataset-layout.js';
import { addPeaks } from './peak-layers.js';
import { addTerrain, type TerrainDrawing } from './terrain-layers.js';

/** A @versatiles/style `osm()` theme (`colorful`, `colorful-dark`, `gray`…). */
type Theme = NonNullable<NonNullable<Parameters<typeof osm>[0]>['theme']>;

export interface StyleEntry {
  slug: string;
  name: string;
  theme: Theme;
  /** What it draws from the elevation data, when the dataset has it (terrain-layers.ts). */
  terrain: TerrainDrawing;
  /** Whether it draws the peaks with their elevation (peak-layers.ts; from OSM, with or without elevation data). */
  peaks?: boolean;
}

export const STYLES: readonly StyleEntry[] = [
  { slug: 'light', name: 'Light', theme: 'colorful', terrain: 'none' },
  { slug: 'dark', name: 'Dark', theme: 'colorful-dark', terrain: 'none' },
  { slug: 'gray', name: 'Gray', theme: 'gray', terrain: 'none' },
  { slug: 'natural', name: 'Natural', theme: 'natural', terrain: 'hillshade' },
  { slug: 'outdoors', name: 'Outdoors', theme: 'natural', terrain: 'outdoors', peaks: true },
];

/** `local` draws each feature's own name; the others read Shortbread's `name_en` / `name_de`. */
export const LABEL_LANGUAGES = ['local', 'en', 'de'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** The one sprite sheet the styles use (referenced as `base:<icon>`). */
export const SPRITE_NAME = 'base';

/** File name of a sprite sheet's PNG or JSON at a pixel ratio: `base.png`, `base@2x.json`. */
export const spriteFile = (name: string, pixelRatio: number, extension: 'json' | 'png'): string =>
  `${name}${pixelRatio === 1 ? '' : `@${pixelRatio}x`}.${extension}`;

/** Stand-ins replaced per request: the absolute API base (`https://host/api/v1`) and the key. */
export const BASE_TOKEN = 'https://waymark-base.invalid/api/v1';
export const KEY_TOKEN = 'WAYMARK_KEY_TOKEN';

/**
 * The style document of one slug and language, its URLs holding BASE_TOKEN and KEY_TOKEN; with
 * `elevation` (the dataset has an elevation store), what the style draws from it.
 */
export function styleDocument(entry: StyleEntry, language: LabelLanguage, elevation = false): StyleSpecification {
  const style = osm({
    theme: entry.theme,
    text: { language },
    urls: {
      osm: `${BASE_TOKEN}/tiles/${TILESET_ID}.json?key=${KEY_TOKEN}`,
      glyphsPattern: `${BASE_TOKEN}/fonts/{fontstack}/{range}.pbf?key=${KEY_TOKEN}`,
      sprite: [{ id: SPRITE_NAME, url: `${BASE_TOKEN}/sprites/${SPRITE_NAME}?key=${KEY_TOKEN}` }],
    },
  });
  style.name = `Waymark ${entry.name}`;
  if (entry.peaks) addPeaks(style, SPRITE_NAME, language === 'local' ? 'name' : `name_${language}`);
  if (elevation)
    addTerrain(style, entry.terrain, {
      terrain: `${BASE_TOKEN}/tiles/terrain.json?key=${KEY_TOKEN}`,
      contours: `${BASE_TOKEN}/tiles/contours.json?key=${KEY_TOKEN}`,
    });
  return style;
}

/** Strings found in a style value or expression, depth first. */
function strings(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') found.add(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, found);
}

const ICON_PROPERTIES = ['icon-image'] as const;
const PATTERN_PROPERTIES = ['fill-pattern', 'line-pattern', 'fill-extrusion-pattern', 'background-pattern'] as const;

export interface StyleReferences<T> {
  /** `text-font` names. */
  fonts: T;
  /** Sprite icons, without the `base:` prefix. */
  icons: T;
  /** Vector tile layers (`source-layer`). */
  sourceLayers: T;
}

/** What a style needs from the server: fonts, icons and tile layers. */
export function referencedAssets(style: StyleSpecification): StyleReferences<Set<string>> {
  const fontStrings = new Set<string>();
  const imageStrings = new Set<string>();
  const sourceLayers = new Set<string>();
  for (const layer of style.layers) {
    if ('source-layer' in layer && layer['source-layer']) sourceLayers.add(layer['source-layer']);
    const layout = (layer as { layout?: Record<string, unknown> }).layout ?? {};
    const paint = (layer as { paint?: Record<string, unknown> }).paint ?? {};
    strings(layout['text-font'], fontStrings);
    for (const property of ICON_PROPERTIES) strings(layout[property], imageStrings);
    for (const property of PATTERN_PROPERTIES) strings(paint[property], imageStrings);
  }
  fontStrings.delete('literal');
  const prefix = `${SPRITE_NAME}:`;
  const icons = new Set<string>();
  for (const value of imageStrings) if (value.startsWith(prefix)) icons.add(value.slice(prefix.length));
  return { fonts: fontStrings, icons, sourceLayers };
}

let referenced: StyleReferences<readonly string[]> | undefined;

/**
 * Every font, icon and tile layer any served style uses, in any label language, sorted. Found once
 * per process (the five documents take a few hundred milliseconds to generate): every server the process
 * starts, and the asset build of its imports, read the same answer.
 */
export function allReferencedAssets(): StyleReferences<readonly string[]> {
  referenced ??= findReferencedAssets();
  return referenced;
}

/**
 * One document per style: the label language changes only which name a label reads, never its
 * font, icon or tile layer (test/maps-assets.test.ts holds the served documents of every language
 * to the glyphs, sprites and TileJSON built from these).
 */
function findReferencedAssets(): StyleReferences<string[]> {
  const all: StyleReferences<Set<string>> = { fonts: new Set(), icons: new Set(), sourceLayers: new Set() };
  for (const entry of STYLES) {
    const used = referencedAssets(styleDocument(entry, LABEL_LANGUAGES[0]));
    for (const kind of ['fonts', 'icons', 'sourceLayers'] as const) for (const name of used[kind]) all[kind].add(name);
  }
  return { fonts: [...all.fonts].sort(), icons: [...all.icons].sort(), sourceLayers: [...all.sourceLayers].sort() };
}
