/**
 * OSRM's collapseTurnInstructions (engine/guidance/collapse_turns.cpp), for the case Waymark's steps
 * meet: maneuverSucceededByNameChange (collapse_scenario_detection.cpp). A maneuver followed within
 * MAX_COLLAPSE_DISTANCE by a change of name is one maneuver onto the road named after it: "turn right
 * onto B" rather than "turn right onto a 20 m link, then B". The type follows
 * AdjustToCombinedTurnStrategy and the modifier the combined angle (findTotalTurnAngle).
 */
import { bearingInto, bearingOutOf, deflection, modifierOf } from './bearings.js';
import { haveSameName, type Named } from './names.js';
import type { ManeuverType, Modifier } from './osrm.js';
import type { LonLat } from '../../../core/geo/types.js';

/** OSRM's MAX_COLLAPSE_DISTANCE (engine/guidance/collapsing_utility.hpp), metres. */
export const MAX_COLLAPSE_METRES = 30;

export interface CollapsibleStep {
  type: ManeuverType;
  modifier?: Modifier;
  road: Named & { travel: string; junctionRoads?: number };
  distance: number;
  /** Index of the maneuver's point in the leg's polyline. */
  first: number;
  /** Junctions the step lists: 1 when it passes none after its maneuver. */
  intersections: number;
}

const isRoundabout = (step: CollapsibleStep) => step.type === 'roundabout' || step.type === 'exit roundabout';
const isWaypoint = (step: CollapsibleStep) => step.type === 'depart' || step.type === 'arrive';

/** OSRM's basicCollapsePreconditions for two steps. */
function basicPreconditions(first: CollapsibleStep, second: CollapsibleStep): boolean {
  const uturn = first.modifier === 'uturn' || second.modifier === 'uturn';
  const allowedUturn =
    (first.type === 'new name' && second.modifier === 'uturn') || (second.type === 'new name' && first.modifier === 'uturn');
  return (
    !isRoundabout(first) &&
    !isRoundabout(second) &&
    !isWaypoint(first) &&
    !isWaypoint(second) &&
    first.road.travel === second.road.travel &&
    (!uturn || allowedUturn)
  );
}

/** OSRM's maneuverSucceededByNameChange(current, next). */
function maneuverSucceededByNameChange(current: CollapsibleStep, next: CollapsibleStep): boolean {
  if (!basicPreconditions(current, next)) return false;
  const shortAndUndisturbed = current.distance <= MAX_COLLAPSE_METRES && current.intersections === 1;
  const followedByNameChange =
    next.type === 'new name' || ((next.type === 'turn' || next.type === 'continue') && next.modifier === 'straight');
  // A straight name change, or one where the road goes on without a choice, may come a bit later.
  const strongNameChange = next.type === 'new name' && next.modifier === 'straight' && current.distance <= 1.5 * MAX_COLLAPSE_METRES;
  const choicelessNameChange = next.type === 'new name' && next.road.junctionRoads === 2 && current.distance <= 1.5 * MAX_COLLAPSE_METRES;
  return (shortAndUndisturbed || strongNameChange || choicelessNameChange) && followedByNameChange;
}

/** The modifier of the two maneuvers as one (OSRM's findTotalTurnAngle), from the polyline. */
function combinedModifier(coordinates: readonly LonLat[], current: CollapsibleStep, next: CollapsibleStep): Modifier {
  const arrival = bearingInto(coordinates, current.first);
  const entry = deflection(arrival, bearingOutOf(coordinates, current.first));
  const exit = deflection(bearingInto(coordinates, next.first), bearingOutOf(coordinates, next.first));
  const total = deflection(arrival, bearingOutOf(coordinates, next.first));
  // OSRM: only actual turns combine; a short first part, or both parts towards one side, add up.
  const bothOneSide = (entry >= -5 && exit >= -5) || (entry <= 5 && exit <= 5);
  const useTotal = Math.abs(total) > 20 && (current.distance < MAX_COLLAPSE_METRES || bothOneSide);
  return modifierOf(useTotal ? total : entry);
}

/** OSRM's AdjustToCombinedTurnStrategy, when the step transferred from is a name change. */
function combinedType(
  previous: CollapsibleStep,
  current: CollapsibleStep,
  next: CollapsibleStep,
  suffixes: ReadonlySet<string>,
): ManeuverType {
  const sameNameAsBefore = haveSameName(previous.road, next.road, suffixes);
  if (current.type === 'continue' && !sameNameAsBefore) return 'turn';
  if (current.type === 'turn' && sameNameAsBefore) return 'continue';
  return current.type;
}

/**
 * The steps with each maneuver followed closely by a change of name made one; `absorb(into, step)`
 * adds a step's length, time and end to the one before it, and `rename(step, as)` gives it the road
 * (name, ref) of another (OSRM's TransferSignageStrategy).
 */
export function collapseTurnInstructions<T extends CollapsibleStep>(
  steps: readonly T[],
  coordinates: readonly LonLat[],
  suffixes: ReadonlySet<string>,
  absorb: (into: T, step: T) => void,
  rename: (step: T, as: T) => void,
): T[] {
  const kept = [...steps];
  for (let i = 1; i + 1 < kept.length; i++) {
    const [previous, current, next] = [kept[i - 1]!, kept[i]!, kept[i + 1]!];
    if (!maneuverSucceededByNameChange(current, next)) continue;
    const modifier = combinedModifier(coordinates, current, next);
    current.type = combinedType(previous, current, next, suffixes);
    current.modifier = modifier;
    absorb(current, next);
    rename(current, next);
    kept.splice(i + 1, 1);
  }
  return kept;
}
