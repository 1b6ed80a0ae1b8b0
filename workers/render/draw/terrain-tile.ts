/**
 * Terrain and contour tiles drawn in a raster thread. A contour tile: the isolines of the tile
 * (core/terrain/contour-tile.ts) in layer `contour`, a feature per elevation with `ele` and
 * `level`, as a gzipped Mapbox Vector Tile. A terrain tile: the elevation store's values at the tile's 512² pixel
 * centres (bilinear), Terrain-RGB encoded; PNG by png.ts, WebP lossless by Skia (quality 100 is
 * its lossless mode), since a rounded colour byte would move the elevation by up to 6,553.6 m.
 * Each thread opens a dataset's store once (the pool is replaced when the dataset is). The raster
 * renderer reads contour tiles here too, for the styles' contour layers.
 */
import { gzipSync } from 'node:zlib';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { createCanvas } from '@napi-rs/canvas';
import { paths } from '../../../core/dataset-layout.js';
import { ElevationStore } from '../../../core/terrain/elevation-store.js';
import { tileAxes } from '../../../core/terrain/sample-axes.js';
import { TERRAIN_TILE_SIZE, terrainRgbPixels, tileOverlaps } from '../../../core/terrain/terrain-rgb.js';
import { CONTOUR_EXTENT, CONTOUR_MIN_ZOOM, contourTileFeatures } from '../../../core/terrain/contour-tile.js';
import type { ContourTileJob, RasterAnswer, TerrainTileJob } from '../task.js';
import { encodePng } from './png.js';

const stores = new Map<string, ElevationStore>();

/** The store of a dataset folder, opened on this thread's first job for it. */
export function threadElevationStore(datasetDir: string): ElevationStore {
  let store = stores.get(datasetDir);
  if (store === undefined) {
    store = ElevationStore.open(paths.elevation(datasetDir));
    stores.set(datasetDir, store);
  }
  return store;
}

export async function renderTerrainTile({ datasetDir, z, x, y, format }: TerrainTileJob): Promise<RasterAnswer> {
  const { lons, lats } = tileAxes(z, x, y, TERRAIN_TILE_SIZE);
  const pixels = terrainRgbPixels(threadElevationStore(datasetDir).sampleGrid(lons, lats));
  const picture = { data: pixels, width: TERRAIN_TILE_SIZE, height: TERRAIN_TILE_SIZE };
  if (format === 'png') return { kind: 'terrain', image: encodePng(picture) };
  const canvas = createCanvas(TERRAIN_TILE_SIZE, TERRAIN_TILE_SIZE);
  const context = canvas.getContext('2d');
  const image = context.createImageData(TERRAIN_TILE_SIZE, TERRAIN_TILE_SIZE);
  image.data.set(pixels);
  context.putImageData(image, 0, 0);
  const bytes = await canvas.encode('webp', 100);
  return { kind: 'terrain', image: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Contour tiles a thread keeps (uncompressed): a metatile's buffer reaches into its neighbours' tiles. */
const MAX_CONTOUR_TILES = 64;
const contourTiles = new Map<string, Uint8Array | null>();

/**
 * Contour tile z/x/y of a dataset as an uncompressed Mapbox Vector Tile, null where it has no line;
 * the last MAX_CONTOUR_TILES are kept, as the raster renderer reads them for several metatiles.
 */
export function contourTile(datasetDir: string, z: number, x: number, y: number): Uint8Array | null {
  const key = `${datasetDir}/${z}/${x}/${y}`;
  const kept = contourTiles.get(key);
  if (kept !== undefined) return kept;
  const store = threadElevationStore(datasetDir);
  // Beyond the elevation's box no line can be drawn: not a grid of samples over nothing (a raster tile elsewhere).
  if (z < CONTOUR_MIN_ZOOM || !tileOverlaps(z, x, y, store.bounds)) return null;
  const features = contourTileFeatures(store, z, x, y).map(({ ele, level, lines }) => ({
    type: 2 as const,
    geometry: lines,
    tags: { ele, level },
  }));
  const layers = { contour: { features } } as unknown as Parameters<typeof fromGeojsonVt>[0];
  const tile = features.length === 0 ? null : fromGeojsonVt(layers, { version: 2, extent: CONTOUR_EXTENT });
  if (contourTiles.size >= MAX_CONTOUR_TILES) contourTiles.delete(contourTiles.keys().next().value!);
  contourTiles.set(key, tile);
  return tile;
}

export function renderContourTile({ datasetDir, z, x, y }: ContourTileJob): RasterAnswer {
  const tile = contourTile(datasetDir, z, x, y);
  // No line: the empty tile, an empty body (as the Shortbread tiles answer one).
  return { kind: 'contours', tile: tile === null ? new Uint8Array(0) : gzipSync(tile) };
}
