/**
 * Turns a stream of TileFeatures into an MBTiles archive of Mapbox Vector Tiles, z0–14.
 *
 * Features are grouped by (layer, zoom band) into one geojson-vt index each, because geojson-vt
 * has no per-feature zoom range. The pyramid is then walked breadth-first: a tile at zoom z+1 is
 * visited only when its parent held source features of an index that reaches that deep, so empty
 * ocean far from any data is never cut up. Each level's tiles are encoded (all layers with features
 * there, MVT version 2), gzipped and handed to the writer, which stores identical tiles once. After a
 * level, its parents are dropped from the indexes, so geojson-vt holds at most two levels of cut
 * geometry besides the source features (see docs/DATA-PIPELINE.md for the memory this takes).
 */
import { gzipSync } from 'node:zlib';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature } from 'geojson';
import GeoJSONVT, { type LegacyFeature } from 'geojson-vt';
import { throwIfAborted } from '../abort.js';
import type { VectorLayerInfo } from '../../core/dataset-layout.js';
import type { FeatureValue, ProgressReporter, TileFeature } from '../features.js';
import { MbtilesWriter } from './mbtiles-writer.js';
import { orientRings } from './winding.js';

export const MAX_ZOOM = 14;
const EXTENT = 4096;
/** How long the walk may hold the event loop before letting other work (a server's requests) run. */
const YIELD_EVERY_MS = 25;
const READ_PROGRESS_EVERY = 50_000;

export interface TilesetMetadata {
  name: string;
  description: string;
  attribution: string;
  /** [west, south, east, north] */
  bounds: [number, number, number, number];
  /** [lon, lat, zoom] */
  center: [number, number, number];
  /** The `vector_layers` to publish; derived from the features written when not given. */
  vectorLayers?: VectorLayerInfo[];
}

export interface TilerOptions {
  metadata: TilesetMetadata;
  /** Deepest zoom to build (default 14); lower in tests. */
  maxzoom?: number;
  signal?: AbortSignal;
}

export interface TilerResult {
  /** Tiles in the archive, and distinct tile contents among them. */
  tiles: number;
  images: number;
  /** The vector layers as written (layer ids, zoom ranges, attribute types). */
  layers: VectorLayerInfo[];
}

/** One geojson-vt index: the features of one layer that share a zoom band. */
interface LayerIndex {
  layer: string;
  minzoom: number;
  maxzoom: number;
  vt: GeoJSONVT;
}

/** The part of geojson-vt's tile cache the walk reads (numFeatures) and prunes; `tiles` is public API. */
interface CachedTiles {
  tiles: Record<number, { numFeatures: number } | undefined>;
  tileCoords: unknown[];
}
const cache = (vt: GeoJSONVT) => vt as unknown as CachedTiles;
/** geojson-vt's key for a tile in its cache. */
const tileKey = (z: number, x: number, y: number) => ((1 << z) * y + x) * 32 + z;

/** A tile to visit, with the indexes whose source features reached its parent. */
interface Cell {
  x: number;
  y: number;
  indexes: LayerIndex[];
}

interface Group {
  layer: string;
  minzoom: number;
  maxzoom: number;
  features: Feature[];
}

const fieldType = (value: FeatureValue) => (typeof value === 'number' ? 'Number' : typeof value === 'boolean' ? 'Boolean' : 'String');

/** Reads every feature into per-(layer, zoom band) groups and records each layer's zooms and fields. */
async function groupFeatures(
  features: AsyncIterable<TileFeature>,
  maxzoom: number,
  onProgress: ProgressReporter,
  signal: AbortSignal | undefined,
): Promise<{ groups: Group[]; layers: Map<string, VectorLayerInfo> }> {
  const groups = new Map<string, Group>();
  const layers = new Map<string, VectorLayerInfo>();
  let count = 0;
  onProgress({ phase: 'reading features', done: 0, total: null, unit: 'features' });
  for await (const feature of features) {
    const minzoom = Math.max(0, feature.minzoom);
    const top = Math.min(maxzoom, feature.maxzoom);
    if (minzoom > top) continue;
    const key = `${feature.layer}\0${minzoom}\0${top}`;
    let group = groups.get(key);
    if (!group) {
      group = { layer: feature.layer, minzoom, maxzoom: top, features: [] };
      groups.set(key, group);
    }
    orientRings(feature.geometry);
    group.features.push({ type: 'Feature', geometry: feature.geometry, properties: feature.properties });

    let info = layers.get(feature.layer);
    if (!info) {
      info = { id: feature.layer, minzoom, maxzoom: top, fields: {} };
      layers.set(feature.layer, info);
    }
    if (minzoom < info.minzoom) info.minzoom = minzoom;
    if (top > info.maxzoom) info.maxzoom = top;
    for (const name in feature.properties) info.fields[name] ??= fieldType(feature.properties[name]!);

    if (++count % READ_PROGRESS_EVERY === 0) {
      onProgress({ phase: 'reading features', done: count, total: null, unit: 'features' });
      throwIfAborted(signal);
    }
  }
  onProgress({ phase: 'reading features', done: count, total: count, unit: 'features' });
  return { groups: [...groups.values()], layers };
}

