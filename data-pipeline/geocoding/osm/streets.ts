/**
 * Streets from named highway ways: OSM splits a street into many ways (at every junction,
 * bridge, change of speed limit), a geocoder wants one result per street. Ways of the same
 * normalized name whose boxes come within `MERGE_DISTANCE_M` of each other chain into one
 * street; a street of the same name in the next town stays separate. Held in memory: one small
 * object per merged street (box, smallest way id, middle of the longest way), no geometries.
 */
import type { Position } from 'geojson';
import type { Tags } from '../../shortbread/element.js';
import { lineMercatorLength } from '../../shortbread/geometry.js';
import { bboxOf, lineMiddle, type BBox } from './geometry.js';
import { namesByLanguage } from './tags.js';

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

export class StreetMerger {
  private readonly byName = new Map<string, MergedStreet[]>();

  add(wayId: number, tags: Tags, line: Position[]): void {
    const key = normalizedName(tags.name!);
    let street: MergedStreet = {
      wayId, name: tags.name!, names: namesByLanguage(tags), bbox: bboxOf(line), longestWay: lineMercatorLength(line), point: lineMiddle(line), ways: 1,
    };
    const apart: MergedStreet[] = [];
    // A way can join two streets that were apart so far: it merges with every street it is near.
    for (const other of this.byName.get(key) ?? []) {
      if (boxesNear(street.bbox, other.bbox)) street = merged(street, other);
      else apart.push(other);
    }
    apart.push(street);
    this.byName.set(key, apart);
  }

  *streets(): Iterable<MergedStreet> {
    for (const streets of this.byName.values()) yield* streets;
  }
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
