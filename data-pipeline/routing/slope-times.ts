/**
 * The routing step's use of the DEMs: the walking and cycling networks' segment times along the
 * slopes under them, each direction its own (profiles/slope.ts). Each segment's polyline is sampled
 * at most LINE_SAMPLE_SPACING_METRES apart on the elevation store; each piece between two samples
 * is travelled at the profile's flat speed for that direction changed by the piece's slope (uphill
 * one way, downhill the other). A piece with an end outside the DEMs' coverage counts as flat, and
 * a segment with no slope at all keeps its time exactly. Ferries and trains keep theirs; a
 * cyclist pushing walks (Tobler). Driving is not changed.
 *
 * Bridges and tunnels (RoadSegments.offGround) do not follow the ground: a run of them — segments
 * joined end to end at junctions no other road meets — climbs in a straight line from the ground
 * at its one end to the ground at the other, each segment at the run's even gradient, instead of
 * dipping into the valley under a bridge or over the hill above a tunnel.
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

  /** One straight piece `metres` long rising `rise` metres (a bridge's or a tunnel's); whether it has a slope. */
  straight(metres: number, rise: number): boolean {
    this.count = 0;
    const slope = metres === 0 || Number.isNaN(rise) ? 0 : rise / metres;
    this.push(metres, slope);
    return slope !== 0;
  }

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
  const offGround = offGroundLines(network, lookup).rise;
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
    const sloped =
      segments.offGround[s] === 1
        ? pieces.straight(segments.distance[s]!, offGround[s]!)
        : pieces.read(segments.coordinates, segments.pointFirst[s]!, segments.pointFirst[s + 1]! - 1);
    if (!sloped) continue;
    if (changesForward) segments.forwardSeconds[s] = pieces.seconds(forwardSeconds, forward, 1);
    if (changesBackward) segments.backwardSeconds[s] = pieces.seconds(backwardSeconds, backward, -1);
  }
  report(segments.count);
}

/** The straight line of each bridge or tunnel segment's run: its elevation at the segment's from end and its rise to the to end (metres). */
export interface OffGroundLines {
  /** NaN for segments on the ground, and where a run's end has no elevation. */
  start: Float64Array;
  /** 0 for segments on the ground, NaN where a run's end has no elevation. */
  rise: Float64Array;
}

/**
 * The line of every bridge or tunnel segment along the straight line of its run. A run is a chain
 * of off-ground segments through junctions where exactly two segments meet, both off the ground;
 * it ends at any other junction, whose elevation is the ground's there. A chain closed on itself
 * (a run without ends) counts as flat.
 */
