/** Way rules every mode shares (OSRM `WayHandlers.blocked_ways`, `avoid_ways`, `speed`, `ferries`, `surface`). */
import type { AccessVerdict, Direction, WayAccess } from './access.js';
import { parseDuration } from './duration.js';
import type { Oneway } from './oneway.js';
import { usable, type DirectionTravel, type WayTravel } from './profile.js';
import { classMask, GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP } from '../../../core/routing/network.js';
import type { Tags } from '../../osm/tags.js';

/** `construction=*` values on a highway that still carries traffic. */
const MINOR_CONSTRUCTION = new Set(['no', 'widening', 'minor']);

/**
 * Impassable ways and ways (or railways) under construction or only proposed: no mode uses them.
 * Areas (`area=yes`) are left to each profile: cars leave them out, walkers and cyclists go along
 * their outline (OSRM `WayHandlers.blocked_ways` with `avoid.area` in car.lua only).
 */
export function isUnusableWay(tags: Tags): boolean {
  const highway = tags.highway;
  const construction = tags.construction;
  return (
    highway === 'construction' ||
    tags.railway === 'construction' ||
    highway === 'proposed' ||
    tags.proposed !== undefined ||
    (construction !== undefined && !MINOR_CONSTRUCTION.has(construction)) ||
    tags.impassable === 'yes' ||
    tags.status === 'impassable' ||
    tags.smoothness === 'impassable'
  );
}

/** A closed way mapped as an area (a square, a car park): OSRM's car leaves it out (`avoid.area`). */
export const isArea = (tags: Tags) => tags.area === 'yes';

/** The way's `highway` value, undefined for none or an empty one (OSRM reads `highway=""` as no highway). */
export function highwayOf(tags: Tags): string | undefined {
  const highway = tags.highway;
  return highway === '' ? undefined : highway;
}

export const isRoundabout = (tags: Tags) => {
  const junction = tags.junction;
  return junction === 'roundabout' || junction === 'circular';
};

/** Oneway without a `oneway` tag (OSM wiki Key:oneway; OSRM does not imply it on motorway_link). */
export const isImpliedOneway = (tags: Tags) => tags.highway === 'motorway' || isRoundabout(tags);

/**
 * A bridge or a tunnel: the way runs above or below the ground the DEMs describe, so the slope of
 * that ground is not the way's. A boardwalk (`bridge=boardwalk`) and a passage through a building
 * (`tunnel=building_passage`) stay on the ground.
 */
export function isOffGround(tags: Tags): boolean {
  const bridge = tags.bridge;
  const tunnel = tags.tunnel;
  return (
    (bridge !== undefined && bridge !== 'no' && bridge !== 'boardwalk') ||
    (tunnel !== undefined && tunnel !== 'no' && tunnel !== 'building_passage')
  );
}

/** What the network keeps of a way whatever the mode. */
export function wayLabels(tags: Tags): {
  name: string;
  ref: string;
  pronunciation: string;
  roundabout: boolean;
  offGround: boolean;
  guidance: number;
} {
  return {
    name: tags.name ?? '',
    ref: tags.ref ?? '',
    pronunciation: tags['name:pronunciation'] ?? '',
    roundabout: isRoundabout(tags),
    offGround: isOffGround(tags),
    guidance: roadClassification(tags),
  };
}

/** OSRM lib/guidance.lua `road_types`: the road classes; any other way may be ignored (`may_be_ignored`). */
const ROAD_TYPES = new Set([
  'motorway',
  'motorway_link',
  'trunk',
  'trunk_link',
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
]);

/**
 * GUIDANCE_RAMP, GUIDANCE_MOTORWAY and GUIDANCE_LOW_PRIORITY by `highway`, for every mode (OSRM
 * `Guidance.set_classification`: motorway_class, link_class, may_be_ignored).
 */
function roadClassification(tags: Tags): number {
  const highway = tags.highway ?? '';
  const lowPriority = ROAD_TYPES.has(highway) ? 0 : GUIDANCE_LOW_PRIORITY;
  if (highway === 'motorway_link' || highway === 'trunk_link') return GUIDANCE_RAMP;
  return (highway === 'motorway' || highway === 'trunk' ? GUIDANCE_MOTORWAY : 0) | lowPriority;
}

