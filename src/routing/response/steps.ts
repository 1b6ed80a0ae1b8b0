/**
 * The steps of one leg: `depart`, a maneuver where the road changes (`turn`, `new name`, `continue`,
 * `roundabout` with its exit number, `exit roundabout`, `notification` where ferry or pushing starts or
 * ends), and `arrive`. Runs shorter than SHORT_RUN_METRES (a junction link, a slip between two roads)
 * join the step before them, so the maneuver is told once, against the direction of the road left behind.
 */
import type { TravelMode } from '../../../core/routing/network.js';
import type { PathSegment, RouteLeg } from '../path.js';
import type { Geometries } from '../sanitize/route-options.js';
import { bearingInto, bearingOutOf, deflection, modifierOf } from './bearings.js';
import { encodeGeometry } from './geometry.js';
import { instructionOf, type LegPosition } from './instruction.js';
import type { ManeuverType, Modifier, OsrmIntersection, OsrmStep, StepMode } from './osrm.js';
import { position, tenths } from './rounding.js';
import { runsOf, type Run } from './runs.js';

export const SHORT_RUN_METRES = 12;

export interface StepOptions {
  mode: TravelMode;
  geometries: Geometries;
  lang: string;
}

/** What happens at a step's start, and how far it goes. */
interface Maneuvered {
  type: ManeuverType;
  modifier?: Modifier;
  exit?: number;
  /** The road the step follows, and the one its instruction names (the exit road of a roundabout). */
  road: Run;
  toldRoad: Run;
  distance: number;
  duration: number;
}

/** A step being built: where it starts and ends in the leg's polyline. */
interface Draft extends Maneuvered {
  first: number;
  last: number;
  /** Index of the end of the last run that was not absorbed as short: the approach of the next maneuver. */
  approachEnd: number;
}

/** A step ready to be written: its own line, and the bearings at its maneuver. */
interface StepParts extends Maneuvered {
  coordinates: [number, number][];
  /** Absent at departure and arrival respectively. */
  bearingBefore?: number;
  bearingAfter?: number;
}

const isSlight = (modifier: Modifier) => modifier === 'straight' || modifier.startsWith('slight');

/** What happens where `run` begins after `previous`, or undefined when `run` simply extends the step. */
function maneuverType(step: Draft, previous: Run, run: Run, modifier: Modifier): ManeuverType | undefined {
  if (run.roundabout) return 'roundabout';
  if (previous.roundabout) return 'exit roundabout';
  if (run.travel !== previous.travel) return 'notification';
  if (run.distance < SHORT_RUN_METRES) return undefined;
  if (run.name !== step.road.name || run.ref !== step.road.ref) return isSlight(modifier) ? 'new name' : 'turn';
  return isSlight(modifier) ? undefined : 'continue';
}

function draftsOf(leg: RouteLeg): Draft[] {
  const coordinates = leg.coordinates;
  const runs = runsOf(leg);
  const drafts: Draft[] = [];
  runs.forEach((run, index) => {
    const step = drafts.at(-1);
    const previous = runs[index - 1];
    if (step === undefined || previous === undefined) {
      drafts.push({
        type: 'depart',
        road: run,
        toldRoad: run,
        first: run.first,
        last: run.last,
        distance: run.distance,
        duration: run.duration,
        approachEnd: run.last,
      });
      return;
    }
    const next = runs[index + 1];
    const leaves = run.roundabout && next !== undefined;
    // A roundabout's modifier is the overall direction from the approach to the exit road.
    const departure = leaves ? bearingOutOf(coordinates, run.last) : bearingOutOf(coordinates, run.first);
    const modifier = modifierOf(deflection(bearingInto(coordinates, step.approachEnd), departure));
    const type = maneuverType(step, previous, run, modifier);
    if (type === undefined) {
      step.last = run.last;
      step.distance += run.distance;
      step.duration += run.duration;
      if (run.distance >= SHORT_RUN_METRES) step.approachEnd = run.last;
      return;
    }
    drafts.push({
      type,
      modifier,
      ...(leaves ? { exit: run.segmentCount } : {}),
      road: run,
      toldRoad: leaves ? next : run,
      first: run.first,
      last: run.last,
      distance: run.distance,
      duration: run.duration,
      approachEnd: run.last,
    });
  });
  return drafts;
}

function stepMode(travel: PathSegment['travel'], mode: TravelMode): StepMode {
  if (travel === 'ferry' || travel === 'train') return travel;
  return travel === 'pushing' ? 'pushing bike' : mode;
}

/** The one intersection OSRM lists for a maneuver: the road arrived on (reversed) and the one taken. */
function intersectionAt(location: [number, number], before: number | undefined, after: number | undefined): OsrmIntersection {
  const arrivedFrom = before === undefined ? undefined : (before + 180) % 360;
  const bearings = [arrivedFrom, after].filter((b): b is number => b !== undefined).sort((a, b) => a - b);
  return {
    location,
    bearings,
    entry: bearings.map(() => true),
    ...(arrivedFrom === undefined ? {} : { in: bearings.indexOf(arrivedFrom) }),
    ...(after === undefined ? {} : { out: bearings.lastIndexOf(after) }),
  };
}

function osrmStep(parts: StepParts, options: StepOptions, leg: LegPosition): OsrmStep {
  const location = position(parts.type === 'arrive' ? parts.coordinates.at(-1)! : parts.coordinates[0]!);
  const maneuver = {
    type: parts.type,
    ...(parts.modifier === undefined ? {} : { modifier: parts.modifier }),
    ...(parts.exit === undefined ? {} : { exit: parts.exit }),
    location,
    bearing_before: parts.bearingBefore ?? 0,
    bearing_after: parts.bearingAfter ?? 0,
  };
  const step = {
    distance: tenths(parts.distance),
    duration: tenths(parts.duration),
    weight: tenths(parts.duration),
    geometry: encodeGeometry(parts.coordinates, options.geometries),
    name: parts.road.name,
    ...(parts.road.ref === '' ? {} : { ref: parts.road.ref }),
    mode: stepMode(parts.road.travel, options.mode),
    driving_side: 'right' as const,
    intersections: [intersectionAt(location, parts.bearingBefore, parts.bearingAfter)],
  };
  const told = { ...step, name: parts.toldRoad.name, ref: parts.toldRoad.ref, maneuver };
  return { ...step, maneuver: { ...maneuver, instruction: instructionOf(options.lang, told, leg) } };
}

/** The steps of leg `legPosition.legIndex` of a route of `legPosition.legCount` legs, `arrive` last. */
export function legSteps(leg: RouteLeg, options: StepOptions, legPosition: LegPosition): OsrmStep[] {
  const coordinates = leg.coordinates;
  const drafts = draftsOf(leg);
  const steps = drafts.map((draft) =>
    osrmStep(
      {
        ...draft,
        coordinates: coordinates.slice(draft.first, draft.last + 1),
        ...(draft.type === 'depart' ? {} : { bearingBefore: bearingInto(coordinates, draft.first) }),
        bearingAfter: bearingOutOf(coordinates, draft.first),
      },
      options,
      legPosition,
    ),
  );
  const end = coordinates.length - 1;
  const lastRoad = drafts.at(-1)!.road;
  const arrival = osrmStep(
    {
      type: 'arrive',
      road: lastRoad,
      toldRoad: lastRoad,
      coordinates: [coordinates[end]!, coordinates[end]!],
      distance: 0,
      duration: 0,
      bearingBefore: bearingInto(coordinates, end),
    },
    options,
    legPosition,
  );
  return [...steps, arrival];
}
