/**
 * The query parameters of OSRM's services: which ones Waymark reads, which it takes and ignores,
 * and which it refuses as unsupported (named in a 400), plus the ones every service shares.
 */
import { quoted } from '../../http/params/messages.js';
import { flag } from '../../http/params/choice.js';
import { osrmError } from './errors.js';

export type OsrmService = 'route' | 'table' | 'nearest' | 'match' | 'trip';

/** Read by each service's request builder (requests.ts). */
const READ: Record<OsrmService, readonly string[]> = {
  route: ['alternatives', 'steps', 'geometries', 'overview', 'annotations', 'continue_straight', 'waypoints', 'exclude'],
  table: ['sources', 'destinations', 'annotations', 'exclude'],
  nearest: ['number'],
  match: ['steps', 'geometries', 'overview', 'annotations', 'timestamps', 'radiuses', 'gaps', 'tidy', 'waypoints', 'exclude'],
  // `continue_straight` is taken and has no effect, as in OSRM's trip (its legs never keep straight on).
  trip: ['roundtrip', 'source', 'destination', 'steps', 'geometries', 'overview', 'annotations', 'continue_straight', 'exclude'],
};
/**
 * Every service places its coordinates by these (one `;`-separated entry per coordinate, osrm/snapping.ts);
 * `hints` are OSRM's snapping caches, answered per waypoint unless `generate_hints=false`. `key` is the gateway's.
 */
const SHARED = ['bearings', 'radiuses', 'approaches', 'snapping', 'hints', 'generate_hints', 'skip_waypoints', 'key'];

/** OSRM options the engine has no counterpart for (in the services that do not read them), with what is missing. */
const UNSUPPORTED: Record<string, string> = {
  exclude: 'the nearest service does not exclude road classes',
  fallback_speed: 'unreachable pairs are null, never estimated',
  fallback_coordinate: 'unreachable pairs are null, never estimated',
  scale_factor: 'durations are not scaled',
};

/** What every service shares. */
export interface SharedOptions {
  /** `skip_waypoints=true`: the body leaves out its waypoint lists. */
  skipWaypoints: boolean;
  /** `generate_hints` (default true): each waypoint carries its hint. */
  generateHints: boolean;
}

/** A `true`/`false` OSRM option (Waymark's `flag` check, with OSRM's code); `fallback` when absent. */
function osrmFlag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const { value, errors } = flag(name, fallback)(query);
  if (errors.length > 0) throw osrmError('InvalidValue', errors.join('; '));
  return value;
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
  return { skipWaypoints: osrmFlag(query, 'skip_waypoints', false), generateHints: osrmFlag(query, 'generate_hints', true) };
}
