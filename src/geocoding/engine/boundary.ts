/**
 * The area results must lie in (`boundary.rect`, `boundary.circle`, either or both, as Pelias
 * filters by both): a box the index reads, and the exact test of each point found in it.
 */
import { EARTH_RADIUS_METRES, kilometresBetween } from '../../../core/geo/distance.js';
import type { BoundaryCircle } from '../sanitize/boundary-circle.js';
import type { BoundaryRect } from '../sanitize/boundary-rect.js';
import type { Box } from './index-file.js';

/** Kilometres per degree of latitude on the mean sphere the distances use. */
export const KM_PER_DEGREE = ((EARTH_RADIUS_METRES / 1000) * Math.PI) / 180;
const WORLD: Box = { west: -180, south: -90, east: 180, north: 90 };

export interface Boundary {
  /** Holds every point of the boundary. */
  box: Box;
  contains(lon: number, lat: number): boolean;
}

/** The overlap of two boxes, or undefined when they do not meet. */
export function intersection(a: Box, b: Box): Box | undefined {
  const box = {
    west: Math.max(a.west, b.west),
    south: Math.max(a.south, b.south),
    east: Math.min(a.east, b.east),
    north: Math.min(a.north, b.north),
  };
  return box.west <= box.east && box.south <= box.north ? box : undefined;
}

/** A box holding the circle: every longitude when it reaches a pole or crosses the antimeridian. */
function circleBox({ lon, lat, radius }: BoundaryCircle): Box {
  const dLat = radius / KM_PER_DEGREE;
  const south = lat - dLat;
  const north = lat + dLat;
  if (south <= -90 || north >= 90) return { ...WORLD, south: Math.max(-90, south), north: Math.min(90, north) };
  // The circle is widest in longitude nearer the pole than its centre: the box takes the poleward latitude.
  const dLon = dLat / Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  if (lon - dLon < -180 || lon + dLon > 180) return { west: -180, east: 180, south, north };
  return { west: lon - dLon, east: lon + dLon, south, north };
}

const inBox = (box: Box, lon: number, lat: number) => lon >= box.west && lon <= box.east && lat >= box.south && lat <= box.north;

/** The boundary of the parameters; undefined when there is none; an empty box when the two do not meet. */
export function boundaryOf(rect: BoundaryRect | undefined, circle: BoundaryCircle | undefined): Boundary | undefined {
  if (rect === undefined && circle === undefined) return undefined;
  const inCircle = (lon: number, lat: number) =>
    circle === undefined || kilometresBetween(circle.lon, circle.lat, lon, lat) <= circle.radius;
  const outer = circle === undefined ? rect! : rect === undefined ? circleBox(circle) : intersection(rect, circleBox(circle));
  // Boxes that do not meet: a box no point is in (west above east).
  const box = outer ?? { west: 180, east: -180, south: 90, north: -90 };
  return { box, contains: (lon, lat) => inBox(box, lon, lat) && inCircle(lon, lat) };
}
