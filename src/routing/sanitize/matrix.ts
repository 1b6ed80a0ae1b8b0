/**
 * The parameters of `/matrix`: `sources` and `destinations` (`lat,lng|…`, both required), `mode`,
 * `annotations` (`duration`, `distance` or both), where the points may snap (`source_bearings`,
 * `source_radiuses`, `destination_bearings`, `destination_radiuses`, `snapping`), and the element limit. Checked in the
 * gateway's `units` too, so a refused request is never metered.
 */
import { sanitize } from '../../http/params/compose.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { ApiError } from '../../http/errors.js';
import { messages } from './messages.js';
import { parsePositionList, NOWHERE } from '../../http/params/position.js';
import type { LonLat } from '../../../core/geo/types.js';
import { sanitizeMode } from './route-options.js';
import { snapRulesOf } from './snapping.js';
import { sanitizeAvoid } from './avoid.js';
import { type SnapRule, ANNOTATIONS, type Annotation, type MatrixParams } from '../../../workers/routing/task.js';

/** Sources × destinations of one request at most. */
export const MAX_MATRIX_ELEMENTS = 10_000;
/** Elements per `routing` unit: a request costs one unit per started hundred. */
export const ELEMENTS_PER_UNIT = 100;

export const MATRIX_PARAMETERS = [
  'sources',
  'destinations',
  'mode',
  'annotations',
  'avoid',
  'source_bearings',
  'source_radiuses',
  'destination_bearings',
  'destination_radiuses',
  'snapping',
] as const;

function positionList(name: string): Sanitizer<LonLat[]> {
  return (query) => {
    const raw = query.get(name);
    return raw === null ? rejected([NOWHERE], messages.missing(name)) : parsePositionList(name, raw);
  };
}

/** `duration,distance` in any order, each at most once; `fallback` when absent. */
export function annotationList(name: string, fallback: readonly Annotation[]): Sanitizer<Annotation[]> {
  return (query) => {
    const raw = query.get(name);
    if (raw === null) return clean([...fallback]);
    const words = raw.split(',');
    const unknown = words.find((word) => !(ANNOTATIONS as readonly string[]).includes(word));
    if (unknown !== undefined) return rejected([], messages.unknownValue(name, unknown, ANNOTATIONS));
    if (new Set(words).size !== words.length) return rejected([], messages.repeatedAnnotation(name, raw));
    return clean(words as Annotation[]);
  };
}

/**
 * Where each of `points` (`sources` or `destinations`) may snap: `{prefix}bearings` and
 * `{prefix}radiuses`, one `|`-separated entry per point as in /directions, and `snapping`.
 */
function snapRules(prefix: string, points: string): Sanitizer<SnapRule[]> {
  return (query) => snapRulesOf(query, (query.get(points) ?? '').split('|').length, prefix, points);
}

const matrix = {
  sources: positionList('sources'),
  destinations: positionList('destinations'),
  mode: sanitizeMode,
  annotations: annotationList('annotations', ANNOTATIONS),
  sourceRules: snapRules('source_', 'sources'),
  destinationRules: snapRules('destination_', 'destinations'),
  avoid: sanitizeAvoid,
};

/** Throws ApiError 400 for more elements than MAX_MATRIX_ELEMENTS. */
export function checkElementCount(elements: number): void {
  if (elements > MAX_MATRIX_ELEMENTS) throw new ApiError(400, messages.tooManyElements(elements, MAX_MATRIX_ELEMENTS));
}

/** `/matrix`; throws ApiError 400 naming each bad parameter, or the element limit. */
export function sanitizeMatrix(query: URLSearchParams): MatrixParams {
  const { params } = sanitize(query, matrix, MATRIX_PARAMETERS);
  checkElementCount(params.sources.length * params.destinations.length);
  return params;
}

/** What a matrix of this many elements costs. */
export const matrixUnits = (elements: number): number => Math.max(1, Math.ceil(elements / ELEMENTS_PER_UNIT));
