/**
 * The routing step's use of the DEMs: the walking and cycling networks' segment times along the
 * slopes under them, each direction its own (profiles/slope.ts). Each segment's polyline is sampled
 * at most LINE_SAMPLE_SPACING_METRES apart on the elevation store; each piece between two samples
 * is travelled at the profile's flat speed for that direction changed by the piece's slope (uphill
 * one way, downhill the other). A piece with an end outside the DEMs' coverage counts as flat, and
 * a segment with no slope at all keeps its time exactly. Ferries and trains keep theirs; a
 * cyclist pushing walks (Tobler). Driving is not changed.
 */
import { metresBetween } from '../../core/geo/distance.js';
import { TRAVEL_KINDS, type RoadNetwork, type TravelKind } from '../../core/routing/network.js';
import { forEachSampleAlong, type ElevationLookup } from '../../core/terrain/line-samples.js';
import type { ProgressReporter } from '../progress.js';
import { cyclingSpeedOnSlope, walkingSpeedOnSlope } from './profiles/slope.js';

type SpeedOnSlope = (flatKmh: number, slope: number) => number;

/** The speed model of a direction travelled by `mode` as `travel`; null: its time does not depend on slope. */
function speedModel(mode: RoadNetwork['mode'], travel: TravelKind): SpeedOnSlope | null {
  if (mode === 'driving' || travel === 'ferry' || travel === 'train') return null;
  return mode === 'cycling' && travel === 'default' ? cyclingSpeedOnSlope : walkingSpeedOnSlope;
}

/** Segments between progress reports. */
const REPORT_EVERY = 1 << 16;

/** The pieces of one segment's polyline between samples: their lengths and slopes (0 where an elevation is missing). */
class SegmentPieces {
  lengths = new Float64Array(256);
  slopes = new Float64Array(256);
  count = 0;
  private previous: number | null = null;
  private lon = 0;
  private lat = 0;

  constructor(private readonly lookup: ElevationLookup) {}

  /** Samples the polyline of points first..last of `coordinates` (lon, lat × 10⁷); whether any piece has a slope. */
  read(coordinates: Int32Array, first: number, last: number): boolean {
    this.count = 0;
    let sloped = false;
    this.lon = coordinates[2 * first]! / 1e7;
    this.lat = coordinates[2 * first + 1]! / 1e7;
    this.previous = this.lookup.elevationAt(this.lon, this.lat);
    const visit = (lon: number, lat: number) => {
      const elevation = this.lookup.elevationAt(lon, lat);
      const metres = metresBetween(this.lon, this.lat, lon, lat);
      const slope = elevation === null || this.previous === null || metres === 0 ? 0 : (elevation - this.previous) / metres;
      if (slope !== 0) sloped = true;
      this.push(metres, slope);
      [this.lon, this.lat, this.previous] = [lon, lat, elevation];
    };
    for (let p = first + 1; p <= last; p++) {
      const [lon0, lat0] = [this.lon, this.lat];
      const [lon1, lat1] = [coordinates[2 * p]! / 1e7, coordinates[2 * p + 1]! / 1e7];
      forEachSampleAlong(lon0, lat0, lon1, lat1, metresBetween(lon0, lat0, lon1, lat1), visit);
    }
    return sloped;
  }

  /**
   * Seconds to travel the pieces at `speed` (`direction` 1: as sampled, −1: the other way), for a
   * direction that takes `flatSeconds` on flat ground.
   */
  seconds(flatSeconds: number, speed: SpeedOnSlope, direction: 1 | -1): number {
    let metres = 0;
    let hours = 0;
    for (let i = 0; i < this.count; i++) metres += this.lengths[i]!;
    if (metres === 0) return flatSeconds;
    const flatKmh = ((metres / flatSeconds) * 3600) / 1000;
    for (let i = 0; i < this.count; i++) hours += this.lengths[i]! / 1000 / speed(flatKmh, direction * this.slopes[i]!);
    return hours * 3600;
  }

  private push(metres: number, slope: number): void {
    if (this.count === this.lengths.length) {
      const grow = (array: Float64Array) => {
        const bigger = new Float64Array(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      this.lengths = grow(this.lengths);
      this.slopes = grow(this.slopes);
    }
    this.lengths[this.count] = metres;
    this.slopes[this.count++] = slope;
  }
}

/** Changes the network's walking or cycling segment times in place for the slopes `lookup` gives; driving is left as it is. */
export function applySlopeTimes(network: RoadNetwork, lookup: ElevationLookup, onProgress: ProgressReporter = () => {}): void {
  const { segments, mode } = network;
  if (mode === 'driving') return;
  const pieces = new SegmentPieces(lookup);
  const phase = `${mode} slopes`;
  const report = (done: number) => onProgress({ phase, done, total: segments.count, unit: 'segments' });
  for (let s = 0; s < segments.count; s++) {
    if (s % REPORT_EVERY === 0) report(s);
    const forward = speedModel(mode, TRAVEL_KINDS[segments.travel[s]!]!);
    const backward = speedModel(mode, TRAVEL_KINDS[segments.backwardTravel[s]!]!);
    const forwardSeconds = segments.forwardSeconds[s]!;
    const backwardSeconds = segments.backwardSeconds[s]!;
    const changesForward = forward !== null && forwardSeconds > 0;
    const changesBackward = backward !== null && backwardSeconds > 0;
    if (!changesForward && !changesBackward) continue;
    if (!pieces.read(segments.coordinates, segments.pointFirst[s]!, segments.pointFirst[s + 1]! - 1)) continue;
    if (changesForward) segments.forwardSeconds[s] = pieces.seconds(forwardSeconds, forward, 1);
    if (changesBackward) segments.backwardSeconds[s] = pieces.seconds(backwardSeconds, backward, -1);
  }
  report(segments.count);
}
