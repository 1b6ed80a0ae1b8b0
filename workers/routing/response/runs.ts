/**
 * The runs of a leg: consecutive path segments that read as one road to a traveller — the same name, ref
 * and travel without a real turn between them, or one pass through a roundabout whatever its parts are named.
 */
import type { PathSegment, RouteLeg } from '../path.js';
import { bearingInto, bearingOutOf, deflection } from './bearings.js';

/** Beyond this change of direction at a joint (degrees), staying on the same road is still a maneuver. */
export const STRAIGHT_ON_DEGREES = 40;

export interface Run extends PathSegment {
  /** How many path segments the run joins; in a roundabout each joint is a junction, so the last one is the exit. */
  segmentCount: number;
}

function continuesRun(run: Run, segment: PathSegment, leg: RouteLeg): boolean {
  if (run.roundabout || segment.roundabout) return run.roundabout && segment.roundabout;
  if (run.name !== segment.name || run.ref !== segment.ref || run.pronunciation !== segment.pronunciation) return false;
  if (run.travel !== segment.travel || run.guidance !== segment.guidance) return false;
  const turn = deflection(bearingInto(leg.coordinates, segment.first), bearingOutOf(leg.coordinates, segment.first));
  return Math.abs(turn) <= STRAIGHT_ON_DEGREES;
}

/**
 * A run of one segment. Every field is written out, in one order, rather than spread from the
 * segment: V8 copies an object spread slowly when its sources differ in shape (about 1 µs each),
 * and a leg has dozens of runs.
 */
export function runOf(segment: PathSegment, segmentCount = 1): Run {
  return {
    name: segment.name,
    ref: segment.ref,
    pronunciation: segment.pronunciation,
    roundabout: segment.roundabout,
    travel: segment.travel,
    guidance: segment.guidance,
    distance: segment.distance,
    duration: segment.duration,
    first: segment.first,
    last: segment.last,
    junctionRoads: segment.junctionRoads,
    junctionExits: segment.junctionExits,
    junctionsPassed: segment.junctionsPassed,
    segmentCount,
  };
}

/** Junctions of three roads or more a run or segment passes through after its start. */
export const passedIn = (piece: PathSegment) => piece.junctionsPassed ?? 0;

/** The leg's runs; a leg without segments (the engine should not send one) is one unnamed run. */
export function runsOf(leg: RouteLeg): Run[] {
  if (leg.segments.length === 0) {
    const last = leg.coordinates.length - 1;
    return [
      runOf({ name: '', ref: '', roundabout: false, travel: 'default', distance: leg.distance, duration: leg.duration, first: 0, last }),
    ];
  }
  const runs: Run[] = [];
  for (const segment of leg.segments) {
    const run = runs.at(-1);
    if (run !== undefined && continuesRun(run, segment, leg)) {
      run.last = segment.last;
      run.distance += segment.distance;
      run.duration += segment.duration;
      run.segmentCount++;
      run.junctionsPassed = passedIn(run) + ((segment.junctionRoads ?? 0) >= 3 ? 1 : 0) + passedIn(segment);
    } else {
      runs.push(runOf(segment));
    }
  }
  return runs;
}
