/**
 * OSRM's suppressShortNameSegments (engine/guidance/verbosity_reduction.cpp): a `new name` step that
 * names a road already being followed, or a road followed for less than NAME_SEGMENT_CUTOFF_METRES,
 * tells nothing useful; it joins the step before it, and the arrival keeps the name of the road it
 * ends on.
 */
import type { ManeuverType } from './osrm.js';
import { haveSameName, type Named } from './names.js';

/** OSRM's NAME_SEGMENT_CUTOFF_LENGTH (engine/guidance/collapsing_utility.hpp). */
export const NAME_SEGMENT_CUTOFF_METRES = 105;

export interface NameStep {
  type: ManeuverType;
  road: Named & { travel: string };
  distance: number;
}

/** The steps without the `new name` steps OSRM suppresses; `elongate(into, step)` adds a suppressed step to the one kept before it. */
export function suppressShortNameSegments<T extends NameStep>(
  steps: readonly T[],
  suffixes: ReadonlySet<string>,
  elongate: (into: T, step: T) => void,
): T[] {
  const kept: T[] = [];
  // The step a suppressed name change joins: the last one kept (OSRM's previous_turn_itr).
  let previous: T | undefined;
  for (const step of steps) {
    const nameChange = step.type === 'new name' && previous !== undefined && previous.road.travel === step.road.travel;
    if (nameChange && (haveSameName(previous!.road, step.road, suffixes) || step.distance < NAME_SEGMENT_CUTOFF_METRES)) {
      elongate(previous!, step);
      continue;
    }
    kept.push(step);
    previous = step;
  }
  return kept;
}
