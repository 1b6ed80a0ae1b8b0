/**
 * What a travel mode's profile tells the network builder about OSM objects. The builder knows no
 * tag names: it asks the profile of each mode about every way, barrier node and restriction.
 */
import type { TravelMode } from '../../../core/routing/network.js';

/** The tags of one OSM object (values unescaped). */
export type Tags = ReadonlyMap<string, string>;

/** The travel mode OSRM reports for a stretch: normal, on a ferry, or pushing a bicycle. */
export type Travel = 'default' | 'ferry' | 'pushing';

/** How the mode moves along a way in one direction. */
export interface DirectionTravel {
  kmh: number;
  travel: Travel;
}

export interface WayTravel {
  /** Along the way's node order; null when the mode may not go that way. */
  forward: DirectionTravel | null;
  backward: DirectionTravel | null;
  /** Time to travel the whole way (a ferry's `duration`), replacing the speeds; shared out by length. */
  durationSeconds?: number;
}

export interface Profile {
  mode: TravelMode;
  /** How the mode travels along a way with these tags; undefined when it does not use the way. */
  way(tags: Tags): WayTravel | undefined;
  /** Whether a node with these tags (a barrier) stops the mode. */
  blocks(tags: Tags): boolean;
  /** The kind of a turn restriction relation the mode obeys; undefined when it does not apply. */
  turnRestriction(tags: Tags): 'no' | 'only' | undefined;
}

/** Both directions at one speed. */
export function bothWays(kmh: number, travel: Travel = 'default'): WayTravel {
  return { forward: { kmh, travel }, backward: { kmh, travel } };
}

/** Undefined when neither direction is left. */
export function usable(travel: WayTravel): WayTravel | undefined {
  return travel.forward === null && travel.backward === null ? undefined : travel;
}
