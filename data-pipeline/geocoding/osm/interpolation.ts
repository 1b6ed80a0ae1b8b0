/**
 * `addr:interpolation` ways (OSM wiki "Addresses#Using interpolation"): a line between two
 * address nodes whose house numbers it fills, every `step`. The numbers are those of the end
 * nodes, found by position after the pass (the way itself carries none).
 */
import { houseNumberValue } from '../../../core/geocoding/house-number.js';
import type { AddressRange } from '../../../core/geocoding/street-lines.js';
import type { AddressPoint, InterpolationLine } from './spill.js';
import type { LonLat } from '../../../core/geo/types.js';

/** The range an interpolation line spans, `low` first; undefined when an end has no numbered address or the ends disagree on the street. */
export function addressRange(
  { street, step, line }: InterpolationLine,
  addressAt: (position: LonLat) => AddressPoint | undefined,
): AddressRange | undefined {
  const first = addressAt(line[0]!);
  const last = addressAt(line[line.length - 1]!);
  if (first === undefined || last === undefined) return undefined;
  const from = houseNumberValue(first.housenumber);
  const to = houseNumberValue(last.housenumber);
  const rangeStreet = street ?? first.street;
  if (from === undefined || to === undefined || from === to || first.street !== last.street || first.street !== rangeStreet)
    return undefined;
  return from < to
    ? { street: rangeStreet, low: from, high: to, step, line }
    : { street: rangeStreet, low: to, high: from, step, line: [...line].reverse() };
}
