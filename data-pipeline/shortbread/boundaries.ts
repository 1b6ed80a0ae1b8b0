// Shortbread boundaries and boundary_labels of countries (admin_level 2) and states (3–4): the
// rings of assembled boundary relations and ways tagged as boundaries as lines, and a label point
// per relation sized by its area.
import type { Geometry, Position } from 'geojson';
import { nameProperties, type Emit } from './rule-helpers.js';
import { pointOf, type AreaElement, type LineElement } from '../osm/element.js';
import { polygonsMercatorArea } from '../../core/geo/mercator-measures.js';
import type { Tags } from '../osm/tags.js';

const BOUNDARY_MINZOOM: Record<string, number> = { '2': 0, '3': 7, '4': 7 };

/** Label zoom by area: [minimum area in km², first zoom], largest first; the last row has no minimum. */
const LABEL_ZOOMS: Record<string, [number, number][]> = {
  '2': [
    [2e6, 2],
    [7e5, 3],
    [1e5, 4],
    [0, 5],
  ],
  '4': [
    [7e5, 3],
    [1e5, 4],
    [0, 5],
  ],
};

const SQUARE_METRES_PER_HECTARE = 1e4;
const SQUARE_METRES_PER_KM2 = 1e6;

function boundaryMinZoom(t: Tags): number | undefined {
  return t.boundary === 'administrative' && t.admin_level !== undefined ? BOUNDARY_MINZOOM[t.admin_level] : undefined;
}

function emitBoundary(t: Tags, minzoom: number, geometry: Geometry, emit: Emit): void {
  emit('boundaries', minzoom, geometry, {
    admin_level: Number(t.admin_level),
    maritime: t.maritime === 'yes',
    disputed: t.disputed === 'yes',
  });
}

export function boundaryLines(el: LineElement, emit: Emit): void {
  const minzoom = boundaryMinZoom(el.tags);
  if (minzoom !== undefined) emitBoundary(el.tags, minzoom, { type: 'LineString', coordinates: el.line }, emit);
}

/** Boundary relations (a closed boundary way is drawn once, as a line). */
export function boundaryAreas(el: AreaElement, emit: Emit): void {
  const t = el.tags;
  const minzoom = boundaryMinZoom(t);
  if (minzoom === undefined || el.type !== 'relation') return;
  const lines: Position[][] = [];
  for (const rings of el.polygons) for (const ring of rings) lines.push(ring);
  emitBoundary(t, minzoom, { type: 'MultiLineString', coordinates: lines }, emit);
  const labelZooms = LABEL_ZOOMS[t.admin_level!];
  if (labelZooms === undefined || t.name === undefined) return;
  const area = polygonsMercatorArea(el.polygons);
  const km2 = area / SQUARE_METRES_PER_KM2;
  const labelZoom = labelZooms.find(([minArea]) => km2 >= minArea)![1];
  const props = { admin_level: Number(t.admin_level), way_area: area / SQUARE_METRES_PER_HECTARE };
  emit('boundary_labels', labelZoom, pointOf(el), nameProperties(t, props));
}
