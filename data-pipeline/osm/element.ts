// One OSM object as the pipeline reads it from `osmium export` (its shape, id, tags and geometry),
// the rule telling which closed ways are areas, and its GeoJSON geometry for a feature.
import type { Geometry, Position } from 'geojson';
import { largestPolygonLabelPoint } from '../../core/geo/label-point.js';
import type { PolygonRings } from '../../core/geo/rings.js';
import type { Tags } from './tags.js';

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

/** GeoJSON geometry of an area: a Polygon when there is one, else a MultiPolygon. */
export function areaGeometry(polygons: PolygonRings[]): Geometry {
  return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons };
}

/** Point geometry for a point layer: the node itself, or a label point inside an area. */
export function pointOf(el: PointElement | AreaElement): Geometry {
  return { type: 'Point', coordinates: el.shape === 'point' ? el.point : largestPolygonLabelPoint(el.polygons) };
}