export function offGroundLines(network: RoadNetwork, lookup: ElevationLookup): OffGroundLines {
  const { segments, junctionCount } = network;
  const rises = new Float64Array(segments.count);
  const starts = new Float64Array(segments.count).fill(NaN);
  const degree = new Uint32Array(junctionCount);
  // The off-ground segment ends at each junction, 2s (its from end) or 2s + 1 (its to end), in the
  // lists offFirst[j] ≤ i < offFirst[j + 1] of `ends`.
  const offFirst = new Uint32Array(junctionCount + 1);
  for (let s = 0; s < segments.count; s++) {
    degree[segments.from[s]!]!++;
    degree[segments.to[s]!]!++;
    if (segments.offGround[s] === 1) {
      offFirst[segments.from[s]! + 1]!++;
      offFirst[segments.to[s]! + 1]!++;
    }
  }
  for (let j = 0; j < junctionCount; j++) offFirst[j + 1]! += offFirst[j]!;
  const ends = new Uint32Array(offFirst[junctionCount]!);
  const filled = offFirst.slice(0, junctionCount);
  for (let s = 0; s < segments.count; s++) {
    if (segments.offGround[s] !== 1) continue;
    ends[filled[segments.from[s]!]!++] = 2 * s;
    ends[filled[segments.to[s]!]!++] = 2 * s + 1;
  }
  /** Inside a run: two segment ends meet there, both off the ground. */
  const inside = (junction: number) => degree[junction] === 2 && offFirst[junction + 1]! - offFirst[junction]! === 2;
  const junctionOf = (end: number) => (end & 1 ? segments.to : segments.from)[end >> 1]!;
  /** The other off-ground segment end at the junction of `end` (inside a run there is exactly one). */
  const otherEnd = (end: number) => {
    const junction = junctionOf(end);
    const first = offFirst[junction]!;
    return ends[first] === end ? ends[first + 1]! : ends[first]!;
  };
  const elevationAtEnd = (end: number) => {
    const s = end >> 1;
    const point = end & 1 ? segments.pointFirst[s + 1]! - 1 : segments.pointFirst[s]!;
    return lookup.elevationAt(segments.coordinates[2 * point]! / 1e7, segments.coordinates[2 * point + 1]! / 1e7);
  };

  const done = new Uint8Array(segments.count);
  const run: number[] = [];
  for (let s = 0; s < segments.count; s++) {
    if (segments.offGround[s] !== 1 || done[s] === 1) continue;
    // Back to the run's start: the end (of a segment in the run) at a junction that is not inside.
    let start = 2 * s;
    let steps = 0;
    while (inside(junctionOf(start)) && steps++ <= segments.count) {
      const before = otherEnd(start);
      start = before ^ 1;
      if (start >> 1 === s) break;
    }
    const closed = inside(junctionOf(start));
    // Forwards from it, each segment entered by one end and left by the other.
    run.length = 0;
    let end = start;
    for (;;) {
      run.push(end);
      done[end >> 1] = 1;
      const leave = end ^ 1;
      if (!inside(junctionOf(leave))) break;
      const next = otherEnd(leave);
      if (done[next >> 1] === 1) break;
      end = next;
    }
    const first = closed ? null : elevationAtEnd(run[0]!);
    const last = closed ? null : elevationAtEnd(run[run.length - 1]! ^ 1);
    let length = 0;
    for (const entered of run) length += segments.distance[entered >> 1]!;
    const known = first !== null && last !== null && length > 0;
    let along = 0;
    for (const entered of run) {
      const segment = entered >> 1;
      const distance = segments.distance[segment]!;
      // Where the run enters and leaves the segment; entered by its to end, the segment rises the other way.
      const enter = known ? first + ((last - first) * along) / length : NaN;
      const leave = known ? first + ((last - first) * (along + distance)) / length : NaN;
      along += distance;
      starts[segment] = entered & 1 ? leave : enter;
      rises[segment] = entered & 1 ? enter - leave : leave - enter;
    }
  }
  return { start: starts, rise: rises };
}

/**
 * The elevation of the way at each point of the network's polylines where it is a bridge or a
 * tunnel (its run's straight line, `offGroundLines`), NaN where it is on the ground (the DEM's
 * elevation there is the way's) or unknown: what a route's elevation profile reads
 * (workers/routing/response/route-elevation.ts).
 */
export function offGroundPointElevations(network: RoadNetwork, lookup: ElevationLookup): Float32Array {
  const { segments } = network;
  const { start, rise } = offGroundLines(network, lookup);
  const elevations = new Float32Array(segments.pointFirst[segments.count]!).fill(NaN);
  for (let s = 0; s < segments.count; s++) {
    if (segments.offGround[s] !== 1 || Number.isNaN(start[s]!)) continue;
    const first = segments.pointFirst[s]!;
    const last = segments.pointFirst[s + 1]! - 1;
    const at = (p: number): [number, number] => [segments.coordinates[2 * p]! / 1e7, segments.coordinates[2 * p + 1]! / 1e7];
    let total = 0;
    for (let p = first + 1; p <= last; p++) total += metresBetween(...at(p - 1), ...at(p));
    let along = 0;
    for (let p = first; p <= last; p++) {
      if (p > first) along += metresBetween(...at(p - 1), ...at(p));
      elevations[p] = start[s]! + (total === 0 ? 0 : (rise[s]! * along) / total);
    }
  }
  return elevations;
}
