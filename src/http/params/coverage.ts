/**
 * A point set against what the served dataset covers (its manifest's `bounds`, or the elevation
 * store's), in the words of the parameter that gave it: Waymark's positions are `lat,lng`, OSRM's
 * path `lon,lat`. A point outside the coverage whose swapped coordinates fall inside was almost
 * surely written in the other order, and the message says so.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import type { BBox, LonLat } from '../../../core/geo/types.js';
import { echoPoint, type PointOrder } from '../../../core/geo/point-text.js';

/** Metres from `point` to the nearest point of `box` (its coordinates clamped into the box); 0 inside. */
export function metresOutside([west, south, east, north]: BBox, [lon, lat]: LonLat): number {
  const nearestLon = Math.min(east, Math.max(west, lon));
  const nearestLat = Math.min(north, Math.max(south, lat));
  return metresBetween(lon, lat, nearestLon, nearestLat);
}

/** The point with its two coordinates exchanged (what was given in the other order), or null when that is no position. */
function swapped([lon, lat]: LonLat): LonLat | null {
  return Math.abs(lon) <= 90 ? [lat, lon] : null;
}

/** Whether `point` lies farther than `margin` metres from `box` while its swapped point lies within it: given in the other order. */
export function isSwapped(box: BBox, point: LonLat, margin = 0): boolean {
  const other = swapped(point);
  return other !== null && metresOutside(box, point) > margin && metresOutside(box, other) <= margin;
}

/**
 * Why `point` is outside `box`, in `order`: the coverage as its south-west and north-east corners,
 * and the swapped point when it lies within `margin` metres of the box.
 */
export function outsideCoverage(box: BBox, point: LonLat, order: PointOrder, margin = 0): string {
  const [west, south, east, north] = box;
  const corners = `${echoPoint([west, south], order)} to ${echoPoint([east, north], order)}`;
  const text = `${echoPoint(point, order)} is outside the data's coverage, ${order} ${corners} (south-west to north-east corner)`;
  if (!isSwapped(box, point, margin)) return text;
  const [lon, lat] = point;
  return `${text}; did you mean ${echoPoint([lat, lon], order)}? positions here are ${order === 'lat,lng' ? 'latitude first' : 'longitude first'}`;
}
