/**
 * Puts polygon rings in RFC 7946 order — exteriors counter-clockwise, holes clockwise in lon/lat —
 * which, with the y axis pointing down in tile space, is the winding the Mapbox Vector Tile 2 spec
 * requires (exteriors clockwise). geojson-vt keeps the winding it is given, so the tiler fixes it here.
 */
import type { Geometry, Position } from 'geojson';
import { signedRingArea } from '../../core/geo/rings.js';

function orientPolygon(rings: Position[][]): void {
  for (let i = 0; i < rings.length; i++) {
    const ring = rings[i]!;
    const counterClockwise = signedRingArea(ring) > 0;
    if (counterClockwise !== (i === 0)) ring.reverse();
  }
}

/** Reorients the rings of a (Multi)Polygon in place; other geometries are left as they are. */
export function orientRings(geometry: Geometry): void {
  if (geometry.type === 'Polygon') orientPolygon(geometry.coordinates);
  else if (geometry.type === 'MultiPolygon') for (const polygon of geometry.coordinates) orientPolygon(polygon);
}
