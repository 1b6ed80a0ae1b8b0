/**
 * The center and zoom of a static map: as given, or the zoom at which a bbox (given, or around the
 * markers and paths) fills the picture less a padding. Zooms are MapLibre's: a 512-px world at zoom 0.
 */
import type { StaticMarker, StaticPath } from '../../../workers/render/task.js';
import { MAX_ZOOM, type View } from './sanitize/view.js';
import { worldPixel } from '../../../core/geo/web-mercator.js';
import type { BBox } from '../../../core/geo/types.js';
import type { LonLat } from '../../../core/geo/types.js';

const WORLD_PX = 512;
/** CSS pixels kept free around fitted overlays, so that pins and line ends are not cut. */
export const FIT_PADDING = 40;
/** A fit around one point (or points very close) goes no closer than a street view. */
const MAX_FIT_ZOOM = 16;

/** The latitude of a Web Mercator y, as a fraction of the world from the top (the inverse of `worldPixel`'s). */
const latitudeOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

function overlayBounds(markers: StaticMarker[], paths: StaticPath[]): BBox {
  const points = [...markers.map((m): LonLat => [m.lon, m.lat]), ...paths.flatMap((p) => p.points)];
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

function fitBounds(
  [minLon, minLat, maxLon, maxLat]: BBox,
  width: number,
  height: number,
  padding: number,
  maxZoom: number,
): { center: LonLat; zoom: number } {
  // Web Mercator as fractions of the world, 0..1 from the top-left.
  const [left, top] = worldPixel(1, minLon, maxLat);
  const [right, bottom] = worldPixel(1, maxLon, minLat);
  // Padding shrinks on small pictures so that some room is always left for the map.
  const pad = Math.min(padding, width / 4, height / 4);
  const scale = Math.min((width - 2 * pad) / ((right - left) * WORLD_PX), (height - 2 * pad) / ((bottom - top) * WORLD_PX));
  const zoom = Math.max(0, Math.min(maxZoom, Math.log2(scale)));
  return { center: [(minLon + maxLon) / 2, latitudeOf((top + bottom) / 2)], zoom };
}

export function staticMapView(
  view: View,
  width: number,
  height: number,
  markers: StaticMarker[],
  paths: StaticPath[],
): { center: [lon: number, lat: number]; zoom: number } {
  if (view.kind === 'center') return { center: view.center, zoom: view.zoom };
  if (view.kind === 'bbox') return fitBounds(view.bounds, width, height, 0, MAX_ZOOM);
  return fitBounds(overlayBounds(markers, paths), width, height, FIT_PADDING, MAX_FIT_ZOOM);
}
