// Shortbread water layers from OSM: water_polygons (+ _labels), water_lines (+ _labels),
// dam_lines/dam_polygons and pier_lines/pier_polygons. The sea is built from coastlines (ocean.ts).
import { areaGeometry, lineIsArea, pointOf, type AreaElement, type LineElement } from '../osm/element.js';
import { minZoomForArea, minZoomForLength, nameProperties, isBridge, isTunnel, type Emit } from './rule-helpers.js';
import { lineMercatorLength, polygonsMercatorArea } from '../../core/geo/mercator-measures.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';
import type { Tags } from '../osm/tags.js';

/**
 * Water areas: the schema's first zoom, and whether the body is "still" water (lakes are shown
 * from 0.01 square pixels, flowing water and docks from 0.1, as the reference does).
 */
const WATER_AREA_KINDS: Record<string, { minzoom: number; still: boolean }> = {
  glacier: { minzoom: 4, still: true },
  water: { minzoom: 4, still: true },
  reservoir: { minzoom: 4, still: true },
  basin: { minzoom: 4, still: true },
  river: { minzoom: 4, still: false },
  dock: { minzoom: 10, still: false },
  canal: { minzoom: 10, still: false },
};

function waterAreaKind(t: Tags): string | undefined {
  if (t.landuse === 'reservoir' || t.landuse === 'basin') return t.landuse;
  if (t.natural === 'glacier') return 'glacier';
  if (t.natural === 'water') return t.water === 'river' ? 'river' : 'water';
  if (t.waterway === 'riverbank') return 'river';
  if (t.waterway === 'dock' || t.waterway === 'canal') return t.waterway;
  return undefined;
}

/** Zoom from which a water area is shown: the kind's zoom, later for areas too small to see. */
function waterAreaMinZoom(kind: string, area: number): number {
  const rule = WATER_AREA_KINDS[kind]!;
  let zoom = Math.max(rule.minzoom, minZoomForArea(rule.still ? 0.01 : 0.1, area));
  if (rule.still && zoom >= 10) zoom = Math.max(10, minZoomForArea(0.1, area));
  return Math.min(zoom, TILE_MAX_ZOOM);
}

/** Waterway lines: a fixed first zoom, or a length rule (shown once 0.25 px long, not before `minzoom`). */
const WATER_LINE_KINDS: Record<string, { minzoom: number; labelMinzoom: number; byLength: boolean }> = {
  river: { minzoom: 9, labelMinzoom: 12, byLength: true },
  canal: { minzoom: 9, labelMinzoom: 12, byLength: true },
  stream: { minzoom: 14, labelMinzoom: 14, byLength: false },
  ditch: { minzoom: 14, labelMinzoom: 14, byLength: false },
};

const PIER_KINDS = new Set(['pier', 'breakwater', 'groyne']);
const DAM_AND_PIER_MINZOOM = 12;

export function waterAreas(el: AreaElement, emit: Emit): void {
  const t = el.tags;
  const kind = waterAreaKind(t);
  if (kind !== undefined) {
    const wayArea = polygonsMercatorArea(el.polygons);
    const minzoom = waterAreaMinZoom(kind, wayArea);
    emit('water_polygons', minzoom, areaGeometry(el.polygons), { kind, way_area: wayArea });
    if (t.name !== undefined) emit('water_polygons_labels', minzoom, pointOf(el), nameProperties(t, { kind, way_area: wayArea }));
  }
  if (t.waterway === 'dam') emit('dam_polygons', DAM_AND_PIER_MINZOOM, areaGeometry(el.polygons), { kind: 'dam' });
  if (t.man_made !== undefined && PIER_KINDS.has(t.man_made)) {
    emit('pier_polygons', DAM_AND_PIER_MINZOOM, areaGeometry(el.polygons), { kind: t.man_made });
  }
}

export function waterLines(el: LineElement, emit: Emit): void {
  if (lineIsArea(el)) return;
  const t = el.tags;
  const geometry = { type: 'LineString' as const, coordinates: el.line };
  const rule = t.waterway === undefined ? undefined : WATER_LINE_KINDS[t.waterway];
  if (rule !== undefined) {
    const kind = t.waterway!;
    const lengthZoom = rule.byLength ? minZoomForLength(0.25, lineMercatorLength(el.line)) : 0;
    const minzoom = Math.min(TILE_MAX_ZOOM, Math.max(rule.minzoom, lengthZoom));
    emit('water_lines', minzoom, geometry, { kind, tunnel: isTunnel(t), bridge: isBridge(t) });
    if (t.name !== undefined) {
      emit('water_lines_labels', Math.min(TILE_MAX_ZOOM, Math.max(rule.labelMinzoom, lengthZoom)), geometry, nameProperties(t, { kind }));
    }
  }
  if (t.waterway === 'dam') emit('dam_lines', DAM_AND_PIER_MINZOOM, geometry, { kind: 'dam' });
  if (t.man_made !== undefined && PIER_KINDS.has(t.man_made)) emit('pier_lines', DAM_AND_PIER_MINZOOM, geometry, { kind: t.man_made });
}
