/**
 * Driving a car, after OSRM `profiles/car.lua`: the speed of each highway class, capped by
 * 80 % of `maxspeed` and by surface, tracktype and smoothness; motorcar > motor_vehicle >
 * vehicle > access, with private, destination, delivery and customers roads restricted (used to
 * reach a destination on them, at a penalty for entering them); the car's size against height,
 * width, length and weight limits; oneways (implied on motorways and roundabouts); barriers; turn
 * restrictions; ferries and shuttle trains (`route=ferry`, `route=shuttle_train`); movable bridges.
 */
import { accessVerdict, firstTagValue, type AccessRules, type AccessVerdict, type Direction, type WayAccess } from './access.js';
import { nodePassage } from './barriers.js';
import { parseDuration } from './duration.js';
import { parseMaxspeed } from './maxspeed.js';
import { parseOneway } from './oneway.js';
import { usable, type Profile, type WayTravel } from './profile.js';
import { restrictionKind } from './restrictions.js';
import { exceedsLimits, parseMetres, type VehicleSize } from './vehicle-size.js';
import { classMask } from '../../../core/routing/network.js';
import {
  applyOneway,
  directionKmh,
  ferryTravel,
  isArea,
  isImpliedOneway,
  isUnusableWay,
  limitSpeed,
  tableValue,
  travelAlong,
  type TagTables,
} from './ways.js';
import type { Tags } from '../../osm/tags.js';

const VEHICLE_KEYS = ['motorcar', 'motor_vehicle', 'vehicle'] as const;

const ONEWAY_KEYS = [...VEHICLE_KEYS.map((key) => `oneway:${key}`), 'oneway'];
const MAXSPEED_KEYS = ['maxspeed'];

const ACCESS: AccessRules = {
  hierarchy: [...VEHICLE_KEYS, 'access'],
  allowed: new Set(['yes', 'motorcar', 'motor_vehicle', 'vehicle', 'permissive', 'designated', 'hov']),
  forbidden: new Set(['no', 'agricultural', 'forestry', 'emergency', 'psv']),
  // OSRM car.lua `restricted_access_tag_list`; closed like `forbidden` off the road classes below.
  restricted: new Set(['private', 'delivery', 'destination', 'customers']),
};

/** OSRM car.lua's default car (`vehicle_height`, `vehicle_width`, `vehicle_length`, `vehicle_weight`). */
const CAR: VehicleSize = { heightMetres: 2, widthMetres: 1.9, lengthMetres: 4.8, weightKg: 2000 };

/**
 * km/h by `highway` (OSRM car.lua `speeds.highway`). These are also the classes on which a
 * restricted access value restricts rather than closes (OSRM `restricted_highway_whitelist`).
 */
