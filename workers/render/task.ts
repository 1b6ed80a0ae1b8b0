/**
 * What the front end asks a raster worker thread (workers/render/thread.ts) to draw, and what it gets
 * back: the one contract between the HTTP side (routes, parameters, caches) and the renderer.
 * Zooms are MapLibre's (a 512-px world at zoom 0), so a 256-px raster tile z/x/y is the area of
 * that tile drawn at zoom z − 1 with pixel ratio 1, and its `@2x` version at pixel ratio 2.
 */
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';

/** The module each thread of the raster pool loads (Piscina runs its default export). */
export const RENDER_THREAD_FILE = new URL('./thread.js', import.meta.url).href;

export type RasterFormat = 'png' | 'webp' | 'jpeg';

/** A marker of a static map: a pin at a point, in a colour, with an optional short label (1–2 characters). */
export interface StaticMarker {
  lon: number;
  lat: number;
  /** CSS colour `#rrggbb`. */
  color: string;
  label?: string;
}

/** A path of a static map: a line through the points, filled when closed and a fill is given. */
export interface StaticPath {
  points: [lon: number, lat: number][];
  /** CSS colours `#rrggbb` or `#rrggbbaa`. */
  color: string;
  fill?: string;
  /** Width in CSS pixels. */
  width: number;
}

interface JobBase {
  /** The dataset folder to read tiles, glyph fonts and sprites from (core/dataset-layout.ts). */
  datasetDir: string;
  /** The style as served for its slug and label language. Its sources and assets are read from `datasetDir`, not fetched. */
  style: StyleSpecification;
  format: RasterFormat;
  /** 1 or 2: device pixels per CSS pixel. */
  pixelRatio: 1 | 2;
}

/**
 * The tiles of one metatile: the `metatile` × `metatile` raster tiles of zoom `z` whose top-left
 * one is (`x`, `y`) (both multiples of `metatile`, clamped to the world at low zooms), drawn as one
 * picture so that labels are placed once across the tiles and cut at no tile edge.
 */
export interface MetatileJob extends JobBase {
  kind: 'metatile';
  z: number;
  x: number;
  y: number;
  metatile: number;
  /** CSS pixels of a tile: 256 (the `.png` tiles; `@2x` has pixelRatio 2). */
  tileSize: 256 | 512;
}

/** A static map: the area around `center` at `zoom`, `width` × `height` CSS pixels, with overlays and the attribution drawn. */
export interface StaticMapJob extends JobBase {
  kind: 'static';
  center: [lon: number, lat: number];
  zoom: number;
  width: number;
  height: number;
  markers: StaticMarker[];
  paths: StaticPath[];
  /** Drawn in the bottom-right corner. */
  attribution: string;
}

/** A terrain tile (src/maps/terrain): the dataset's elevations at the pixels of tile z/x/y, Terrain-RGB encoded, lossless. */
export interface TerrainTileJob {
  kind: 'terrain';
  datasetDir: string;
  z: number;
  x: number;
  y: number;
  format: 'png' | 'webp';
}

/** A contour tile (src/maps/terrain): the isolines of the dataset's elevations over tile z/x/y, a gzipped vector tile. */
export interface ContourTileJob {
  kind: 'contours';
  datasetDir: string;
  z: number;
  x: number;
  y: number;
}

export type RasterJob = MetatileJob | StaticMapJob | TerrainTileJob | ContourTileJob;

/** One encoded raster tile of a metatile. */
export interface RenderedTile {
  x: number;
  y: number;
  image: Uint8Array;
}

export type RasterAnswer =
  | { kind: 'metatile'; tiles: RenderedTile[] }
  | { kind: 'static'; image: Uint8Array }
  | { kind: 'terrain'; image: Uint8Array }
  | { kind: 'contours'; tile: Uint8Array };
