/**
 * What every source of map data produces for the tiler: a GeoJSON geometry in WGS84, the vector
 * tile layer it belongs to (Shortbread schema), the zoom levels it appears at, and its attributes.
 */
import type { Geometry } from 'geojson';

export type FeatureValue = string | number | boolean;

export interface TileFeature {
  /** Shortbread layer id, e.g. `streets`, `water_polygons`, `place_labels`. */
  layer: string;
  /** First and last zoom (inclusive, 0–14) whose tiles carry the feature. */
  minzoom: number;
  maxzoom: number;
  geometry: Geometry;
  properties: Record<string, FeatureValue>;
}
