/**
 * Cycling, after OSRM `profiles/bicycle.lua`: 15 km/h on roads and cycleways (12 on tracks and
 * paths), slower on poor surfaces and tracktypes; bicycle > vehicle > access; pushing at walking
 * pace along footways, pedestrian streets, steps and against oneways, where walking is allowed;
 * `oneway:bicycle` and contraflow lanes (`cycleway=opposite*`) open oneways to bicycles.
 */
import { accessVerdict, wayAccess, type AccessRules } from './access.js';
import { barrierBlocks } from './barriers.js';
import { parseOneway, type Oneway } from './oneway.js';
import { usable, type DirectionTravel, type Profile, type Tags, type WayTravel } from './profile.js';
import { FOOT_ACCESS } from './walking.js';
import { allowedDirections, applyOneway, classKmh, ferryTravel, isFerry, isImpliedOneway, isRoundabout, isUnusableWay, limitSpeed, type SpeedLimitTables } from './ways.js';

const ACCESS: AccessRules = {
  hierarchy: ['bicycle', 'vehicle', 'access'],
  allowed: new Set(['yes', 'permissive', 'designated']),
  forbidden: new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath']),
};

const DEFAULT_KMH = 15;

/** km/h riding, by `highway` (OSRM bicycle.lua `bicycle_speeds`). */
const HIGHWAY_KMH: Readonly<Record<string, number>> = {
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
};

/** Pushing pace (OSRM bicycle.lua `walking_speed`). */
const PUSHING_KMH = 4;

/** km/h pushing, by `highway`, on ways a cyclist may not ride by default (OSRM `pedestrian_speeds`). */
const PUSHING_HIGHWAY_KMH: Readonly<Record<string, number>> = { footway: PUSHING_KMH, pedestrian: PUSHING_KMH, steps: 2 };

/** Caps by road condition (OSRM bicycle.lua surface_speeds; tracktype: Waymark's own, see docs/ROUTING.md). */
const SPEED_LIMITS: SpeedLimitTables = {
  surface: {
    'cobblestone:flattened': 10, paving_stones: 10, compacted: 10, fine_gravel: 10, ground: 10,
    sett: 9, dirt: 8, cobblestone: 6, unpaved: 6, gravel: 6, pebblestone: 6, earth: 6, grass: 6,
    mud: 3, sand: 3, woodchips: 3,
  },
  tracktype: { grade1: 15, grade2: 12, grade3: 8, grade4: 6, grade5: 4 },
};

const BLOCKING_BARRIERS = new Set(['yes', 'wall', 'fence']);

const CONTRAFLOW_KEYS = ['cycleway', 'cycleway:left', 'cycleway:right', 'cycleway:both'];

/** A lane or track against the traffic of a oneway (`cycleway=opposite`, `opposite_lane`, `opposite_track`). */
const hasContraflow = (tags: Tags) => CONTRAFLOW_KEYS.some((key) => tags.get(key)?.startsWith('opposite') === true);

function bicycleOneway(tags: Tags): Oneway | undefined {
  const own = parseOneway(tags.get('oneway:bicycle'));
  if (own !== undefined) return own;
  const oneway = parseOneway(tags.get('oneway')) ?? (isImpliedOneway(tags) ? 'forward' : undefined);
  return (oneway === 'forward' || oneway === 'backward') && hasContraflow(tags) ? 'both' : oneway;
}

function way(tags: Tags): WayTravel | undefined {
  if (isUnusableWay(tags)) return undefined;
  if (isFerry(tags)) return ferryTravel(tags, ACCESS);
  const access = wayAccess(tags, ACCESS);
  const mayPush = !isRoundabout(tags) && accessVerdict(tags, FOOT_ACCESS) !== 'forbidden';
  const dismount = tags.get('bicycle') === 'dismount';
  const rideKmh = classKmh(tags, HIGHWAY_KMH, access, DEFAULT_KMH);
  if (rideKmh === undefined || dismount) {
    const pushKmh = PUSHING_HIGHWAY_KMH[tags.get('highway') ?? ''] ?? (dismount ? PUSHING_KMH : undefined);
    return mayPush && pushKmh !== undefined ? usable(allowedDirections(access, { kmh: pushKmh, travel: 'pushing' })) : undefined;
  }
  const travel = allowedDirections(access, { kmh: limitSpeed(rideKmh, tags, SPEED_LIMITS), travel: 'default' });
  const oneway = bicycleOneway(tags);
  if (oneway === 'reversible') return undefined;
  applyOneway(travel, oneway);
  // Against a oneway a cyclist may still walk the bicycle.
  if (mayPush) {
    const push: DirectionTravel = { kmh: PUSHING_KMH, travel: 'pushing' };
    if (travel.forward === null && access.forward !== 'forbidden') travel.forward = push;
    if (travel.backward === null && access.backward !== 'forbidden') travel.backward = push;
  }
  return usable(travel);
}

export const cycling: Profile = {
  mode: 'cycling',
  way,
  blocks: (tags) => barrierBlocks(tags, ACCESS, (barrier) => BLOCKING_BARRIERS.has(barrier)),
  turnRestriction: () => undefined,
};
