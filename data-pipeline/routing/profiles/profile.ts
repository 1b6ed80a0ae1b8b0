/**
 * What a travel mode's profile tells the network builder about OSM objects. The builder knows no
 * tag names: it asks the profile of each mode about every way, node and restriction, and reads the
 * OSM files through the filter the profiles give.
 */
import type { TravelKind, TravelMode } from '../../../core/routing/network.js';
import type { Tags } from '../../osm/tags.js';

/** The travel mode OSRM reports for a stretch: normal, on a ferry, pushing a bicycle, or with it on a train. */
export type Travel = TravelKind;

/** How the mode moves along a way in one direction. */
export interface DirectionTravel {
  kmh: number;
  travel: Travel;
  /**
   * Used only to reach a destination on it (a private road): entering it from a way that is not
   * restricted costs the restricted-access penalty in the route's weight (OSRM `forward_restricted`).
   */
  restricted?: boolean;
  /** Road classes of this direction (ROAD_CLASSES bits of core/routing/network.ts, a request's `exclude` avoids them); absent: none. */
  classes?: number;
}

export interface WayTravel {
  /** Along the way's node order; null when the mode may not go that way. */
  forward: DirectionTravel | null;
  backward: DirectionTravel | null;
  /** Time to travel the whole way (a ferry's `duration`), replacing the speeds; shared out by length. */
  durationSeconds?: number;
  /** No place to start or end a route (OSRM `is_startpoint` false beyond the travel kind: a car's private service road). */
  noStart?: boolean;
}

/**
 * What a node does to the mode passing it: stops it (`blocked`, a wall, a bollard for cars), lets it
 * through only as a restricted way would (`restricted`, a private gate for cars), or nothing.
 */
export type NodePassage = 'blocked' | 'restricted' | undefined;

export interface Profile {
  mode: TravelMode;
  /** osmium tags-filter expressions that select every OSM object the profile reads (`w/highway`, `n/barrier`…). */
  osmFilter: readonly string[];
  /** How the mode travels along a way with these tags; undefined when it does not use the way. */
  way(tags: Tags): WayTravel | undefined;
  /** What a node with these tags (a barrier, or an access tag on a node) does to the mode. */
  node(tags: Tags): NodePassage;
  /** The kind of a turn restriction relation the mode obeys; undefined when it does not apply. */
  turnRestriction(tags: Tags): 'no' | 'only' | undefined;
}

/** Undefined when neither direction is left. */
export function usable(travel: WayTravel): WayTravel | undefined {
  return travel.forward === null && travel.backward === null ? undefined : travel;
}
