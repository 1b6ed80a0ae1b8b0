/** The parameter checks of directions and isochrones, and one function per endpoint that applies them. */
import { sanitize, type CleanRequest } from '../../http/params/compose.js';
import { flag } from '../../http/params/choice.js';
import { sanitizeTime } from './contours.js';
import { sanitizeGeneralize } from './generalize.js';
import { sanitizeInstructionLanguage } from './instruction-language.js';
import { sanitizeSnapRules } from './snapping.js';
import { sanitizeAvoid } from './avoid.js';
import { sanitizeDestination, sanitizeOrigin, sanitizeWaypoints } from './points.js';
import { requiredPosition } from '../../http/params/position.js';
import {
  sanitizeAlternatives,
  sanitizeContinueStraight,
  sanitizeElevation,
  sanitizeGeometries,
  sanitizeMode,
  sanitizeOverview,
  sanitizeSteps,
} from './route-options.js';
import type { DirectionsParams, IsochroneParams } from '../../../workers/routing/task.js';

/** The parameters of the routing endpoints (directions, isochrone, optimize); each may be given once. */
export const ROUTING_PARAMETERS = [
  'origin',
  'destination',
  'waypoints',
  'mode',
  'alternatives',
  'steps',
  'geometries',
  'overview',
  'lang',
  'center',
  'time',
  'generalize',
  'polygons',
  'bearings',
  'radiuses',
  'snapping',
  'continue_straight',
  'points',
  'roundtrip',
  'source',
  'avoid',
  'elevation',
] as const;

const directions = {
  origin: sanitizeOrigin,
  destination: sanitizeDestination,
  waypoints: sanitizeWaypoints,
  mode: sanitizeMode,
  alternatives: sanitizeAlternatives,
  steps: sanitizeSteps,
  geometries: sanitizeGeometries,
  overview: sanitizeOverview,
  lang: sanitizeInstructionLanguage,
  snapRules: sanitizeSnapRules,
  continueStraight: sanitizeContinueStraight,
  avoid: sanitizeAvoid,
  elevation: sanitizeElevation,
};
const isochrone = {
  center: requiredPosition('center'),
  time: sanitizeTime,
  mode: sanitizeMode,
  generalize: sanitizeGeneralize,
  polygons: flag('polygons', true),
};

/** `/directions`; throws ApiError 400 naming each bad parameter. */
export const sanitizeDirections = (query: URLSearchParams): CleanRequest<DirectionsParams> =>
  sanitize(query, directions, ROUTING_PARAMETERS);
/** `/isochrone`; throws ApiError 400 naming each bad parameter. */
export const sanitizeIsochrone = (query: URLSearchParams): CleanRequest<IsochroneParams> => sanitize(query, isochrone, ROUTING_PARAMETERS);
