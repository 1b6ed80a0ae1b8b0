// Waymark's `peaks` layer (an extension of Shortbread, which has none; docs/SHORTBREAD.md): named or
// surveyed summits and passes from OSM nodes, with their elevation in metres for outdoor maps —
// OSM's `ele`, else the imported DEM's where there is one.
import { nameProperties, type Emit } from './rule-helpers.js';
import type { PointElement } from '../osm/element.js';

/** The elevation (metres) of a point from the dataset's DEMs, null outside them. */
export type ElevationAt = (lon: number, lat: number) => number | null;

/** First zoom of each kind: summits from 11, as outdoor maps label them; passes closer in. */
const PEAK_KINDS: Record<string, number> = { peak: 11, volcano: 11, saddle: 13, mountain_pass: 13 };
/** Unnamed summits (an `ele` alone) only where there is room. */
const UNNAMED_MINZOOM = 13;
/** Outside this range an `ele` is a typo or another unit, not a height on Earth. */
const LOWEST = -500;
const HIGHEST = 9000;
const FOOT = 0.3048;

/**
 * OSM `ele=*` in whole metres, or undefined when it cannot be read as one height. Accepts "2942",
 * "2942 m", "2942m", "2942.5", a decimal comma ("3143,45", common in the Pyrenees), thousands
 * separators ("2,942", "2 942"), feet ("9652 ft", "9652'") and a leading "~" or "ca."; refuses
 * ranges, lists and words.
 */
export function parseElevation(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(?:~|ca\.?)?\s*(-?[\d\s.,]*\d)\s*(m|metres?|meters?|ft|feet|')?$/i.exec(value.trim());
  if (match === null) return undefined;
  let digits = match[1]!.replace(/\s/g, '');
  // "2,942" and "1,234,567": thousands; any other single comma is a decimal comma.
  if (/^-?\d{1,3}(,\d{3})+$/.test(digits)) digits = digits.replace(/,/g, '');
  else if (/^-?\d+,\d+$/.test(digits)) digits = digits.replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(digits)) return undefined;
  const unit = match[2]?.toLowerCase();
  const metres = Number(digits) * (unit === 'ft' || unit === 'feet' || unit === "'" ? FOOT : 1);
  return metres >= LOWEST && metres <= HIGHEST ? Math.round(metres) : undefined;
}

/** A summit's or pass's feature; `elevationAt` (the import's DEMs) gives the `ele` OSM lacks. */
export function peaks(el: PointElement, emit: Emit, elevationAt?: ElevationAt): void {
  const t = el.tags;
  const kind =
    t.natural !== undefined && Object.hasOwn(PEAK_KINDS, t.natural) ? t.natural : t.mountain_pass === 'yes' ? 'mountain_pass' : undefined;
  if (kind === undefined) return;
  const surveyed = parseElevation(t.ele);
  const props = nameProperties(t, { kind });
  // A summit with neither name nor height has nothing to say; the DEM only completes named ones.
  if (props.name === undefined && surveyed === undefined) return;
  const fromDem = surveyed === undefined ? elevationAt?.(el.point[0]!, el.point[1]!) : undefined;
  const ele = surveyed ?? (fromDem === undefined || fromDem === null ? undefined : Math.round(fromDem));
  if (ele !== undefined) props.ele = ele;
  const minzoom = Math.max(PEAK_KINDS[kind]!, props.name === undefined ? UNNAMED_MINZOOM : 0);
  emit('peaks', minzoom, { type: 'Point', coordinates: el.point }, props);
}
