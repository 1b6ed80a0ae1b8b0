/**
 * Walking, after OSRM `profiles/foot.lua`: 5 km/h on every way a pedestrian may use (slower on
 * steps and loose surfaces), foot > access, oneways only when tagged `oneway:foot`, and only
 * walls, fences and `barrier=yes` stop a walker (or a node's own access tags). Areas (`area=yes`
 * squares, platforms, car parks) are walked along their outline.
 */
import { wayAccess, type AccessRules } from './access.js';
import { nodePassage } from './barriers.js';
import { parseOneway } from './oneway.js';
import { usable, type Profile, type WayTravel } from './profile.js';
import { applyOneway, directionKmh, ferryTravel, isFerry, isUnusableWay, limitSpeed, travelAlong, type TagTables } from './ways.js';
import type { Tags } from '../../osm/tags.js';

const WALKING_KMH = 5;

export const FOOT_ACCESS: AccessRules = {
  hierarchy: ['foot', 'access'],
  allowed: new Set(['yes', 'foot', 'permissive', 'designated']),
  // use_sidepath is Waymark's own: a sidewalk mapped beside the road must be used (OSRM walks the road).
  forbidden: new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath']),
};

/**
 * km/h by kind of way, the first key the way carries deciding (OSRM foot.lua `speeds`: platforms,
 * car parks and running tracks mapped without a `highway` tag too; motorways and trunks are not
 * walked). A closed way mapped as an area (`area=yes`, or a car park) is walked along its outline.
 */
const SPEEDS: TagTables = {
  highway: {
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
    pier: WALKING_KMH,
    // OSRM walks steps at full speed; Waymark counts the climb (Valhalla penalises steps too).
    steps: 3,
  },
  railway: { platform: WALKING_KMH },
  amenity: { parking: WALKING_KMH, parking_entrance: WALKING_KMH },
  man_made: { pier: WALKING_KMH },
  leisure: { track: WALKING_KMH },
};

/** Loose ground slows a walker (OSRM foot.lua `surface_speeds`). */
const SPEED_LIMITS: TagTables = {
  surface: {
    fine_gravel: WALKING_KMH * 0.75,
    gravel: WALKING_KMH * 0.75,
    pebblestone: WALKING_KMH * 0.75,
    mud: WALKING_KMH * 0.5,
    sand: WALKING_KMH * 0.5,
  },
};

const BLOCKING_BARRIERS = new Set(['yes', 'wall', 'fence']);

/** OSRM foot.lua reads a way only when it has one of these tags (its prefetched `data`). */
const WAY_KEYS = ['highway', 'bridge', 'route', 'leisure', 'man_made', 'railway', 'platform', 'amenity', 'public_transport'];

function way(tags: Tags): WayTravel | undefined {
  if (!WAY_KEYS.some((key) => tags[key] !== undefined) || isUnusableWay(tags)) return undefined;
  const access = wayAccess(tags, FOOT_ACCESS);
  if (isFerry(tags)) return ferryTravel(tags, access);
  const kmh = directionKmh(tags, SPEEDS, access, WALKING_KMH);
  if (kmh === undefined) return undefined;
  const travel = travelAlong(kmh, (speed) => ({ kmh: limitSpeed(speed, tags, SPEED_LIMITS), travel: 'default' }));
  applyOneway(travel, parseOneway(tags['oneway:foot']));
  return usable(travel);
}

export const walking: Profile = {
  mode: 'walking',
  osmFilter: [
    'w/highway',
    'w/route=ferry',
    'w/man_made=pier',
    'w/railway=platform',
    'w/amenity=parking,parking_entrance',
    'w/leisure=track',
    'n/barrier',
    `n/${FOOT_ACCESS.hierarchy.join(',')}`,
  ],
  way,
  node: (tags) => nodePassage(tags, { access: FOOT_ACCESS, stops: (barrier) => BLOCKING_BARRIERS.has(barrier) }),
  turnRestriction: () => undefined,
};