export const isFerry = (tags: Tags) => tags.route === 'ferry';

const FERRY_CLASS = classMask(['ferry']);

/** Ferry speed without a `duration` (OSRM `route_speeds.ferry`). */
export const FERRY_KMH = 5;

/** `along` in each direction the mode's access does not forbid. */
export function allowedDirections(access: WayAccess, along: DirectionTravel): WayTravel {
  return { forward: access.forward === 'forbidden' ? null : along, backward: access.backward === 'forbidden' ? null : along };
}

/**
 * Values by tag and value, the first tag of the table the way carries deciding (OSRM
 * `Tags.get_constant_by_key_value`): { highway: { residential: 25, … }, man_made: { pier: 5 } }.
 */
export type TagTables = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** The value `tables` give the way, or undefined when none of its tags is in them. */
export function tableValue(tags: Tags, tables: TagTables): number | undefined {
  for (const key in tables) {
    const value = tags[key];
    if (value !== undefined && Object.hasOwn(tables[key]!, value)) return tables[key]![value];
  }
  return undefined;
}

/** km/h in each direction of a way; null where the mode may not go. */
export interface DirectionKmh {
  forward: number | null;
  backward: number | null;
}

/**
 * The speed of each direction the mode may use: on a kind of way in `speeds`, its speed in every
 * direction access does not forbid; on any other kind, `defaultKmh` in each direction an allowed
 * access value opens, and in that direction only (OSRM `WayHandlers.speed`: "unknown way, but valid
 * access tag"). Undefined when no direction is left.
 */
export function directionKmh(tags: Tags, speeds: TagTables, access: WayAccess, defaultKmh: number): DirectionKmh | undefined {
  const kmh = tableValue(tags, speeds);
  const open = (verdict: AccessVerdict) =>
    kmh === undefined ? (verdict === 'allowed' ? defaultKmh : null) : verdict === 'forbidden' ? null : kmh;
  const forward = open(access.forward);
  const backward = open(access.backward);
  return forward === null && backward === null ? undefined : { forward, backward };
}

/** The travel in each direction `kmh` opens, as `along` makes it from that direction's speed. */
export function travelAlong(kmh: DirectionKmh, along: (kmh: number, direction: Direction) => DirectionTravel): WayTravel {
  return {
    forward: kmh.forward === null ? null : along(kmh.forward, 'forward'),
    backward: kmh.backward === null ? null : along(kmh.backward, 'backward'),
  };
}

/**
 * A ferry (or another `route` the mode boards, at `kmh`: a car's shuttle train) in the directions
 * `access` allows, timed by its `duration` when it has one (OSRM `WayHandlers.ferries`).
 */
export function ferryTravel(tags: Tags, access: WayAccess, kmh = FERRY_KMH): WayTravel | undefined {
  // Only route=ferry is of class ferry (OSRM's WayHandlers.classes): a car's shuttle train is not.
  const travel = allowedDirections(access, { kmh, travel: 'ferry', classes: isFerry(tags) ? FERRY_CLASS : 0 });
  const duration = parseDuration(tags.duration);
  if (duration !== undefined) travel.durationSeconds = duration;
  return usable(travel);
}

/** Closes the direction a oneway forbids (`both` and `reversible` close nothing here). */
export function applyOneway(travel: WayTravel, oneway: Oneway | undefined): void {
  if (oneway === 'forward') travel.backward = null;
  else if (oneway === 'backward') travel.forward = null;
}

/** The lowest of `kmh` and the limits the way's tags set in `tables` (surface, tracktype…). */
export function limitSpeed(kmh: number, tags: Tags, tables: TagTables): number {
  let limited = kmh;
  for (const key in tables) {
    const value = tags[key];
    const limit = value === undefined ? undefined : tables[key]![value];
    if (limit !== undefined && limit < limited) limited = limit;
  }
  return limited;
}
