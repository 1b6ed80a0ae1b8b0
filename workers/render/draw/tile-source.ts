/**
 * The vector tiles under a viewport: which tiles of a source cover it (zoom floor(style zoom), at most
 * the source's deepest, 14: deeper zooms draw part of a z14 tile scaled), read — from the dataset's
 * MBTiles (with the world backdrop beyond the world layer's zooms, as the vector tiles are served),
 * or the contour tiles drawn from its elevation store — and decoded, each with where its extent lies on the canvas.
 */
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { gunzipSync } from 'node:zlib';
import type { MbtilesReader } from '../../../core/maps/mbtiles.js';
import { FeatureSignatures } from './feature-signatures.js';
import type { CompiledLayer } from './style-layers.js';
import type { Viewport } from './viewport.js';
import { backdropTiles } from '../../../core/maps/world-backdrop.js';
import { TILE_MAX_ZOOM } from '../../../core/maps/zoom.js';

/** The vector tile geometry types. */
export const POINT = 1;
export const LINE = 2;
export const POLYGON = 3;

export type Rings = { x: number; y: number }[][];

/**
 * A feature of a placed tile, decoded once however many style layers read it, with the number of
 * its signature (feature-signatures.ts).
 */
export class TileFeature {
  private canvasRings: Rings | null = null;

  constructor(
    readonly feature: VectorTileFeature,
    private readonly tile: PlacedTile,
    readonly signature: number,
  ) {}

  /** The geometry in canvas pixels. */
  rings(): Rings {
    if (this.canvasRings === null) {
      const { left, top, size } = this.tile;
      const scale = size / this.feature.extent;
      this.canvasRings = this.feature.loadGeometry().map((ring) => ring.map((p) => ({ x: left + p.x * scale, y: top + p.y * scale })));
    }
    return this.canvasRings;
  }
}

export class PlacedTile {
  private readonly decoded = new Map<string, TileFeature[]>();
  /** Features passing a filter, by the layers' filter key (layers often share a filter, e.g. a road and its casing). */
  private readonly passingByFilter = new Map<string, TileFeature[]>();

  /**
   * `left`, `top`: canvas position of the tile's top-left corner; `size`: its side, in device pixels;
   * `signatures`: shared by the tiles of the render.
   */
  constructor(
    readonly tile: VectorTile,
    readonly left: number,
    readonly top: number,
    readonly size: number,
    private readonly signatures: FeatureSignatures,
  ) {}

  /** The features of the layer's source layer that pass its filter, in tile order. */
  passing(layer: CompiledLayer): TileFeature[] {
    let found = this.passingByFilter.get(layer.filterKey);
    if (found === undefined) {
      const passes = this.signatures.filter(layer);
      found = this.features(layer.sourceLayer).filter(({ feature, signature }) => passes(feature, signature));
      this.passingByFilter.set(layer.filterKey, found);
    }
    return found;
  }

  /** The features of a source layer (none where the tile lacks it). */
  private features(sourceLayer: string | undefined): TileFeature[] {
    const name = sourceLayer ?? '';
    let features = this.decoded.get(name);
    if (features === undefined) {
      const layer = this.tile.layers[name];
      features = [];
      for (let i = 0; i < (layer?.length ?? 0); i++) {
        const feature = layer!.feature(i);
        features.push(new TileFeature(feature, this, this.signatures.of(feature)));
      }
      this.decoded.set(name, features);
    }
    return features;
  }
}

/** A source's vector tile z/x/y as uncompressed Mapbox Vector Tile bytes, null where there is none. */
export type TileReader = (z: number, x: number, y: number) => Uint8Array | null;

/** The dataset's Shortbread tiles, with the world backdrop beyond the world layer's zooms, as the vector tiles are served. */
export function archiveReader(archive: MbtilesReader): TileReader {
  const backdrop = backdropTiles(archive);
  return (z, x, y) => {
    const stored = backdrop.tile(z, x, y);
    return stored === null ? null : gunzipSync(stored.data);
  };
}

/**
 * A source's tiles overlapping the viewport (x wrapped around the antimeridian), each decoded once
 * per call: at floor(zoom), at most `maxZoom` (the source's deepest, drawn scaled beyond).
 */
export function tilesUnder(viewport: Viewport, read: TileReader, maxZoom = TILE_MAX_ZOOM): PlacedTile[] {
  const z = Math.max(0, Math.min(maxZoom, Math.floor(viewport.zoom)));
  const count = 2 ** z;
  const size = viewport.worldSize / count;
  const placed: PlacedTile[] = [];
  const signatures = new FeatureSignatures(viewport.zoom);
  const firstY = Math.max(0, Math.floor(viewport.top / size));
  const lastY = Math.min(count - 1, Math.floor((viewport.top + viewport.height) / size));
  const firstX = Math.floor(viewport.left / size);
  const lastX = Math.floor((viewport.left + viewport.width) / size);
  for (let y = firstY; y <= lastY; y++) {
    for (let column = firstX; column <= lastX; column++) {
      const x = ((column % count) + count) % count;
      const bytes = read(z, x, y);
      if (bytes === null) continue;
      const tile = new VectorTile(new PbfReader(bytes));
      placed.push(new PlacedTile(tile, column * size - viewport.left, y * size - viewport.top, size, signatures));
    }
  }
  return placed;
}
