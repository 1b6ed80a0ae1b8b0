/**
 * Walking, after OSRM `profiles/foot.lua`: 5 km/h on every way a pedestrian may use (slower on
 * steps and loose surfaces), foot > access, oneways only when tagged `oneway:foot`, and only
 * walls, fences and `barrier=yes` stop a walker (or a barrier's own access tags).
 */
import { wayAccess, type AccessRules } from './access.js';
import { barrierBlocks } from './barriers.js';
import { parseOneway } from './oneway.js';
import { usable, type Profile, type Tags, type WayTravel } from './profile.js';
import { allowedDirections, applyOneway, classKmh, ferryTravel, isFerry, isUnusableWay, limitSpeed, type SpeedLimitTables } from './ways.js';

const WALKING_KMH = 5;

export const FOOT_ACCESS: AccessRules = {
  hierarchy: ['foot', 'access'],
  allowed: new Set(['yes', 'foot', 'permissive', 'designated']),
  forbidden: new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath']),
};

/** km/h by `highway` (OSRM foot.lua `speeds.highway`; motorways and trunks are not walked). */
const HIGHWAY_KMH: Readonly<Record<string, number>> = {
  primary: WALKING_KMH,
  primary_link: WALKING_KMH,
  secondary: WALKING_KMH,
  secondary_link: WALKING_KMH,
  tertiary: WALKING_KMH,
  tertiary_link: WALKING_KMH,
  unclassified: WALKING_KMH,
  residential: WALKING_KMH,
  road: WALKING_KMH,
  living_street: WALKING_KMH,
  service: WALKING_KMH,
  track: WALKING_KMH,
  path: WALKING_KMH,
  pedestrian: WALKING_KMH,
  footway: WALKING_KMH,
  platform: WALKING_KMH,
  // OSRM walks steps at full speed; Waymark counts the climb (Valhalla penalises steps too).
  steps: 3,
};

/** Loose ground slows a walker (OSRM foot.lua `surface_speeds`). */
const SPEED_LIMITS: SpeedLimitTables = {
  surface: { fine_gravel: WALKING_KMH * 0.75, gravel: WALKING_KMH * 0.75, pebblestone: WALKING_KMH * 0.75, mud: WALKING_KMH * 0.5, sand: WALKING_KMH * 0.5 },
};

const BLOCKING_BARRIERS = new Set(['yes', 'wall', 'fence']);

function way(tags: Tags): WayTravel | undefined {
  if (isUnusableWay(tags)) return undefined;
  if (isFerry(tags)) return ferryTravel(tags, FOOT_ACCESS);
  const access = wayAccess(tags, FOOT_ACCESS);
  const kmh = classKmh(tags, HIGHWAY_KMH, access, WALKING_KMH);
  if (kmh === undefined) return undefined;
  const travel = allowedDirections(access, { kmh: limitSpeed(kmh, tags, SPEED_LIMITS), travel: 'default' });
  applyOneway(travel, parseOneway(tags.get('oneway:foot')));
  return usable(travel);
}

export const walking: Profile = {
  mode: 'walking',
  way,
  blocks: (tags) => barrierBlocks(tags, FOOT_ACCESS, (barrier) => BLOCKING_BARRIERS.has(barrier)),
  turnRestriction: () => undefined,
};
