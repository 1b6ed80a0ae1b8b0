/**
 * A house number no record holds, placed along its street, in the manner of Pelias'
 * interpolation service: at an address of the same number with another letter ("12b" at "12a"),
 * on an OSM `addr:interpolation` line that spans it, else between the
 * nearest lower and higher numbers of the street (of the same parity when both sides have one),
 * at the share of the way between their projections onto the street's line. Never beyond the
 * street's known numbers.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import { lineLength, pointAlongLine, projectOntoLine } from '../../../core/geo/line-position.js';
import type { LonLat } from '../../../core/geo/types.js';
import type { AddressNumber, Box, GeocoderIndex } from './index-file.js';

/** Two neighbours farther apart than this are not one stretch of street (another town, a gap). */
const MAX_NEIGHBOUR_GAP_M = 1000;
/** A neighbour farther than this from a street line is not on it (degrees of latitude, about 100 m). */
const MAX_LINE_OFFSET = 0.001;

const below = (found: AddressNumber | undefined, candidate: AddressNumber) => found === undefined || candidate.number > found.number;
const above = (found: AddressNumber | undefined, candidate: AddressNumber) => found === undefined || candidate.number < found.number;

type Pair = [AddressNumber, AddressNumber];

const closeEnough = ([a, b]: Pair) => metresBetween(a.lon, a.lat, b.lon, b.lat) <= MAX_NEIGHBOUR_GAP_M;

/**
 * The nearest lower and higher numbers of the same parity as `number` (the same side of the
 * street, in most places), else of any parity; a pair too far apart is no stretch of street.
 */
function neighbours(numbers: readonly AddressNumber[], number: number): Pair | undefined {
  let [lower, upper, sameLower, sameUpper]: (AddressNumber | undefined)[] = [];
  for (const candidate of numbers) {
    const sameParity = candidate.number % 2 === number % 2;
    if (candidate.number < number) {
      if (below(lower, candidate)) lower = candidate;
      if (sameParity && below(sameLower, candidate)) sameLower = candidate;
    } else if (candidate.number > number) {
      if (above(upper, candidate)) upper = candidate;
      if (sameParity && above(sameUpper, candidate)) sameUpper = candidate;
    }
  }
  const pairs: Pair[] = [];
  if (sameLower !== undefined && sameUpper !== undefined) pairs.push([sameLower, sameUpper]);
  if (lower !== undefined && upper !== undefined) pairs.push([lower, upper]);
  return pairs.find(closeEnough);
}

/** The share `t` of the way from `a` to `b`, along the street line both lie on, else straight. */
function between(index: GeocoderIndex, key: string, box: Box, a: AddressNumber, b: AddressNumber, t: number): LonLat {
  const at: LonLat[] = [
    [a.lon, a.lat],
    [b.lon, b.lat],
  ];
  let best: { line: LonLat[]; from: number; to: number; offset: number } | undefined;
  for (const line of index.streetLines(key, box)) {
    const [pa, pb] = at.map((point) => projectOntoLine(line, point)) as [
      ReturnType<typeof projectOntoLine>,
      ReturnType<typeof projectOntoLine>,
    ];
    const offset = Math.max(pa.offset, pb.offset);
    if (offset <= MAX_LINE_OFFSET && (best === undefined || offset < best.offset)) best = { line, from: pa.along, to: pb.along, offset };
  }
  if (best === undefined) return [a.lon + (b.lon - a.lon) * t, a.lat + (b.lat - a.lat) * t];
  return pointAlongLine(best.line, best.from + (best.to - best.from) * t);
}

/** Where house `number` of the street with this key lies within `box`, if the street's numbers frame it. */
export function interpolateHouseNumber(index: GeocoderIndex, key: string, box: Box, number: number): LonLat | undefined {
  const numbers = index.addressNumbers(key, box);
  const same = numbers.find((candidate) => candidate.number === number);
  if (same !== undefined) return [same.lon, same.lat];
  for (const range of index.addressRanges(key, box, number)) {
    if ((number - range.low) % range.step !== 0) continue;
    return pointAlongLine(range.line, (lineLength(range.line) * (number - range.low)) / (range.high - range.low));
  }
  const pair = neighbours(numbers, number);
  if (pair === undefined) return undefined;
  const [a, b] = pair;
  return between(index, key, box, a, b, (number - a.number) / (b.number - a.number));
}
