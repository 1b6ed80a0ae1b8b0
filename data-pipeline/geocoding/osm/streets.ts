/**
 * Streets from named highway ways: OSM splits a street into many ways (at every junction,
 * bridge, change of speed limit), a geocoder wants one result per street. Ways of the same
 * normalized name whose boxes come within `MERGE_DISTANCE_M` of each other chain into one
 * street; a street of the same name in the next town stays separate. Each way is summed up
 * (box, id, middle, length; no geometry) as it is read; the summaries are merged one name at a
 * time (`mergeStreetWays`), so memory holds the streets of one name only.
 */
import type { Position } from 'geojson';
import { lineMercatorLength } from '../../../core/geo/mercator-measures.js';
import { bboxOf, lineMiddle } from './geometry.js';
import { namesByLanguage } from './tags.js';
import type { BBox } from '../../../core/geo/types.js';
import type { Tags } from '../../osm/tags.js';

/** Ways of one name closer than this (box to box) are one street. */
export const MERGE_DISTANCE_M = 200;
const METRES_PER_DEGREE_LAT = 111_320;

export interface MergedStreet {
  /** The smallest OSM way id of the street: its stable id. */
  wayId: number;
  name: string;
  names: Record<string, string>;
  bbox: BBox;
  /** Length of the longest way in Web Mercator metres, and the point halfway along it. */
  longestWay: number;
  point: Position;
  ways: number;
}

/** One way as a street of its own, and the name key it merges under. */
export interface StreetWay {
  key: string;
  street: MergedStreet;
}

export function streetWay(wayId: number, tags: Tags, line: Position[]): StreetWay {
  return {
    key: normalizedName(tags.name!),
    street: {
      wayId,
      name: tags.name!,
      names: namesByLanguage(tags),
      bbox: bboxOf(line),
      longestWay: lineMercatorLength(line),
      point: lineMiddle(line),
      ways: 1,
    },
  };
}

/**
 * The streets of `ways`, which come grouped by key (the groups in the order their names first
 * appeared, the ways of a group in file order), so each group is merged and given on its own.
 */
export function* mergeStreetWays(ways: Iterable<StreetWay>): Iterable<MergedStreet> {
  let key: string | undefined;
  let streets: MergedStreet[] = [];
  for (const way of ways) {
    if (way.key !== key) {
      yield* streets;
      streets = [];
      key = way.key;
    }
    streets = withWay(streets, way.street);
  }
  yield* streets;
}

/** The streets of one name after adding a way: a way can join two streets that were apart so far, it merges with every street it is near. */
function withWay(streets: readonly MergedStreet[], way: MergedStreet): MergedStreet[] {
  let street = way;
  const apart: MergedStreet[] = [];
  for (const other of streets) {
    if (boxesNear(street.bbox, other.bbox)) street = merged(street, other);
    else apart.push(other);
  }
  apart.push(street);
  return apart;
}

/** Case, Unicode form and spacing do not make another street. */
function normalizedName(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function boxesNear(a: BBox, b: BBox): boolean {
  const dLat = MERGE_DISTANCE_M / METRES_PER_DEGREE_LAT;
  const dLon = dLat / Math.cos((((a[1] + a[3]) / 2) * Math.PI) / 180);
  return a[0] - dLon <= b[2] && b[0] - dLon <= a[2] && a[1] - dLat <= b[3] && b[1] - dLat <= a[3];
}

/** One street of two: the smaller way id names it, the longer way places it. */
function merged(a: MergedStreet, b: MergedStreet): MergedStreet {
  const [first, second] = a.wayId < b.wayId ? [a, b] : [b, a];
  const longer = a.longestWay >= b.longestWay ? a : b;
  return {
    wayId: first.wayId,
    name: first.name,
    names: { ...second.names, ...first.names },
    bbox: [Math.min(a.bbox[0], b.bbox[0]), Math.min(a.bbox[1], b.bbox[1]), Math.max(a.bbox[2], b.bbox[2]), Math.max(a.bbox[3], b.bbox[3])],
    longestWay: longer.longestWay,
    point: longer.point,
    ways: a.ways + b.ways,
  };
}