function buildIndexes(groups: Group[], onProgress: ProgressReporter, signal: AbortSignal | undefined): LayerIndex[] {
  const indexes: LayerIndex[] = [];
  for (let i = 0; i < groups.length; i++) {
    onProgress({ phase: 'indexing', done: i, total: groups.length, unit: 'layers' });
    throwIfAborted(signal);
    const group = groups[i]!;
    const vt = new GeoJSONVT(
      { type: 'FeatureCollection', features: group.features },
      { maxZoom: MAX_ZOOM, indexMaxZoom: 0, extent: EXTENT },
    );
    group.features = []; // geojson-vt has its own projected copy; let the GeoJSON go.
    indexes.push({ layer: group.layer, minzoom: group.minzoom, maxzoom: group.maxzoom, vt });
  }
  onProgress({ phase: 'indexing', done: groups.length, total: groups.length, unit: 'layers' });
  return indexes;
}

/**
 * Whether clipped polygon rings enclose any area: a tile inside a polygon's hole gets the tile square
 * as exterior and as hole, which draws nothing and is left out.
 */
function hasArea(rings: readonly (readonly [number, number][])[]): boolean {
  let twiceArea = 0;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) twiceArea += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  }
  return Math.abs(twiceArea) >= 1;
}

/** Encodes one tile: every layer with features here, from every index of that layer. Null when empty. */
function encodeTile(z: number, x: number, y: number, cell: Cell, deeper: LayerIndex[]): Buffer | null {
  const layers: Record<string, { features: LegacyFeature[] }> = {};
  let empty = true;
  for (const index of cell.indexes) {
    index.vt.getTileRaw(z, x, y); // cuts the tile from its parent's source features, into the cache
    const cut = cache(index.vt).tiles[tileKey(z, x, y)];
    if (!cut || cut.numFeatures === 0) continue;
    if (index.maxzoom > z) deeper.push(index);
    if (z < index.minzoom) continue;
    for (const feature of index.vt.getTile(z, x, y)?.features ?? []) {
      if (feature.type === 3 && !hasArea(feature.geometry)) continue;
      (layers[index.layer] ??= { features: [] }).features.push(feature);
      empty = false;
    }
  }
  return empty ? null : gzipSync(fromGeojsonVt(layers, { version: 2, extent: EXTENT }));
}

/** Drops a finished level's tiles from the indexes' caches. */
function evict(z: number, cells: readonly Cell[]): void {
  for (const cell of cells) {
    const key = tileKey(z, cell.x, cell.y);
    for (const index of cell.indexes) delete cache(index.vt).tiles[key];
  }
}

async function walkPyramid(
  indexes: LayerIndex[],
  writer: MbtilesWriter,
  maxzoom: number,
  onProgress: ProgressReporter,
  signal: AbortSignal | undefined,
): Promise<void> {
  let level: Cell[] = indexes.length > 0 ? [{ x: 0, y: 0, indexes }] : [];
  let previousLevel: Cell[] = [];
  for (let z = 0; z <= maxzoom && level.length > 0; z++) {
    const phase = `tiles z${z}`;
    const next: Cell[] = [];
    let lastYield = performance.now();
    onProgress({ phase, done: 0, total: level.length, unit: 'tiles' });
    for (let i = 0; i < level.length; i++) {
      const cell = level[i]!;
      const deeper: LayerIndex[] = [];
      const data = encodeTile(z, cell.x, cell.y, cell, deeper);
      if (data) writer.put(z, cell.x, cell.y, data);
      if (deeper.length > 0 && z < maxzoom) {
        const x = cell.x * 2;
        const y = cell.y * 2;
        next.push({ x, y, indexes: deeper }, { x: x + 1, y, indexes: deeper }, { x, y: y + 1, indexes: deeper }, { x: x + 1, y: y + 1, indexes: deeper });
      }
      if (performance.now() - lastYield > YIELD_EVERY_MS) {
        onProgress({ phase, done: i + 1, total: level.length, unit: 'tiles' });
        await new Promise((resolve) => setImmediate(resolve));
        throwIfAborted(signal);
        lastYield = performance.now();
      }
    }
    onProgress({ phase, done: level.length, total: level.length, unit: 'tiles' });
    if (z > 0) evict(z - 1, previousLevel);
    for (const index of indexes) cache(index.vt).tileCoords.length = 0;
    previousLevel = level;
    level = next;
  }
}

/** Tiles `features` into a new MBTiles file `file` (which must not exist). */
export async function writeTiles(
  features: AsyncIterable<TileFeature>,
  file: string,
  options: TilerOptions,
  onProgress: ProgressReporter,
): Promise<TilerResult> {
  const maxzoom = options.maxzoom ?? MAX_ZOOM;
  const { signal, metadata } = options;
  const { groups, layers } = await groupFeatures(features, maxzoom, onProgress, signal);
  const indexes = buildIndexes(groups, onProgress, signal);
  const writer = new MbtilesWriter(file);
  try {
    await walkPyramid(indexes, writer, maxzoom, onProgress, signal);
    const vectorLayers = metadata.vectorLayers ?? [...layers.values()].sort((a, b) => a.id.localeCompare(b.id));
    writer.finish({
      name: metadata.name,
      description: metadata.description,
      format: 'pbf',
      type: 'baselayer',
      version: '1',
      bounds: metadata.bounds.join(','),
      center: metadata.center.join(','),
      minzoom: '0',
      maxzoom: String(maxzoom),
      attribution: metadata.attribution,
      json: JSON.stringify({ vector_layers: vectorLayers }),
    });
    return { tiles: writer.tiles, images: writer.images, layers: vectorLayers };
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
