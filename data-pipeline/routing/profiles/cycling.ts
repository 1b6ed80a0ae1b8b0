/**
 * Cycling, after OSRM `profiles/bicycle.lua`: 15 km/h on roads and cycleways (12 on tracks and
 * paths), slower on poor surfaces and tracktypes; bicycle > vehicle > access; pushing at walking
 * pace along footways, pedestrian streets, steps, piers, ways open to walkers and against oneways,
 * where walking is allowed; `oneway:bicycle` and contraflow lanes (`cycleway=opposite*`) open
 * oneways to bicycles. Platforms, car parks and movable bridges are ridden too, areas (`area=yes`)
 * along their outline, and a bicycle is carried on a railway where bicycle access allows it.
 */
import { accessVerdict, wayAccess, type AccessRules, type AccessVerdict, type WayAccess } from './access.js';
import { nodePassage } from './barriers.js';
import { parseDuration } from './duration.js';
import { parseOneway, type Oneway } from './oneway.js';
import { usable, type DirectionTravel, type Profile, type WayTravel } from './profile.js';
import { FOOT_ACCESS } from './walking.js';
import {
  allowedDirections,
  applyOneway,
  directionKmh,
  ferryTravel,
  highwayOf,
  isFerry,
  isImpliedOneway,
  isRoundabout,
  isUnusableWay,
  limitSpeed,
  tableValue,
  travelAlong,
  type TagTables,
} from './ways.js';
import type { Tags } from '../../osm/tags.js';

const ACCESS: AccessRules = {
  hierarchy: ['bicycle', 'vehicle', 'access'],
  allowed: new Set(['yes', 'permissive', 'designated']),
  forbidden: new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath']),
};

const DEFAULT_KMH = 15;

/** `bridge=movable` without a `duration` (OSRM bicycle.lua `bridge_speeds`). */
const MOVABLE_BRIDGE = { movable: 5 };

/** Pushing pace (OSRM bicycle.lua `walking_speed`). */
const PUSHING_KMH = 4;

/**
 * km/h riding, by kind of way, the first key the way carries deciding, in the order of OSRM
 * bicycle.lua's `speed_handler`: a movable bridge (`bridge_speeds`), a railway or public-transport
 * platform (`platform_speeds`, at walking pace but riding), a car park (`amenity_speeds`), then
 * `bicycle_speeds`. Closed ways (squares, car parks, platforms) are ridden along their outline.
 */
const RIDING_SPEEDS: TagTables = {
  bridge: MOVABLE_BRIDGE,
  railway: { platform: PUSHING_KMH },
  public_transport: { platform: PUSHING_KMH },
  amenity: { parking: 10, parking_entrance: 10 },
  highway: {
    cycleway: DEFAULT_KMH,
    primary: DEFAULT_KMH,
    primary_link: DEFAULT_KMH,
    secondary: DEFAULT_KMH,
    secondary_link: DEFAULT_KMH,
    tertiary: DEFAULT_KMH,
    tertiary_link: DEFAULT_KMH,
    residential: DEFAULT_KMH,
    unclassified: DEFAULT_KMH,
    living_street: DEFAULT_KMH,
    road: DEFAULT_KMH,
    service: DEFAULT_KMH,
    track: 12,
    path: 12,
  },
};

/** Railways a bicycle is carried on where bicycle access allows it (OSRM bicycle.lua `railway_speeds`), at 10 km/h. */
const RAILWAYS = new Set(['train', 'railway', 'subway', 'light_rail', 'monorail', 'tram']);
const TRAIN_KMH = 10;

/** OSRM bicycle.lua reads a way only when it has one of these tags (`handle_bicycle_tags`); an empty value counts as none. */
const WAY_KEYS = ['highway', 'route', 'railway', 'amenity', 'man_made', 'public_transport', 'bridge'];

/** km/h pushing, by kind of way, on ways a cyclist may not ride by default (OSRM `pedestrian_speeds`, `man_made_speeds`). */
const PUSHING_SPEEDS: TagTables = {
  highway: { footway: PUSHING_KMH, pedestrian: PUSHING_KMH, steps: 2 },
  man_made: { pier: PUSHING_KMH },
};

/** Caps by road condition (OSRM bicycle.lua surface_speeds; tracktype: Waymark's own, see docs/ROUTING.md). */
const SPEED_LIMITS: TagTables = {
  surface: {
    'cobblestone:flattened': 10,
    paving_stones: 10,
    compacted: 10,
    fine_gravel: 10,
    ground: 10,
    sett: 9,
    dirt: 8,
    cobblestone: 6,
    unpaved: 6,
    gravel: 6,
    pebblestone: 6,
    earth: 6,
    grass: 6,
    mud: 3,
    sand: 3,
    woodchips: 3,
  },
  tracktype: { grade1: 15, grade2: 12, grade3: 8, grade4: 6, grade5: 4 },
};

const BLOCKING_BARRIERS = new Set(['yes', 'wall', 'fence']);

const CONTRAFLOW_KEYS = ['cycleway', 'cycleway:left', 'cycleway:right', 'cycleway:both'];

