/** `center=lat,lng` with `zoom`, or `bbox=minLon,minLat,maxLon,maxLat`, or neither (fit to the markers and paths, checked by the endpoint). */
import { decimalInRange } from '../../../http/params/number.js';
import { clean, rejected, type Sanitized, type Sanitizer } from '../../../http/params/sanitized.js';
import { NOWHERE, parsePosition } from '../../../http/params/position.js';
import type { BBox, LonLat } from '../../../../core/geo/types.js';
import { MAX_LATITUDE } from '../../../../core/geo/web-mercator.js';
import { messages } from './messages.js';

export const MAX_ZOOM = 20;

export type View = { kind: 'center'; center: LonLat; zoom: number } | { kind: 'bbox'; bounds: BBox } | { kind: 'fit' };

/** A `lat,lng` position as routing reads it, within Web Mercator's latitudes. */
export function mapPosition(name: string, raw: string): Sanitized<LonLat> {
  const position = parsePosition(name, raw);
  if (position.errors.length > 0 || Math.abs(position.value[1]) <= MAX_LATITUDE) return position;
  return rejected(NOWHERE, messages.outOfRange(`${name} latitude`, -MAX_LATITUDE, MAX_LATITUDE));
}

function parseBbox(raw: string): BBox | null {
  const parts = raw.split(',');
  if (parts.length !== 4) return null;
  const limits = [180, MAX_LATITUDE, 180, MAX_LATITUDE];
  const values = parts.map((part, i) => decimalInRange('bbox', part.trim(), -limits[i]!, limits[i]!));
  if (values.some((v) => v.errors.length > 0)) return null;
  const [minLon, minLat, maxLon, maxLat] = values.map((v) => v.value) as BBox;
  return minLon < maxLon && minLat < maxLat ? [minLon, minLat, maxLon, maxLat] : null;
}

export const sanitizeView: Sanitizer<View> = (query) => {
  const center = query.get('center');
  const zoom = query.get('zoom');
  const bbox = query.get('bbox');
  const fallback: View = { kind: 'fit' };
  if (bbox !== null) {
    if (center !== null) return rejected(fallback, messages.both('center', 'bbox'));
    if (zoom !== null) return rejected(fallback, messages.both('zoom', 'bbox'));
    const bounds = parseBbox(bbox);
    return bounds ? clean({ kind: 'bbox', bounds }) : rejected(fallback, messages.badBbox('bbox', bbox));
  }
  if (center === null && zoom === null) return clean(fallback);
  if (center === null) return rejected(fallback, messages.lone('zoom', 'center'));
  if (zoom === null) return rejected(fallback, messages.lone('center', 'zoom'));
  const position = mapPosition('center', center);
  const level = decimalInRange('zoom', zoom, 0, MAX_ZOOM);
  const errors = [...position.errors, ...level.errors];
  return errors.length > 0 ? rejected(fallback, ...errors) : clean({ kind: 'center', center: position.value, zoom: level.value });
};
