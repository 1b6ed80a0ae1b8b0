/**
 * The access-tag hierarchy (OSRM `lib/access.lua`, `Tags.get_forward_backward_by_set`): the most
 * specific key a mode has that the object carries decides, `key:forward`/`key:backward` before
 * `key` at each level, e.g. for driving motorcar > motor_vehicle > vehicle > access. Only these
 * exact keys are read: `access:conditional` and the like are not access values.
 */
import type { Tags } from '../../osm/tags.js';

export type Direction = 'forward' | 'backward';

export interface AccessRules {
  /** Most specific key first. */
  hierarchy: readonly string[];
  /** Values that grant access, also on a way class the mode does not use by default. */
  allowed: ReadonlySet<string>;
  /** Values that deny access. Any other value (e.g. `unknown`) leaves the class default. */
  forbidden: ReadonlySet<string>;
  /**
   * Values that admit the mode only to reach a destination (OSRM `restricted_access_tag_list`):
   * the profile decides where such a way is used, at a penalty for entering it, and where it is closed.
   */
  restricted?: ReadonlySet<string>;
}

export type AccessVerdict = 'allowed' | 'restricted' | 'forbidden' | 'unstated';

/** The value of the first of `keys` the object carries, `key:direction` before `key` when a direction is given. */
export function firstTagValue(tags: Tags, keys: readonly string[], direction?: Direction): string | undefined {
  for (const key of keys) {
    const value = (direction === undefined ? undefined : tags[`${key}:${direction}`]) ?? tags[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

export function accessVerdict(tags: Tags, rules: AccessRules, direction?: Direction): AccessVerdict {
  return verdictOf(firstTagValue(tags, rules.hierarchy, direction), rules);
}

/** What one access value means to the mode. */
export function verdictOf(value: string | undefined, rules: AccessRules): AccessVerdict {
  if (value === undefined) return 'unstated';
  if (rules.restricted?.has(value)) return 'restricted';
  if (rules.forbidden.has(value)) return 'forbidden';
  return rules.allowed.has(value) ? 'allowed' : 'unstated';
}

export interface WayAccess {
  forward: AccessVerdict;
  backward: AccessVerdict;
}

/** Access in both directions of a way. */
export function wayAccess(tags: Tags, rules: AccessRules): WayAccess {
  return { forward: accessVerdict(tags, rules, 'forward'), backward: accessVerdict(tags, rules, 'backward') };
}
