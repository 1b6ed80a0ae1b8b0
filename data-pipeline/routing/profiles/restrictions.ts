/** Turn restriction relations (OSM wiki Relation:restriction; OSRM `RestrictionParser`). */
import { firstTagValue } from './access.js';
import type { Tags } from './profile.js';

/**
 * `no` or `only` for a `type=restriction` relation that applies to a vehicle known by `vehicleKeys`
 * (`restriction:motorcar=*` before `restriction=*`); undefined when it does not apply: another
 * type, an unknown value, or `except=*` naming one of the keys.
 */
export function restrictionKind(tags: Tags, vehicleKeys: readonly string[]): 'no' | 'only' | undefined {
  if (tags.get('type') !== 'restriction') return undefined;
  const except = tags.get('except');
  if (except?.split(';').some((vehicle) => vehicleKeys.includes(vehicle.trim()))) return undefined;
  const value =
    firstTagValue(
      tags,
      vehicleKeys.map((key) => `restriction:${key}`),
    ) ?? tags.get('restriction');
  if (value?.startsWith('no_')) return 'no';
  if (value?.startsWith('only_')) return 'only';
  return undefined;
}
