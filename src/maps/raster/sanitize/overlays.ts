/**
 * `markers` and `path`, repeatable, in the grammar of Google's static maps: `|`-separated pieces,
 * style pieces first, then the points.
 *   markers=color:red|label:A|43.73,7.42|43.74,7.43        (every point of one value shares its style)
 *   path=color:0xff0000cc|width:4|fill:0x0000ff33|43.73,7.42|43.74,7.43|43.73,7.42
 *   path=color:blue|enc:<encoded polyline, precision 5>   (`enc:` is the last piece: it may contain `|`)
 * A path is filled when `fill` is given and its last point is its first.
 */
import { decodePolyline } from '../../../http/params/polyline.js';
import { clean, rejected, type Sanitizer } from '../../../http/params/sanitized.js';
import type { StaticMarker, StaticPath } from '../../../../workers/render/task.js';
import { parseColor } from './color.js';
import { messages } from './messages.js';
import { MAX_LATITUDE } from '../../../../core/geo/web-mercator.js';
import { mapPosition } from './view.js';
import type { LonLat } from '../../../../core/geo/types.js';

export const MAX_MARKERS = 50;
export const MAX_PATHS = 5;
export const MAX_PATH_POINTS = 1000;
export const MAX_PATH_WIDTH = 20;
const DEFAULT_MARKER_COLOR = '#e03c31';
const DEFAULT_PATH_COLOR = '#2a6fdbcc';
const DEFAULT_PATH_WIDTH = 4;
const LABEL = /^[A-Za-z0-9]{1,2}$/;

/** One value split into its `key:value` style pieces and its `lat,lng` points, each point parsed; errors name `name`. */
function pieces(name: string, raw: string): { styles: Map<string, string>; points: LonLat[]; encoded: string | null; errors: string[] } {
  const styles = new Map<string, string>();
  const points: LonLat[] = [];
  const errors: string[] = [];
  const encodedAt = raw.indexOf('enc:');
  const encoded = encodedAt >= 0 ? raw.slice(encodedAt + 4) : null;
  const plain = encodedAt >= 0 ? raw.slice(0, encodedAt) : raw;
  plain.split('|').forEach((piece, index) => {
    if (piece === '') return;
    const colon = piece.indexOf(':');
    if (colon > 0 && /^[a-z]+$/.test(piece.slice(0, colon))) {
      styles.set(piece.slice(0, colon), piece.slice(colon + 1));
      return;
    }
    const point = mapPosition(`${name}[${index}]`, piece);
    errors.push(...point.errors);
    points.push(point.value);
  });
  return { styles, points, encoded, errors };
}

/** Style keys that `allowed` does not list, as errors. */
function unknownStyles(name: string, styles: Map<string, string>, allowed: readonly string[]): string[] {
  return [...styles.keys()]
    .filter((key) => !allowed.includes(key))
    .map((key) =>
      messages.unknownValue(
        name,
        `${key}:`,
        allowed.map((a) => `${a}:`),
      ),
    );
}

function colorPiece(name: string, raw: string | undefined, fallback: string, alpha: boolean, errors: string[]): string {
  if (raw === undefined) return fallback;
  const color = parseColor(raw, alpha);
  if (color === null) errors.push(messages.badColor(name, raw));
  return color ?? fallback;
}

export const sanitizeMarkers: Sanitizer<StaticMarker[]> = (query) => {
  const markers: StaticMarker[] = [];
  const errors: string[] = [];
  for (const raw of query.getAll('markers')) {
    const parsed = pieces('markers', raw);
    errors.push(...parsed.errors, ...unknownStyles('markers', parsed.styles, ['color', 'label']));
    if (parsed.encoded !== null) errors.push(messages.unknownValue('markers', 'enc:', ['color:', 'label:']));
    const color = colorPiece('markers', parsed.styles.get('color'), DEFAULT_MARKER_COLOR, false, errors);
    const label = parsed.styles.get('label');
    if (label !== undefined && !LABEL.test(label)) errors.push(messages.badLabel('markers', label));
    if (parsed.points.length === 0) errors.push(messages.noPoints('markers', 1));
    for (const [lon, lat] of parsed.points)
      markers.push(label === undefined ? { lon, lat, color } : { lon, lat, color, label: label.toUpperCase() });
  }
  if (markers.length > MAX_MARKERS) errors.push(messages.tooManyOf('markers', 'markers', MAX_MARKERS));
  return errors.length > 0 ? rejected([], ...errors) : clean(markers);
};

export const sanitizePaths: Sanitizer<StaticPath[]> = (query) => {
  const paths: StaticPath[] = [];
  const errors: string[] = [];
  const values = query.getAll('path');
  if (values.length > MAX_PATHS) return rejected([], messages.tooManyOf('path', 'paths', MAX_PATHS));
  for (const raw of values) {
    const parsed = pieces('path', raw);
    errors.push(...parsed.errors, ...unknownStyles('path', parsed.styles, ['color', 'width', 'fill']));
    const color = colorPiece('path', parsed.styles.get('color'), DEFAULT_PATH_COLOR, true, errors);
    const fillRaw = parsed.styles.get('fill');
    const fill = fillRaw === undefined ? undefined : colorPiece('path', fillRaw, '', true, errors);
    const widthRaw = parsed.styles.get('width');
    const width = widthRaw === undefined ? DEFAULT_PATH_WIDTH : Number(widthRaw);
    if (widthRaw !== undefined && !(/^\d+(\.\d+)?$/.test(widthRaw) && width >= 1 && width <= MAX_PATH_WIDTH)) {
      errors.push(messages.badWidth('path', widthRaw, MAX_PATH_WIDTH));
    }
    let points = parsed.points;
    if (parsed.encoded !== null) {
      if (points.length > 0) errors.push(messages.encodedAndPoints('path'));
      const decoded = decodePolyline(parsed.encoded, MAX_LATITUDE);
      if (decoded === null) errors.push(messages.badPolyline('path'));
      points = decoded ?? [];
    }
    const unreadable = parsed.errors.length > 0 || (parsed.encoded !== null && points.length === 0);
    if (points.length < 2 && !unreadable) errors.push(messages.noPoints('path', 2));
    paths.push(fill === undefined ? { points, color, width } : { points, color, width, fill });
  }
  if (paths.reduce((sum, path) => sum + path.points.length, 0) > MAX_PATH_POINTS)
    errors.push(messages.tooManyOf('path', 'points', MAX_PATH_POINTS));
  return errors.length > 0 ? rejected([], ...errors) : clean(paths);
};
