/**
 * Where a map opens on the dataset: the middle of its bounds (the imported extracts' box), at the
 * zoom where the bounds cover a FIRST_VIEW_SIZE viewport, so the whole first view is the
 * extracts' own detailed land and sea. A view shown from farther out reaches past the box, where
 * only the world layer's coarse Natural Earth coastline (with its GeoNames places, some of them in
 * its sea) meets the extract's coast at the box's edge. A smaller viewport at that zoom shows less,
 * still inside; a larger one may reach past the box.
 */
import { worldPixel } from '../../core/geo/web-mercator.js';
import type { BBox } from '../../core/geo/types.js';
import type { LonLat } from '../../core/geo/types.js';

/** CSS pixels of the viewport the first view fills: a common embedded map (the dashboard's playground is smaller). */
export const FIRST_VIEW_SIZE = { width: 1024, height: 768 } as const;
/** MapLibre's world at zoom 0, in CSS pixels. */
const WORLD_PX = 512;
/** A box narrower than a street is not zoomed into closer than this. */
const MAX_FIRST_ZOOM = 16;

export interface FirstView {
  /** [lon, lat], as a MapLibre style's `center`. */
  center: LonLat;
  zoom: number;
}

/** The view of `bounds` ([west, south, east, north]) that a `width` × `height` viewport sees wholly inside them. */
export function firstView(
  [west, south, east, north]: Readonly<BBox>,
  { width, height }: { width: number; height: number } = FIRST_VIEW_SIZE,
): FirstView {
  // Web Mercator as fractions of the world from the top-left.
  const [left, top] = worldPixel(1, west, north);
  const [right, bottom] = worldPixel(1, east, south);
  // The larger of the zooms at which the box's width and its height fill the viewport's: the other side then overflows it.
  const zoom = Math.log2(Math.max(width / ((right - left) * WORLD_PX), height / ((bottom - top) * WORLD_PX)));
  const middleY = (top + bottom) / 2;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * middleY))) * 180) / Math.PI;
  const rounded = (value: number) => Math.round(value * 1e6) / 1e6;
  return { center: [rounded((west + east) / 2), rounded(lat)], zoom: Math.ceil(Math.min(MAX_FIRST_ZOOM, Math.max(0, zoom)) * 100) / 100 };
}
