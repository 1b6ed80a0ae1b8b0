/**
 * What a node does to a mode (OSRM `process_node`): an access tag of the mode's hierarchy decides
 * when the node has one, whether or not it is a barrier (`access=no` on a plain node blocks as a
 * wall does); otherwise the kind of barrier.
 */
import { firstTagValue, verdictOf, type AccessRules } from './access.js';
import type { NodePassage } from './profile.js';
import type { Tags } from '../../osm/tags.js';

export interface NodeRules {
  access: AccessRules;
  /** Whether a barrier of this kind (`barrier=*`, with the node's other tags) stops the mode. */
  stops(barrier: string, tags: Tags): boolean;
  /** Access tags on a `highway=crossing` node are about crossing the road, not about traffic along it (OSRM bicycle.lua). */
  crossingAccessIgnored?: boolean;
}

export function nodePassage(tags: Tags, rules: NodeRules): NodePassage {
  const access = firstTagValue(tags, rules.access.hierarchy);
  if (access !== undefined) {
    if (rules.crossingAccessIgnored === true && tags.highway === 'crossing') return undefined;
    const verdict = verdictOf(access, rules.access);
    return verdict === 'forbidden' ? 'blocked' : verdict === 'restricted' ? 'restricted' : undefined;
  }
  const barrier = tags.barrier;
  return barrier !== undefined && rules.stops(barrier, tags) ? 'blocked' : undefined;
}

/**
 * `highway=*` values of a node where a vehicle may turn round: OSRM's Obstacle::Type::Turning, at
 * which its isTurnAllowed allows a U-turn whatever the roads (intersection_analysis.cpp).
 */
export const TURNING_PLACES: ReadonlySet<string> = new Set(['turning_circle', 'turning_loop', 'mini_roundabout']);

/** The osmium tags-filter expression for those nodes. */
export const TURNING_PLACES_FILTER = `n/highway=${[...TURNING_PLACES].join(',')}`;
