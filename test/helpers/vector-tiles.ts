/**
 * Reading back what the tiler wrote: the XYZ tile (and the position in it) of a lon/lat, decoding a
 * stored gzipped tile with @mapbox/vector-tile, and point-in-polygon tests in tile coordinates.
 */
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { gunzipSync } from 'node:zlib';

export interface TilePosition {
  z: number;
  x: number;
  y: number;
  /** The lon/lat's position inside the tile, in tile units (0–extent). */
  px: number;
  py: number;
}

/** The XYZ tile at zoom z that holds (lon, lat), and where in it (Web Mercator). */
export function tileAt(lon: number, lat: number, z: number, extent = 4096): TilePosition {
  const n = 2 ** z;
  const fx = ((lon + 180) / 360) * n;
  const sin = Math.sin((lat * Math.PI) / 180);
  const fy = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n;
  const x = Math.floor(fx);
  const y = Math.floor(fy);
  return { z, x, y, px: (fx - x) * extent, py: (fy - y) * extent };
}

/** Decodes a tile as stored (gzipped) or as fetch() hands it over (already inflated). */
export function decodeTile(data: Buffer): VectorTile {
  const gzipped = data[0] === 0x1f && data[1] === 0x8b;
  return new VectorTile(new PbfReader(gzipped ? gunzipSync(data) : data));
}

/** Every feature of a layer of the tile; none when the layer is absent. */
export function featuresOf(tile: VectorTile, layer: string): VectorTileFeature[] {
  const found = tile.layers[layer];
  const features: VectorTileFeature[] = [];
  for (let i = 0; i < (found?.length ?? 0); i++) features.push(found!.feature(i));
  return features;
}

/** Even-odd test over all rings of the polygon features: is the point inside any of them? */
export function polygonsCover(features: VectorTileFeature[], px: number, py: number): boolean {
  let inside = false;
  for (const feature of features) {
    if (feature.type !== 3) continue;
    for (const ring of feature.loadGeometry()) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const a = ring[i]!;
        const b = ring[j]!;
        if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
      }
    }
  }
  return inside;
}