/** A lane or track against the traffic of a oneway (`cycleway=opposite`, `opposite_lane`, `opposite_track`). */
const hasContraflow = (tags: Tags) => CONTRAFLOW_KEYS.some((key) => tags[key]?.startsWith('opposite') === true);

function bicycleOneway(tags: Tags): Oneway | undefined {
  const own = parseOneway(tags['oneway:bicycle']);
  if (own !== undefined) return own;
  const oneway = parseOneway(tags.oneway) ?? (isImpliedOneway(tags) ? 'forward' : undefined);
  return (oneway === 'forward' || oneway === 'backward') && hasContraflow(tags) ? 'both' : oneway;
}

const pushingAt = (kmh: number): DirectionTravel => ({ kmh, travel: 'pushing' });

/**
 * Pushing along a way the cyclist may not ride (OSRM `bike_push_handler`): at the pushing speed of
 * its kind (footway, steps, pier…) or where `bicycle=dismount`; on any other kind only in the
 * directions walkers are let in (a bridleway with `foot=yes`).
 */
function pushing(tags: Tags, access: WayAccess, dismount: boolean): WayTravel | undefined {
  const kmh = tableValue(tags, PUSHING_SPEEDS) ?? (dismount ? PUSHING_KMH : undefined);
  if (kmh !== undefined) return usable(allowedDirections(access, pushingAt(kmh)));
  const walkers = wayAccess(tags, FOOT_ACCESS);
  const open = (walker: AccessVerdict, cyclist: AccessVerdict) => walker === 'allowed' && cyclist !== 'forbidden';
  return usable({
    forward: open(walkers.forward, access.forward) ? pushingAt(PUSHING_KMH) : null,
    backward: open(walkers.backward, access.backward) ? pushingAt(PUSHING_KMH) : null,
  });
}

/**
 * Carried on a train (travel `train`, OSRM mode `train`): a railway of `RAILWAYS` in each direction
 * bicycle access allows (`bicycle=yes`), oneways applied. Only a railway without a `highway` tag:
 * a street mapped on the same way as its tram line is ridden as a street (OSRM takes the train).
 */
function train(tags: Tags, access: WayAccess): WayTravel | undefined {
  if (highwayOf(tags) !== undefined || !RAILWAYS.has(tags.railway ?? '')) return undefined;
  const carried = (verdict: AccessVerdict): DirectionTravel | null => (verdict === 'allowed' ? { kmh: TRAIN_KMH, travel: 'train' } : null);
  const travel: WayTravel = { forward: carried(access.forward), backward: carried(access.backward) };
  applyOneway(travel, bicycleOneway(tags));
  return usable(travel);
}

function way(tags: Tags): WayTravel | undefined {
  if (!WAY_KEYS.some((key) => (tags[key] ?? '') !== '') || isUnusableWay(tags)) return undefined;
  const access = wayAccess(tags, ACCESS);
  if (isFerry(tags)) return ferryTravel(tags, access);
  const onTrain = train(tags, access);
  if (onTrain !== undefined) return onTrain;
  const mayPush = !isRoundabout(tags) && accessVerdict(tags, FOOT_ACCESS) !== 'forbidden';
  const dismount = tags.bicycle === 'dismount';
  const ride = directionKmh(tags, RIDING_SPEEDS, access, DEFAULT_KMH);
  if (ride === undefined || dismount) return mayPush ? pushing(tags, access, dismount) : undefined;
  const travel = travelAlong(ride, (kmh) => ({ kmh: limitSpeed(kmh, tags, SPEED_LIMITS), travel: 'default' }));
  // `reversible` and `alternating` close nothing for bicycles (OSRM bicycle.lua reads only yes, -1 and no).
  applyOneway(travel, bicycleOneway(tags));
  // Against a oneway a cyclist may still walk the bicycle.
  if (mayPush) {
    if (travel.forward === null && access.forward !== 'forbidden') travel.forward = pushingAt(PUSHING_KMH);
    if (travel.backward === null && access.backward !== 'forbidden') travel.backward = pushingAt(PUSHING_KMH);
  }
  // A movable bridge's `duration` is the time to cross it (OSRM bicycle.lua `speed_handler`).
  const duration = tableValue(tags, { bridge: MOVABLE_BRIDGE }) === undefined ? undefined : parseDuration(tags.duration);
  if (duration !== undefined) travel.durationSeconds = duration;
  return usable(travel);
}

export const cycling: Profile = {
  mode: 'cycling',
  osmFilter: [
    'w/highway',
    'w/route=ferry',
    'w/man_made=pier',
    'w/railway',
    'w/public_transport=platform',
    'w/amenity=parking,parking_entrance',
    'w/bridge=movable',
    'n/barrier',
    `n/${ACCESS.hierarchy.join(',')}`,
  ],
  way,
  node: (tags) => nodePassage(tags, { access: ACCESS, stops: (barrier) => BLOCKING_BARRIERS.has(barrier), crossingAccessIgnored: true }),
  turnRestriction: () => undefined,
};
