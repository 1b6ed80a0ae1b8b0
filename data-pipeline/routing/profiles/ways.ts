/** Way rules every mode shares (OSRM `WayHandlers.blocked_ways`, `avoid_ways`, `ferries`, `surface`). */
import { wayAccess, type AccessRules, type WayAccess } from './access.js';
import { parseDuration } from './duration.js';
import type { Oneway } from './oneway.js';
import { usable, type DirectionTravel, type Tags, type WayTravel } from './profile.js';

/** `construction=*` values on a highway that still carries traffic. */
const MINOR_CONSTRUCTION = new Set(['no', 'widening', 'minor']);

/** Areas (squares), impassable ways and ways under construction or only proposed: no mode uses them. */
export function isUnusableWay(tags: Tags): boolean {
  const highway = tags.get('highway');
  const construction = tags.get('construction');
  return (
    tags.get('area') === 'yes' ||
    highway === 'construction' ||
    highway === 'proposed' ||
    tags.has('proposed') ||
    (construction !== undefined && !MINOR_CONSTRUCTION.has(construction)) ||
    tags.get('impassable') === 'yes' ||
    tags.get('status') === 'impassable' ||
    tags.get('smoothness') === 'impassable'
  );
}

export const isRoundabout = (tags: Tags) => {
  const junction = tags.get('junction');
  return junction === 'roundabout' || junction === 'circular';
};

/** Oneway without a `oneway` tag (OSM wiki Key:oneway; OSRM does not imply it on motorway_link). */
export const isImpliedOneway = (tags: Tags) => tags.get('highway') === 'motorway' || isRoundabout(tags);

/** What the network keeps of a way whatever the mode. */
export function wayLabels(tags: Tags): { name: string; ref: string; roundabout: boolean } {
  return { name: tags.get('name') ?? '', ref: tags.get('ref') ?? '', roundabout: isRoundabout(tags) };
}

export const isFerry = (tags: Tags) => tags.get('route') === 'ferry';

/** Ferry speed without a `duration` (OSRM `route_speeds.ferry`). */
export const FERRY_KMH = 5;

/** `along` in each direction the mode's access does not forbid. */
export function allowedDirections(access: WayAccess, along: DirectionTravel): WayTravel {
  return { forward: access.forward === 'forbidden' ? null : along, backward: access.backward === 'forbidden' ? null : along };
}

/**
 * The speed of the way's highway class in `table`; for a class not in it, `defaultKmh` when an
 * allowed access value opens the way to the mode (OSRM: "unknown way, but valid access tag").
 */
export function classKmh(tags: Tags, table: Readonly<Record<string, number>>, access: WayAccess, defaultKmh: number): number | undefined {
  return table[tags.get('highway') ?? ''] ?? (access.forward === 'allowed' || access.backward === 'allowed' ? defaultKmh : undefined);
}

/** A ferry in the directions the mode's access allows, timed by its `duration` when it has one. */
export function ferryTravel(tags: Tags, rules: AccessRules): WayTravel | undefined {
  const travel = allowedDirections(wayAccess(tags, rules), { kmh: FERRY_KMH, travel: 'ferry' });
  const duration = parseDuration(tags.get('duration'));
  if (duration !== undefined) travel.durationSeconds = duration;
  return usable(travel);
}

/** Closes the direction a oneway forbids (`both` and `reversible` close nothing here). */
export function applyOneway(travel: WayTravel, oneway: Oneway | undefined): void {
  if (oneway === 'forward') travel.backward = null;
  else if (oneway === 'backward') travel.forward = null;
}

/** Speed limits by the value of a tag: { surface: { gravel: 6, … }, tracktype: { … } }. */
export type SpeedLimitTables = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** The lowest of `kmh` and the limits the way's tags set in `tables`. */
export function limitSpeed(kmh: number, tags: Tags, tables: SpeedLimitTables): number {
  let limited = kmh;
  for (const key in tables) {
    const value = tags.get(key);
    const limit = value === undefined ? undefined : tables[key]![value];
    if (limit !== undefined && limit < limited) limited = limit;
  }
  return limited;
}
