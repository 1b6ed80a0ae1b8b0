/**
 * Driving a car, after OSRM `profiles/car.lua`: the speed of each highway class, capped by
 * 80 % of `maxspeed` and by surface, tracktype and smoothness; motorcar > motor_vehicle >
 * vehicle > access; oneways (implied on motorways and roundabouts); barriers; turn restrictions.
 */
import { firstTagValue, wayAccess, type AccessRules, type Direction } from './access.js';
import { barrierBlocks } from './barriers.js';
import { parseMaxspeed } from './maxspeed.js';
import { parseOneway } from './oneway.js';
import { usable, type Profile, type Tags, type WayTravel } from './profile.js';
import { restrictionKind } from './restrictions.js';
import { applyOneway, classKmh, ferryTravel, isFerry, isImpliedOneway, isUnusableWay, limitSpeed, type SpeedLimitTables } from './ways.js';

const VEHICLE_KEYS = ['motorcar', 'motor_vehicle', 'vehicle'] as const;

const ONEWAY_KEYS = [...VEHICLE_KEYS.map((key) => `oneway:${key}`), 'oneway'];
const MAXSPEED_KEYS = ['maxspeed'];

const ACCESS: AccessRules = {
  hierarchy: [...VEHICLE_KEYS, 'access'],
  allowed: new Set(['yes', 'motorcar', 'motor_vehicle', 'vehicle', 'permissive', 'designated', 'hov']),
  // OSRM keeps `private` roads routable behind a turn penalty; without turn weights, Waymark closes them.
  forbidden: new Set(['no', 'private', 'agricultural', 'forestry', 'emergency', 'psv']),
};

/** km/h by `highway` (OSRM car.lua `speeds.highway`). */
const HIGHWAY_KMH: Readonly<Record<string, number>> = {
  motorway: 90,
  motorway_link: 45,
  trunk: 85,
  trunk_link: 40,
  primary: 65,
  primary_link: 30,
  secondary: 55,
  secondary_link: 25,
  tertiary: 40,
  tertiary_link: 20,
  unclassified: 25,
  residential: 25,
  living_street: 10,
  service: 15,
};

/** A highway class outside the table that an access tag opens to cars (e.g. `highway=track` + `motor_vehicle=yes`). */
const DEFAULT_KMH = 10;

/** Posted limits are rarely reached: OSRM `speed_reduction`. */
const MAXSPEED_FACTOR = 0.8;

/** Caps by road condition (OSRM car.lua surface_speeds, tracktype_speeds, smoothness_speeds). */
const SPEED_LIMITS: SpeedLimitTables = {
  surface: {
    cement: 80, compacted: 80, fine_gravel: 80,
    paving_stones: 60, metal: 60, bricks: 60,
    grass: 40, wood: 40, sett: 40, grass_paver: 40, gravel: 40, unpaved: 40, ground: 40, dirt: 40, pebblestone: 40, tartan: 40,
    cobblestone: 30, clay: 30,
    earth: 20, stone: 20, rocky: 20, sand: 20,
    mud: 10,
  },
  tracktype: { grade1: 60, grade2: 40, grade3: 30, grade4: 25, grade5: 20 },
  smoothness: { intermediate: 80, bad: 40, very_bad: 20, horrible: 10, very_horrible: 5 },
};

/** Barriers a car passes (OSRM car.lua `barrier_whitelist`); every other barrier stops it. */
const PASSABLE_BARRIERS = new Set(['cattle_grid', 'border_control', 'toll_booth', 'sally_port', 'gate', 'lift_gate', 'no', 'entrance', 'height_restrictor']);

function directionKmh(tags: Tags, classKmh: number, direction: Direction): number {
  const maxspeed = parseMaxspeed(firstTagValue(tags, MAXSPEED_KEYS, direction));
  const kmh = maxspeed === undefined ? classKmh : Math.min(classKmh, maxspeed * MAXSPEED_FACTOR);
  return limitSpeed(kmh, tags, SPEED_LIMITS);
}

function way(tags: Tags): WayTravel | undefined {
  if (isUnusableWay(tags)) return undefined;
  if (isFerry(tags)) return ferryTravel(tags, ACCESS);
  const access = wayAccess(tags, ACCESS);
  const kmh = classKmh(tags, HIGHWAY_KMH, access, DEFAULT_KMH);
  if (kmh === undefined) return undefined;
  const oneway = parseOneway(firstTagValue(tags, ONEWAY_KEYS));
  if (oneway === 'reversible') return undefined;
  const travel: WayTravel = {
    forward: access.forward === 'forbidden' ? null : { kmh: directionKmh(tags, kmh, 'forward'), travel: 'default' },
    backward: access.backward === 'forbidden' ? null : { kmh: directionKmh(tags, kmh, 'backward'), travel: 'default' },
  };
  applyOneway(travel, oneway ?? (isImpliedOneway(tags) ? 'forward' : undefined));
  return usable(travel);
}

export const driving: Profile = {
  mode: 'driving',
  way,
  blocks: (tags) => barrierBlocks(tags, ACCESS, (barrier, node) => !PASSABLE_BARRIERS.has(barrier) && node.get('bollard') !== 'rising'),
  turnRestriction: (tags) => restrictionKind(tags, VEHICLE_KEYS),
};
