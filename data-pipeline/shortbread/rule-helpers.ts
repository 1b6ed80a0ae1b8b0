// The helpers several Shortbread layer groups share: the feature collector, names, bridge/tunnel
// flags, layers, and zoom levels from sizes, as the Shortbread reference defines them.
import type { Geometry } from 'geojson';
import type { FeatureValue, TileFeature } from '../features.js';
import { MERCATOR_CIRCUMFERENCE } from '../../core/geo/mercator-measures.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';
import type { Tags } from '../osm/tags.js';

/** Collects features for one element; rules call `emit` for each layer they fill. */
export type Emit = (layer: string, minzoom: number, geometry: Geometry, properties: Record<string, FeatureValue>) => void;

export function collector(out: TileFeature[]): Emit {
  return (layer, minzoom, geometry, properties) => {
    out.push({ layer, minzoom, maxzoom: TILE_MAX_ZOOM, geometry, properties });
  };
}

/** `name`, `name_en`, `name_de`, each falling back to the others as the reference does. */
export function nameProperties(tags: Tags, props: Record<string, FeatureValue>): Record<string, FeatureValue> {
  const name = tags.name ?? '';
  const en = tags['name:en'] ?? '';
  const de = tags['name:de'] ?? '';
  const main = name || en || de;
  if (main) props.name = main;
  const nameEn = en || name || de;
  if (nameEn) props.name_en = nameEn;
  const nameDe = de || name || en;
  if (nameDe) props.name_de = nameDe;
  return props;
}

const BRIDGE_VALUES = new Set(['yes', 'viaduct', 'boardwalk', 'cantilever', 'covered', 'low_water_crossing', 'movable', 'trestle']);

export function isBridge(tags: Tags): boolean {
  return tags.bridge !== undefined && BRIDGE_VALUES.has(tags.bridge);
}

/** The schema's `tunnel=yes|building_passage` or `covered=yes`, plus `culvert` (waterways) as the reference does. */
export function isTunnel(tags: Tags): boolean {
  const tunnel = tags.tunnel;
  return tunnel === 'yes' || tunnel === 'building_passage' || tunnel === 'culvert' || tags.covered === 'yes';
}

/** OSM `layer=*` as a number clamped to -7…7, 0 when absent or not a number. */
export function layerNumber(tags: Tags): number {
  const layer = Number.parseInt(tags.layer ?? '', 10);
  return Number.isNaN(layer) ? 0 : Math.max(-7, Math.min(7, layer));
}

/** First zoom at which an area covers at least `minPixels` square pixels of a 256-pixel tile. */
export function minZoomForArea(minPixels: number, area: number): number {
  return Math.floor(Math.log((minPixels * MERCATOR_CIRCUMFERENCE ** 2) / (2 ** 16 * area)) / (2 * Math.LN2));
}

/** First zoom at which a line is at least `minPixels` pixels long. */
export function minZoomForLength(minPixels: number, length: number): number {
  return Math.floor(Math.log((MERCATOR_CIRCUMFERENCE * minPixels) / (2 ** 8 * length)) / Math.LN2);
}
