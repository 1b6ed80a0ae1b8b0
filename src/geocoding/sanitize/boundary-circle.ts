/**
 * `boundary.circle.lat/lon/radius`: results within `radius` km of the centre. Search, structured
 * and autocomplete (Pelias' `_geo_search`): the centre is a lat/lon pair, the radius optional
 * (default 50 km, Pelias' search default) but needing the centre. Reverse (`_geo_reverse`): the
 * centre is always `point.lat/lon` (a centre given is ignored with a warning), the radius optional
 * and clamped to 0.00001..5 km.
 */
import { optionalLatLon, type LatLon } from './coordinates.js';
import { messages } from './messages.js';
import { decimalInRange } from '../../http/params/number.js';
import { clean, rejected, type Sanitized, type Sanitizer } from '../../http/params/sanitized.js';

export interface BoundaryCircle extends LatLon {
  /** Kilometres. */
  radius: number;
}

export const CIRCLE_PARAMETERS = ['boundary.circle.lat', 'boundary.circle.lon', 'boundary.circle.radius'] as const;
const RADIUS = 'boundary.circle.radius';
export const DEFAULT_CIRCLE_RADIUS_KM = 50;
export const REVERSE_RADIUS_KM = { min: 0.00001, max: 5 } as const;
/** Half the Earth's circumference: a larger circle holds the whole Earth. */
const MAX_RADIUS_KM = 20038;

/** The radius when given: a decimal number of km above 0, at most half the Earth's circumference. */
function optionalRadius(query: URLSearchParams): Sanitized<number | undefined> {
  const raw = query.get(RADIUS);
  if (raw === null) return clean(undefined);
  const radius = decimalInRange(RADIUS, raw, 0, MAX_RADIUS_KM);
  if (radius.errors.length > 0) return radius;
  return radius.value > 0 ? radius : rejected(undefined, messages.notPositive(RADIUS));
}

export const sanitizeBoundaryCircle: Sanitizer<BoundaryCircle | undefined> = (query) => {
  const centre = optionalLatLon(query, 'boundary.circle');
  const radius = optionalRadius(query);
  const errors = [...centre.errors, ...radius.errors];
  if (errors.length === 0 && centre.value === undefined && radius.value !== undefined) {
    errors.push(messages.lone(RADIUS, 'boundary.circle.lat'), messages.lone(RADIUS, 'boundary.circle.lon'));
  }
  if (errors.length > 0) return rejected(undefined, ...errors);
  return clean(centre.value && { ...centre.value, radius: radius.value ?? DEFAULT_CIRCLE_RADIUS_KM });
};

/** Reverse's radius (km) when given, clamped as Pelias does, with a warning when clamped or when a centre is given. */
export const sanitizeReverseRadius: Sanitizer<number | undefined> = (query) => {
  const warnings = query.has('boundary.circle.lat') || query.has('boundary.circle.lon') ? [messages.centreOfReverse()] : [];
  const radius = optionalRadius(query);
  if (radius.errors.length > 0 || radius.value === undefined) return { ...radius, warnings };
  if (radius.value > REVERSE_RADIUS_KM.max)
    return clean(REVERSE_RADIUS_KM.max, [...warnings, messages.clamped(RADIUS, REVERSE_RADIUS_KM.max)]);
  if (radius.value < REVERSE_RADIUS_KM.min)
    return clean(REVERSE_RADIUS_KM.min, [...warnings, messages.clampedUp(RADIUS, REVERSE_RADIUS_KM.min)]);
  return clean(radius.value, warnings);
};
