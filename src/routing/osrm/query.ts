/**
 * The query parameters of OSRM's services: which ones Waymark reads, which it takes and ignores,
 * and which it refuses as unsupported (named in a 400), plus the ones every service shares.
 */
import { quoted } from '../../http/params/messages.js';
import { flag } from '../../http/params/choice.js';
import { osrmError } from './errors.js';

export type OsrmService = 'route' | 'table' | 'nearest';

/** Read by each service's request builder (requests.ts). */
const READ: Record<OsrmService, readonly string[]> = {
  route: [
    'alternatives',
    'steps',
    'geometries',
    'overview',
    'annotations',
    'continue_straight',
    'bearings',
    'radiuses',
    'snapping',
    'exclude',
  ],
  table: ['sources', 'destinations', 'annotations', 'exclude'],
  nearest: ['number'],
};
/**
 * `hints` are OSRM's opaque snapping caches: Waymark answers none and ignores those sent (as OSRM
 * ignores hints of other data); `generate_hints` is taken for the same reason. `key` is the gateway's.
 */
const SHARED = ['hints', 'generate_hints', 'skip_waypoints', 'key'];

/** OSRM options the engine has no counterpart for (in the services that do not read them), with what is missing. */
const UNSUPPORTED: Record<string, string> = {
  bearings: 'snapping filters by bearing only in the route service',
  radiuses: 'the snapping radius is chosen only in the route service',
  approaches: 'snapping does not pick a side of the road',
  exclude: 'the nearest service does not exclude road classes',
  snapping: 'snapping takes ferries only in the route service',
  waypoints: 'every coordinate of a route is a waypoint',
  fallback_speed: 'unreachable pairs are null, never estimated',
  fallback_coordinate: 'unreachable pairs are null, never estimated',
  scale_factor: 'durations are not scaled',
};

/** What every service shares. */
export interface SharedOptions {
  /** `skip_waypoints=true`: the body leaves out its waypoint lists. */
  skipWaypoints: boolean;
}

/** A `true`/`false` OSRM option (Waymark's `flag` check, with OSRM's code); `fallback` when absent. */
function osrmFlag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const { value, errors } = flag(name, fallback)(query);
  if (errors.length > 0) throw osrmError('InvalidValue', errors.join('; '));
  return value;
}

/** An OSRM option Waymark takes only with the value that matches what it does (`why` says what it does). */
export function onlyValue(query: URLSearchParams, name: string, accepted: readonly string[], why: string): void {
  const raw = query.get(name);
  if (raw !== null && !accepted.includes(raw)) {
    throw osrmError('InvalidOptions', `unsupported parameter '${name}': only ${accepted.join(' or ')} is supported (${why})`);
  }
}

/** Refuses a repeated, unknown or unsupported parameter of `service`, naming it; returns the shared options. */
export function checkOsrmQuery(service: OsrmService, query: URLSearchParams): SharedOptions {
  const known = new Set([...READ[service], ...SHARED]);
  for (const name of new Set(query.keys())) {
    if (!known.has(name) && Object.hasOwn(UNSUPPORTED, name))
      throw osrmError('InvalidOptions', `unsupported parameter '${name}': ${UNSUPPORTED[name]} in Waymark's engine`);
    if (!known.has(name)) throw osrmError('InvalidQuery', `unknown parameter ${quoted(name)} for OSRM's ${service} service`);
    if (name !== 'key' && query.getAll(name).length > 1) throw osrmError('InvalidQuery', `parameter '${name}' may only be given once`);
  }
  osrmFlag(query, 'generate_hints', true);
  return { skipWaypoints: osrmFlag(query, 'skip_waypoints', false) };
}
