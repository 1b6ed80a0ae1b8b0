/**
 * The vector tiles under a viewport: which archive tiles cover it (zoom floor(style zoom), at most
 * the archive's 14: deeper zooms draw part of a z14 tile scaled), read from the dataset's MBTiles and
 * decoded, each with where its extent lies on the canvas.
 */
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { gunzipSync } from 'node:zlib';
import type { MbtilesReader } from '../../../dataset/mbtiles.js';
import type { Viewport } from './viewport.js';

export const ARCHIVE_MAX_ZOOM = 14;

export type Rings = { x: number; y: number }[][];

/** A feature of a placed tile, decoded once however many style layers read it. */
export class TileFeature {
  private canvasRings: Rings | null = null;

  constructor(readonly feature: VectorTileFeature, private readonly tile: PlacedTile) {}

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

  /** `left`, `top`: canvas position of the tile's top-left corner; `size`: its side, in device pixels. */
  constructor(readonly tile: VectorTile, readonly left: number, readonly top: number, readonly size: number) {}

  /** The features of a source layer (none where the tile lacks it). */
  features(sourceLayer: string | undefined): TileFeature[] {
    const name = sourceLayer ?? '';
    let features = this.decoded.get(name);
    if (features === undefined) {
      const layer = this.tile.layers[name];
      features = [];
      for (let i = 0; i < (layer?.length ?? 0); i++) features.push(new TileFeature(layer!.feature(i), this));
      this.decoded.set(name, features);
    }
    return features;
  }
}

/** Archive tiles overlapping the viewport (x wrapped around the antimeridian), each decoded once per call. */
export function tilesUnder(viewport: Viewport, archive: MbtilesReader): PlacedTile[] {
  const z = Math.max(0, Math.min(ARCHIVE_MAX_ZOOM, Math.floor(viewport.zoom)));
  const count = 2 ** z;
  const size = viewport.worldSize / count;
  const placed: PlacedTile[] = [];
  const firstY = Math.max(0, Math.floor(viewport.top / size));
  const lastY = Math.min(count - 1, Math.floor((viewport.top + viewport.height) / size));
  const firstX = Math.floor(viewport.left / size);
  const lastX = Math.floor((viewport.left + viewport.width) / size);
  for (let y = firstY; y <= lastY; y++) {
    for (let column = firstX; column <= lastX; column++) {
      const x = ((column % count) + count) % count;
      const stored = archive.tile(z, x, y);
      if (stored === null) continue;
      const tile = new VectorTile(new PbfReader(gunzipSync(stored.data)));
      placed.push(new PlacedTile(tile, column * size - viewport.left, y * size - viewport.top, size));
    }
  }
  return placed;
}
