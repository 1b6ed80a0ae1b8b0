/**
 * A route's climb (`elevation=true`): its `ascent` and `descent` and an elevation profile along its
 * geometry, from the dataset's elevation store (docs/ROUTING.md, "Routes with elevation").
 *
 * The profile is one `[metres from the start, elevation]` pair per coordinate of the route's
 * `geometry`, so a client can draw it against distance and find each point on the map. Ascent and
 * descent are counted on the whole line sampled at most LINE_SAMPLE_SPACING_METRES (20 m) apart (a long straight
 * road across a valley has its dip counted) through a hysteresis of CLIMB_THRESHOLD_METRES: a turning
 * point counts only once the line has gone that far back from it, so SRTM's noise of a few metres
 * on flat ground adds nothing, while every real climb is counted whole. Ascent − descent is then
 * exactly the last elevation minus the first.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import { forEachSampleAlong, type ElevationLookup } from '../../../core/terrain/line-samples.js';
import { tenths } from './rounding.js';
import type { LonLat } from '../../../core/geo/types.js';

export type { ElevationLookup };

/** How far the line must go back from a highest or lowest point for it to count as one. */
export const CLIMB_THRESHOLD_METRES = 5;

/** The fields `elevation=true` adds to a route; ascent and descent are null where no point of it has an elevation. */
export interface RouteElevation {
  ascent: number | null;
  descent: number | null;
  elevation_profile: [number, number | null][];
}

/** Ascent and descent of a series of elevations, through the hysteresis above. */
class ClimbCounter {
  ascent = 0;
  descent = 0;
  private first: number | null = null;
  /** The last turning point counted (the first elevation until there is one). */
  private anchor = 0;
  /** The highest (rising) or lowest (falling) elevation since the anchor. */
  private extreme = 0;
  /** +1 rising, −1 falling, 0 not yet known. */
  private trend = 0;
  private last = 0;

  add(elevation: number): void {
    this.last = elevation;
    if (this.first === null) {
      this.first = this.anchor = this.extreme = elevation;
      return;
    }
    if (this.trend === 0) {
      if (Math.abs(elevation - this.anchor) >= CLIMB_THRESHOLD_METRES) {
        this.trend = Math.sign(elevation - this.anchor);
        this.extreme = elevation;
      }
      return;
    }
    if ((elevation - this.extreme) * this.trend > 0) {
      this.extreme = elevation;
      return;
    }
    if (Math.abs(elevation - this.extreme) < CLIMB_THRESHOLD_METRES) return;
    // The extreme is a turning point: the climb (or drop) up to it counts.
    this.count(this.extreme - this.anchor);
    this.anchor = this.extreme;
    this.extreme = elevation;
    this.trend = -this.trend;
  }

  /** Whether any elevation was added. */
  get any(): boolean {
    return this.first !== null;
  }

  /** Counts what is left (anchor to the last elevation), so that ascent − descent = last − first. */
  finish(): void {
    if (this.first === null) return;
    this.count(this.extreme - this.anchor);
    this.count(this.last - this.extreme);
    this.anchor = this.extreme = this.last;
  }

  private count(change: number): void {
    if (change > 0) this.ascent += change;
    else this.descent -= change;
  }
}

/**
 * The climb of a route along `coordinates` (its whole line), with the profile at the points of
 * its geometry: `geometryIndices`, the indices into `coordinates` of the points the geometry keeps.
 * `roadElevations` (RouteLeg.roadElevations, NaN on the ground): where the way is a bridge or a
 * tunnel, its own elevation; a piece with one at both ends is such a way and follows the straight
 * line between them, not the valley under it or the hill above it.
 */
export function routeElevation(
  coordinates: readonly LonLat[],
  geometryIndices: readonly number[],
  lookup: ElevationLookup,
  roadElevations?: readonly number[],
): RouteElevation {
  const along = new Float64Array(coordinates.length);
  const climb = new ClimbCounter();
  const road = (index: number) => roadElevations?.[index] ?? NaN;
  const elevationAt = (index: number) => {
    const own = road(index);
    return Number.isNaN(own) ? lookup.elevationAt(...coordinates[index]!) : own;
  };
  const sample = (lon: number, lat: number) => {
    const elevation = lookup.elevationAt(lon, lat);
    if (elevation !== null) climb.add(elevation);
  };
  const first = elevationAt(0);
  if (first !== null) climb.add(first);
  for (let i = 1; i < coordinates.length; i++) {
    const [lon0, lat0] = coordinates[i - 1]!;
    const [lon1, lat1] = coordinates[i]!;
    const metres = metresBetween(lon0, lat0, lon1, lat1);
    along[i] = along[i - 1]! + metres;
    // A straight piece climbs evenly: its end is all the hysteresis needs.
    if (!Number.isNaN(road(i - 1)) && !Number.isNaN(road(i))) climb.add(road(i));
    else forEachSampleAlong(lon0, lat0, lon1, lat1, metres, sample);
  }
  climb.finish();
  return {
    ascent: climb.any ? tenths(climb.ascent) : null,
    descent: climb.any ? tenths(climb.descent) : null,
    elevation_profile: geometryIndices.map((index) => {
      const elevation = elevationAt(index);
      return [tenths(along[index]!), elevation === null ? null : tenths(elevation)];
    }),
  };
}
