// The OSM object the Shortbread rules look at, and the tag helpers several layer groups share
// (names, bridge/tunnel flags, zoom levels from sizes), as the Shortbread reference defines them.
import type { Geometry, Position } from 'geojson';
import type { FeatureValue, TileFeature } from '../features.js';
import type { PolygonRings } from '../../core/geo/rings.js';
import { largestPolygonLabelPoint, MERCATOR_CIRCUMFERENCE } from './geometry.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';
import type { Tags } from '../osm/tags.js';

/**
 * One OSM object as osmium exports it. A closed way arrives as an `area` (osmium assembles it) and,
 * when it carries a key of the line rules (SHORTBREAD_LINEAR_TAGS), also as a `line`, so each rule
 * decides which of the two it wants.
 */
export type OsmElement =
  | { shape: 'point'; type: 'node'; id: number; tags: Tags; point: Position }
  | { shape: 'line'; type: 'way'; id: number; tags: Tags; line: Position[]; closed: boolean }
  | { shape: 'area'; type: 'way' | 'relation'; id: number; tags: Tags; polygons: PolygonRings[] };

export type PointElement = Extract<OsmElement, { shape: 'point' }>;
export type LineElement = Extract<OsmElement, { shape: 'line' }>;
export type AreaElement = Extract<OsmElement, { shape: 'area' }>;

/** Collects features for one element; rules call `emit` for each layer they fill. */
export type Emit = (layer: string, minzoom: number, geometry: Geometry, properties: Record<string, FeatureValue>) => void;

export function collector(out: TileFeature[]): Emit {
  return (layer, minzoom, geometry, properties) => {
    out.push({ layer, minzoom, maxzoom: TILE_MAX_ZOOM, geometry, properties });
  };
}

/**
 * Shortbread's "is an area" rule: `area=yes`, relations (multipolygon, boundary) and
 * `area:aeroway=runway|taxiway` are areas even for features that are lines by default.
 */
export function isExplicitArea(el: OsmElement): boolean {
  const t = el.tags;
  return el.type === 'relation' || t.area === 'yes' || t['area:aeroway'] === 'runway' || t['area:aeroway'] === 'taxiway';
}

/** A line is also an area (and so skipped by line-only rules) when closed and not `area=no`. */
export function lineIsArea(el: LineElement): boolean {
  return isExplicitArea(el) || (el.closed && el.tags.area !== 'no');
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

/** GeoJSON geometry of an area: a Polygon when there is one, else a MultiPolygon. */
export function areaGeometry(polygons: PolygonRings[]): Geometry {
  return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons };
}

/** Point geometry for a point layer: the node itself, or a label point inside an area. */
export function pointOf(el: PointElement | AreaElement): Geometry {
  return { type: 'Point', coordinates: el.shape === 'point' ? el.point : largestPolygonLabelPoint(el.polygons) };
}
