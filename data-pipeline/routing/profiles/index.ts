/** The profile of each travel mode, and the OSM objects they read between them. */
import { TRAVEL_MODES, type TravelMode } from '../../../core/routing/network.js';
import { cycling } from './cycling.js';
import { driving } from './driving.js';
import type { Profile } from './profile.js';
import { TURNING_PLACES_FILTER } from './barriers.js';
import { walking } from './walking.js';

export const PROFILES: Readonly<Record<TravelMode, Profile>> = { driving, walking, cycling };

/** osmium tags-filter expressions selecting every object some profile reads, and the turning places every mode turns round at. */
export const OSM_FILTER: readonly string[] = [
  ...new Set([...TRAVEL_MODES.flatMap((mode) => PROFILES[mode].osmFilter), TURNING_PLACES_FILTER]),
];
