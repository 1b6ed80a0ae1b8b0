/** The profile of each travel mode. */
import type { TravelMode } from '../../../core/routing/network.js';
import { cycling } from './cycling.js';
import { driving } from './driving.js';
import type { Profile } from './profile.js';
import { walking } from './walking.js';

export const PROFILES: Readonly<Record<TravelMode, Profile>> = { driving, walking, cycling };