const ROAD_KMH: Readonly<Record<string, number>> = {
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
const SPEEDS: TagTables = { highway: ROAD_KMH };

/**
 * km/h on the `route` ways a car boards (OSRM car.lua `route_speeds`): car ferries and shuttle
 * trains (car-carrying trains, `route=shuttle_train`). Both are timed by `duration` when they have
 * one and both are reported in mode "ferry", as OSRM's `WayHandlers.ferries` does (v6 sets
 * `mode.ferry` for every route of `route_speeds`; its `train` mode is not used by car.lua).
 */
const ROUTE_KMH: Readonly<Record<string, number>> = { ferry: 5, shuttle_train: 10 };

/**
 * km/h on a movable bridge, whatever the road (OSRM car.lua `bridge_speeds`, `WayHandlers.movables`):
 * the time waiting for it to close, unless a `duration` times the whole way. car.lua's test of
 * `capacity:car` compares a string with 0 and so never closes a bridge; it is not read here either.
 */
const BRIDGE_KMH: Readonly<Record<string, number>> = { movable: 5 };

/** A highway class outside the table that an access tag opens to cars (e.g. `highway=track` + `motor_vehicle=yes`). */
const DEFAULT_KMH = 10;

/** Posted limits are rarely reached: OSRM `speed_reduction`. */
const MAXSPEED_FACTOR = 0.8;

/** Caps by road condition (OSRM car.lua surface_speeds, tracktype_speeds, smoothness_speeds). */
const SPEED_LIMITS: TagTables = {
  surface: {
    cement: 80,
    compacted: 80,
    fine_gravel: 80,
    paving_stones: 60,
    metal: 60,
    bricks: 60,
    grass: 40,
    wood: 40,
    sett: 40,
    grass_paver: 40,
    gravel: 40,
    unpaved: 40,
    ground: 40,
    dirt: 40,
    pebblestone: 40,
    tartan: 40,
    cobblestone: 30,
    clay: 30,
    earth: 20,
    stone: 20,
    rocky: 20,
    sand: 20,
    mud: 10,
  },
  tracktype: { grade1: 60, grade2: 40, grade3: 30, grade4: 25, grade5: 20 },
  smoothness: { intermediate: 80, bad: 40, very_bad: 20, horrible: 10, very_horrible: 5 },
};

/** Barriers a car passes (OSRM car.lua `barrier_whitelist`); every other barrier stops it. */
const PASSABLE_BARRIERS = new Set([
  'cattle_grid',
  'border_control',
  'toll_booth',
  'sally_port',
  'gate',
  'lift_gate',
  'no',
  'entrance',
  'height_restrictor',
  'arch',
]);

/** Whether a barrier stops a car (OSRM car.lua `process_node`). */
function stopsCar(barrier: string, node: Tags): boolean {
  const clearance = barrier === 'height_restrictor' ? parseMetres(node.maxheight) : undefined;
  if (clearance !== undefined && clearance < CAR.heightMetres) return true;
  const kerb = node.kerb;
  // A lowered or flush kerb is driven over, and so is a crossing's kerb mapped on the road's node.
  const flat = kerb === 'lowered' || kerb === 'flush' || (barrier === 'kerb' && node.highway === 'crossing');
  return !PASSABLE_BARRIERS.has(barrier) && node.bollard !== 'rising' && !flat;
}

/** `hov=designated`, or every lane of the direction for high-occupancy vehicles: restricted (OSRM `WayHandlers.hov`). */
function isHovOnly(tags: Tags, direction: Direction): boolean {
  const lanes = firstTagValue(tags, ['hov:lanes'], direction);
  return tags.hov === 'designated' || (lanes?.split('|').every((lane) => lane === 'designated') ?? false);
}

/**
 * Access in each direction: closed where the car is too big for the way, and where a restricted
 * value stands on a way that is no road class (a private track or ferry).
 */
function carAccess(tags: Tags): WayAccess {
  const onRoad = Object.hasOwn(ROAD_KMH, tags.highway ?? '');
  const verdict = (direction: Direction): AccessVerdict => {
    if (exceedsLimits(tags, CAR, direction)) return 'forbidden';
    const access = accessVerdict(tags, ACCESS, direction);
    return access === 'restricted' && !onRoad ? 'forbidden' : access;
  };
  return { forward: verdict('forward'), backward: verdict('backward') };
}

function directionSpeed(tags: Tags, classKmh: number, direction: Direction): number {
  const maxspeed = parseMaxspeed(firstTagValue(tags, MAXSPEED_KEYS, direction));
  const kmh = maxspeed === undefined ? classKmh : Math.min(classKmh, maxspeed * MAXSPEED_FACTOR);
  return limitSpeed(kmh, tags, SPEED_LIMITS);
}

const MOTORWAY_CLASS = classMask(['motorway']);
const TOLL_CLASS = classMask(['toll']);

/**
 * Adds the classes a car's direction has beyond ferry (OSRM car.lua `classes`, WayHandlers.classes):
 * motorway on highway=motorway and motorway_link, toll where `toll:<direction>` or `toll` is yes.
 */
function withCarClasses(travel: WayTravel, tags: Tags): WayTravel {
  const highway = tags.highway;
  const motorway = highway === 'motorway' || highway === 'motorway_link' ? MOTORWAY_CLASS : 0;
  for (const direction of ['forward', 'backward'] as const) {
    const along = travel[direction];
    const toll = firstTagValue(tags, ['toll'], direction) === 'yes' ? TOLL_CLASS : 0;
    if (along !== null) travel[direction] = { ...along, classes: (along.classes ?? 0) | motorway | toll };
  }
  return travel;
}

/** OSRM car.lua `service_access_tag_blacklist`: a highway=service whose forwards access is one of these is no start point. */
const SERVICE_ACCESS_NO_START = new Set(['private']);

function way(tags: Tags): WayTravel | undefined {
  const travel = roadTravel(tags);
  if (travel === undefined) return undefined;
  // OSRM WayHandlers.startpoint: a route neither starts nor ends on a private service road it need not use.
  if (tags.highway === 'service' && SERVICE_ACCESS_NO_START.has(firstTagValue(tags, ACCESS.hierarchy, 'forward') ?? '')) {
    travel.noStart = true;
  }
  return withCarClasses(travel, tags);
}

function roadTravel(tags: Tags): WayTravel | undefined {
  const routeKmh = tableValue(tags, { route: ROUTE_KMH });
  // OSRM's car reads ways with a highway or route tag only, and never takes steps or emergency access roads.
  if (isUnusableWay(tags) || isArea(tags) || !(tags.highway !== undefined || routeKmh !== undefined)) return undefined;
  if (tags.highway === 'steps' || tags.service === 'emergency_access') return undefined;
  const access = carAccess(tags);
  if (routeKmh !== undefined) return ferryTravel(tags, access, routeKmh);
  const kmh = directionKmh(tags, SPEEDS, access, DEFAULT_KMH);
  const oneway = parseOneway(firstTagValue(tags, ONEWAY_KEYS));
  if (kmh === undefined || oneway === 'reversible') return undefined;
  // A movable bridge replaces the road's speed (OSRM `WayHandlers.movables`, before `speed`), or
  // its `duration` the whole way's time; maxspeed and surface still cap the bridge's speed as
  // they cap a road's. car.lua's movables handler also reopens a direction a oneway closed;
  // Waymark keeps the oneway (docs/ROUTING.md, "Where Waymark differs from OSRM").
  const bridgeKmh = tableValue(tags, { bridge: BRIDGE_KMH });
  const travel = travelAlong(kmh, (classKmh, direction) => ({
    kmh: directionSpeed(tags, bridgeKmh ?? classKmh, direction),
    travel: 'default',
    restricted: access[direction] === 'restricted' || isHovOnly(tags, direction),
  }));
  applyOneway(travel, oneway ?? (isImpliedOneway(tags) ? 'forward' : undefined));
  const duration = bridgeKmh === undefined ? undefined : parseDuration(tags.duration);
  if (duration !== undefined) travel.durationSeconds = duration;
  return usable(travel);
}

export const driving: Profile = {
  mode: 'driving',
  osmFilter: [
    'w/highway',
    `w/route=${Object.keys(ROUTE_KMH).join(',')}`,
    'n/barrier',
    `n/${ACCESS.hierarchy.join(',')}`,
    'r/type=restriction',
  ],
  way,
  node: (tags) => nodePassage(tags, { access: ACCESS, stops: stopsCar }),
  turnRestriction: (tags) => restrictionKind(tags, VEHICLE_KEYS),
};
