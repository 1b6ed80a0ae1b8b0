/** Turn restriction relations (OSM wiki Relation:restriction; OSRM `RestrictionParser`). */
import { firstTagValue } from './access.js';
import type { Tags } from '../../osm/tags.js';

/**
 * Whether a `restriction*` value is one OSRM v6's RestrictionParser::TryParse accepts: `only_*`, or
 * `no_*` but not `no_*_on_red` (a traffic-signal rule, not a turn prohibition). Anything else
 * (`give_way`, `yield`, `no_turn_on_red`, …) makes OSRM discard the whole relation.
 */
export function isRestrictionValue(value: string): boolean {
  return value.startsWith('only_') || (value.startsWith('no_') && !value.endsWith('_on_red'));
}

/**
 * `no` or `only` for a `type=restriction` relation that applies to a vehicle known by `vehicleKeys`
 * (`restriction:motorcar=*` before `restriction=*`); undefined when it does not apply: another
 * type, no `restriction` or `restriction:<vehicle>` tag, `except=*` naming one of the keys, or, as
 * OSRM v6 does, any of those tags with a value OSRM does not accept (see isRestrictionValue).
 * `restriction:conditional` is not read: OSRM v6 ignores it unless built with
 * --parse-conditional-restrictions.
 */
export function restrictionKind(tags: Tags, vehicleKeys: readonly string[]): 'no' | 'only' | undefined {
  if (tags.type !== 'restriction') return undefined;
  const except = tags.except;
  if (except?.split(';').some((vehicle) => vehicleKeys.includes(vehicle.trim()))) return undefined;
  const keys = vehicleKeys.map((key) => `restriction:${key}`);
  for (const key of [...keys, 'restriction']) {
    const other = tags[key];
    if (other !== undefined && !isRestrictionValue(other)) return undefined;
  }
  const value = firstTagValue(tags, keys) ?? tags.restriction;
  if (value?.startsWith('no_')) return 'no';
  if (value?.startsWith('only_')) return 'only';
  return undefined;
}

/**
 * Whether a restriction relation may list several `from` ways (`no_entry`) or several `to` ways
 * (`no_exit`): OSRM v6 discards any other relation with more than one of either.
 */
export function severalMembersAllowed(tags: Tags): { from: boolean; to: boolean } {
  let from = false;
  let to = false;
  for (const [key, value] of Object.entries(tags)) {
    if (key !== 'restriction' && !key.startsWith('restriction:')) continue;
    if (value.startsWith('no_entry')) from = true;
    if (value.startsWith('no_exit')) to = true;
  }
  return { from, to };
}
