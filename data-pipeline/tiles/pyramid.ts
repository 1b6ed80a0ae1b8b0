/**
 * Cuts and encodes the tiles of one part of the pyramid: the tile `root` and the tiles below it down
 * to `lastZoom`, from features that all lie in (or near) it.
 *
 * Features are grouped by (layer, zoom band) into one geojson-vt index each, because geojson-vt
 * has no per-feature zoom range. The subtree is then walked breadth-first: a tile at zoom z+1 is
 * visited only when its parent held source features of an index that reaches that deep, so empty
 * sea is never cut up. Each tile is encoded (all layers with features there, MVT version 2) and
 * gzipped. After a level its parents are dropped from the indexes, so geojson-vt holds at most two
 * levels of cut geometry besides the source features.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Feature } from 'geojson';
import GeoJSONVT from 'geojson-vt';
import { encodeMvt, type RawLayer } from './mvt-encoder.js';
import type { SpillFeature } from './spill-record.js';
import type { TileAddress } from './tile-space.js';
import { orientRings } from './winding.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

const EXTENT = 4096;

/** A finished tile: gzipped MVT and the hex MD5 of those bytes (the MBTiles writer stores each content once). */
export interface EncodedTile extends TileAddress {
  id: string;
  data: Uint8Array;
}

/** One geojson-vt index: the features of one layer that share a zoom band. */
interface LayerIndex {
  layer: string;
  minzoom: number;
  maxzoom: number;
  vt: GeoJSONVT;
}

/** The part of geojson-vt's tile cache the walk reads (numFeatures), prunes and seeds; `tiles` is public API. */
interface CachedTile {
  numFeatures: number;
  /** The projected features a tile keeps until it is split (geojson-vt's drill-down starts from them). */
  source: unknown[] | null;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}
interface CachedTiles {
  tiles: Record<number, CachedTile | undefined>;
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

/**
 * Makes geojson-vt cut `root` straight from its source features. geojson-vt drills down to a tile
 * from z0, making every ancestor tile on the way (each a pass over all features); a job's features
 * all lie in its root tile, so a stand-in parent of the root holding them, with no bounds to test
 * against, lets it skip those levels and cut the root and its siblings at once.
 */
function startAt(vt: GeoJSONVT, root: TileAddress): void {
  if (root.z === 0) return;
  const tiles = cache(vt).tiles;
  const source = tiles[tileKey(0, 0, 0)]?.source;
  if (!source) return;
  delete tiles[tileKey(0, 0, 0)];
  tiles[tileKey(root.z - 1, root.x >> 1, root.y >> 1)] = {
    numFeatures: source.length,
    source,
    minX: -Infinity,
    maxX: Infinity,
    minY: -Infinity,
    maxY: Infinity,
  };
}

function buildIndexes(features: SpillFeature[], root: TileAddress): LayerIndex[] {
  const groups = new Map<string, { layer: string; minzoom: number; maxzoom: number; features: Feature[] }>();
  for (const feature of features) {
    const key = `${feature.layer}\0${feature.minzoom}\0${feature.maxzoom}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { layer: feature.layer, minzoom: feature.minzoom, maxzoom: feature.maxzoom, features: [] }));
    orientRings(feature.geometry);
    group.features.push({ type: 'Feature', geometry: feature.geometry, properties: feature.properties });
  }
  return [...groups.values()].map((group) => {
    const vt = new GeoJSONVT(
      { type: 'FeatureCollection', features: group.features },
      { maxZoom: TILE_MAX_ZOOM, indexMaxZoom: 0, extent: EXTENT },
    );
    startAt(vt, root);
    return { layer: group.layer, minzoom: group.minzoom, maxzoom: group.maxzoom, vt };
  });
}

/**
 * Whether clipped polygon rings (flat x, y arrays) enclose any area: a tile inside a polygon's hole
 * gets the tile square as exterior and as hole, which draws nothing and is left out.
 */
function hasArea(rings: readonly (Int16Array | Int32Array)[]): boolean {
  let twiceArea = 0;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) twiceArea += ring[j]! * ring[i + 1]! - ring[i]! * ring[j + 1]!;
  }
  return Math.abs(twiceArea) >= 1;
}

/** Encodes one tile: every layer with features here, from every index of that layer. Null when empty. */
function encodeTile(z: number, x: number, y: number, cell: Cell, deeper: LayerIndex[]): EncodedTile | null {
  const layers = new Map<string, RawLayer>();
  for (const index of cell.indexes) {
    const raw = index.vt.getTileRaw(z, x, y); // cut from its parent's source features, into the cache
    const cut = cache(index.vt).tiles[tileKey(z, x, y)];
    if (!raw || !cut || cut.numFeatures === 0) continue;
    if (index.maxzoom > z) deeper.push(index);
    if (z < index.minzoom) continue;
    for (const feature of raw.features) {
      if (feature.type === 3 && !hasArea(feature.geometry)) continue;
      let layer = layers.get(index.layer);
      if (!layer) layers.set(index.layer, (layer = { name: index.layer, features: [] }));
      layer.features.push(feature);
    }
  }
  if (layers.size === 0) return null;
  const data = gzipSync(encodeMvt([...layers.values()], EXTENT));
  return { z, x, y, id: createHash('md5').update(data).digest('hex'), data };
}

/** Drops a finished level's tiles from the indexes' caches. */
function evict(z: number, cells: readonly Cell[]): void {
  for (const cell of cells) {
    const key = tileKey(z, cell.x, cell.y);
    for (const index of cell.indexes) delete cache(index.vt).tiles[key];
  }
}

/** The tiles of `root`'s subtree down to `lastZoom` that hold something, from `features`. */
export function cutPyramid(features: SpillFeature[], root: TileAddress, lastZoom: number): EncodedTile[] {
  const indexes = buildIndexes(features, root);
  features.length = 0; // geojson-vt has its own projected copy; let the GeoJSON go.
  const tiles: EncodedTile[] = [];
  let level: Cell[] = indexes.length > 0 ? [{ x: root.x, y: root.y, indexes }] : [];
  let previousLevel: Cell[] = [];
  for (let z = root.z; z <= lastZoom && level.length > 0; z++) {
    const next: Cell[] = [];
    for (const cell of level) {
      const deeper: LayerIndex[] = [];
      const tile = encodeTile(z, cell.x, cell.y, cell, deeper);
      if (tile) tiles.push(tile);
      if (deeper.length > 0 && z < lastZoom) {
        const x = cell.x * 2;
        const y = cell.y * 2;
        next.push(
          { x, y, indexes: deeper },
          { x: x + 1, y, indexes: deeper },
          { x, y: y + 1, indexes: deeper },
          { x: x + 1, y: y + 1, indexes: deeper },
        );
      }
    }
    if (z > root.z) evict(z - 1, previousLevel);
    for (const index of indexes) cache(index.vt).tileCoords.length = 0;
    previousLevel = level;
    level = next;
  }
  return tiles;
}
