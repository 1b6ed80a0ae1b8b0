/**
 * OSRM's trimShortSegments (engine/guidance/post_processing.cpp): a waypoint on a junction may be
 * snapped onto the road beyond it, which leaves a first or last piece of (almost) no length; OSRM
 * drops a first or last step of at most 1 m, so the route neither departs with a turn nor arrives
 * after one. Here the pieces are the leg's runs, before they are made into steps.
 */
import { runOf, type Run } from './runs.js';

/** A first or last step at most this long is dropped (OSRM's "distance <= 1"). */
export const TRIM_METRES = 1;

/**
 * The runs without a first and a last run of at most TRIM_METRES, whose seconds go to the run beside
 * them; after a dropped last run the arrival is told on the road before it (OSRM's AdaptStepSignage).
 */
export function trimShortRuns(runs: readonly Run[]): Run[] {
  const kept = runs.map((run) => runOf(run, run.segmentCount));
  // OSRM trims the first step only when more than depart and arrive remain, and likewise the last.
  if (kept.length >= 2 && kept[0]!.distance <= TRIM_METRES) {
    const dropped = kept.shift()!;
    kept[0]!.duration += dropped.duration;
  }
  if (kept.length >= 2 && kept.at(-1)!.distance <= TRIM_METRES) {
    const dropped = kept.pop()!;
    const last = kept.at(-1)!;
    last.duration += dropped.duration;
    last.distance += dropped.distance;
    last.last = dropped.last;
  }
  return kept;
}
