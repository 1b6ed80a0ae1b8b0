/**
 * The steps of one leg: `depart`, a maneuver where the road changes (`turn`, `new name`, `continue`,
 * `end of road`, `roundabout` with its exit number, `exit roundabout`, `notification` where ferry or
 * pushing starts or ends), and `arrive`. Runs shorter than SHORT_RUN_METRES (a junction link, a slip
 * between two roads) but the last join the step before them, so the maneuver is told once, against the direction of
 * the road left behind. In the order of OSRM's post-processing (api/route_api.hpp): a first and last
 * piece of at most 1 m are trimmed (trim.ts), a maneuver and a name change just after it are collapsed
 * (collapse.ts), then short name changes are suppressed (verbosity.ts).
 */
import { GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP, type TravelMode } from '../../../core/routing/network.js';
import type { PathSegment, RouteLeg } from '../path.js';
import { bearing, bearingInto, bearingOutOf, deflection, modifierOf } from './bearings.js';
import { endOfRoadSide } from './end-of-road.js';
import { collapseTurnInstructions } from './collapse.js';
import { encodeGeometry } from './geometry.js';
import { instructionOf, type LegPosition } from './instruction.js';
import type { ManeuverType, Modifier, OsrmIntersection, OsrmStep, StepMode } from './osrm.js';
import { position, tenths } from './rounding.js';
import { haveSameName, NAME_SUFFIXES, requiresNameAnnounced } from './names.js';
import { passedIn, runsOf, type Run } from './runs.js';
import { trimShortRuns } from './trim.js';
import { suppressShortNameSegments } from './verbosity.js';
import type { Geometries } from '../task.js';
import type { LonLat } from '../../../core/geo/types.js';

export const SHORT_RUN_METRES = 12;
/** OSRM's MIN_END_OF_ROAD_INTERSECTIONS (engine/guidance/collapsing_utility.hpp). */
const MIN_END_OF_ROAD_INTERSECTIONS = 2;

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
  /** The road the step follows, and the one it is named after (the exit road of a roundabout left). */
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
  /** Junctions the step lists as OSRM would: its maneuver's, and each one of three roads or more it passes. */
  intersections: number;
}

/** A step ready to be written: its own line, and the bearings at its maneuver. */
interface StepParts extends Maneuvered {
  coordinates: LonLat[];
  /** Absent at departure and arrival respectively. */
  bearingBefore?: number;
  bearingAfter?: number;
}

const isSlight = (modifier: Modifier) => modifier === 'straight' || modifier.startsWith('slight');

interface Maneuver {
  type: ManeuverType;
  modifier: Modifier;
}

/**
 * Onto a ramp (a motorway or trunk link) from a road that is none: `off ramp` from a motorway or
 * trunk (OSRM's motorway handler), else `on ramp` (its findBasicTurnType), told even where only
 * two roads meet (getInstructionForObvious); undefined elsewhere.
 */
function rampType(previous: Run, run: Run): ManeuverType | undefined {
  const isRamp = (piece: Run) => ((piece.guidance ?? 0) & GUIDANCE_RAMP) !== 0;
  if (!isRamp(run) || isRamp(previous)) return undefined;
  return ((previous.guidance ?? 0) & GUIDANCE_MOTORWAY) !== 0 ? 'off ramp' : 'on ramp';
}

/**
 * Whether `run`, entered where three roads or more meet, is a way of no road class (a service road,
 * a path, a square's outline) after a road of one: OSRM's findObviousTurn never takes such a way
 * (`may_be_ignored`) as the obvious way on, so going straight onto it is a `turn`, not a `new name`.
 */
function leavesRoadClasses(previous: Run, run: Run): boolean {
  const lowPriority = (piece: Run) => ((piece.guidance ?? 0) & GUIDANCE_LOW_PRIORITY) !== 0;
  return lowPriority(run) && !lowPriority(previous);
}

/** At a T-intersection where `run` starts, the `end of road` maneuver; undefined elsewhere. */
function endOfRoad(coordinates: readonly LonLat[], previous: Run, run: Run, suffixes: ReadonlySet<string>): Maneuver | undefined {
  if (run.junctionRoads !== 3 || run.junctionExits === undefined) return undefined;
  const junction = coordinates[run.first]!;
  const exits = run.junctionExits.map((point) => bearing(junction, point));
  // The road taken is the obvious way on (not the end of the road) when it carries on the name of the road arrived on.
  const obvious = haveSameName(previous, run, suffixes);
  const side = endOfRoadSide(bearingInto(coordinates, run.first), exits, bearingOutOf(coordinates, run.first), obvious);
  return side === undefined ? undefined : { type: 'end of road', modifier: side };
}

/** What happens where `run` begins after `previous` (`last`: the leg's last run), or undefined when `run` simply extends the step. */
function maneuverOf(
  coordinates: readonly LonLat[],
  step: Draft,
  previous: Run,
  run: Run,
  modifier: Modifier,
  suffixes: ReadonlySet<string>,
  last: boolean,
): Maneuver | undefined {
  const plain = (type: ManeuverType | undefined) => (type === undefined ? undefined : { type, modifier });
  if (run.roundabout) return plain('roundabout');
  if (previous.roundabout) return plain('exit roundabout');
  if (run.travel !== previous.travel) return plain('notification');
  if (run.distance < SHORT_RUN_METRES && !last) return undefined;
  const announced = requiresNameAnnounced(step.road, run, suffixes);
  // Turning round (at a turning place, or where no road leads in but the one arrived on) is always told.
  if (modifier === 'uturn') return plain(announced ? 'turn' : 'continue');
  const ramp = rampType(previous, run);
  if (ramp !== undefined) return plain(ramp);
  // Where only two roads meet there is no choice: OSRM's getInstructionForObvious (intersection_handler.cpp)
  // tells a new name in whatever direction the road goes, and nothing when the road keeps its name.
  if (run.junctionRoads === 2) return plain(announced ? 'new name' : undefined);
  const atT = endOfRoad(coordinates, previous, run, suffixes);
  if (atT !== undefined) {
    // OSRM's buildIntersections: the end of the road only helps after passing a junction since the last maneuver.
    if (step.intersections >= MIN_END_OF_ROAD_INTERSECTIONS) return atT;
    const sameName = !(run.name === '' && run.ref === '') && !announced;
    return { type: sameName ? 'continue' : 'turn', modifier: atT.modifier };
  }
  if (announced) return plain(isSlight(modifier) && !leavesRoadClasses(previous, run) ? 'new name' : 'turn');
  return plain(isSlight(modifier) ? undefined : 'continue');
}

function draftsOf(leg: RouteLeg, runs: readonly Run[], suffixes: ReadonlySet<string>): Draft[] {
  const coordinates = leg.coordinates;
  const drafts: Draft[] = [];
  runs.forEach((run, index) => {
    const step = drafts.at(-1);
    const previous = runs[index - 1];
    if (step === undefined || previous === undefined) {
      drafts.push({
        type: 'depart',
        modifier: undefined,
        exit: undefined,
        road: run,
        toldRoad: run,
        first: run.first,
        last: run.last,
        distance: run.distance,
        duration: run.duration,
        approachEnd: run.last,
        intersections: 1 + passedIn(run),
      });
      return;
    }
    const next = runs[index + 1];
    const leaves = run.roundabout && next !== undefined;
    // A roundabout's modifier is the overall direction from the approach to the exit road.
    const departure = leaves ? bearingOutOf(coordinates, run.last) : bearingOutOf(coordinates, run.first);
    const modifier = modifierOf(deflection(bearingInto(coordinates, step.approachEnd), departure));
    const maneuver = maneuverOf(coordinates, step, previous, run, modifier, suffixes, next === undefined);
    if (maneuver === undefined) {
      step.last = run.last;
      step.distance += run.distance;
      step.duration += run.duration;
      if (run.distance >= SHORT_RUN_METRES) step.approachEnd = run.last;
      step.intersections += ((run.junctionRoads ?? 0) >= 3 ? 1 : 0) + passedIn(run);
      return;
    }
    drafts.push({
      type: maneuver.type,
      modifier: maneuver.modifier,
      exit: leaves ? run.segmentCount : undefined,
      road: run,
      toldRoad: leaves ? next : run,
      first: run.first,
      last: run.last,
      distance: run.distance,
      duration: run.duration,
      approachEnd: run.last,
      intersections: 1 + passedIn(run),
    });
  });
  const absorb = (into: Draft, step: Draft) => {
    into.last = step.last;
    into.distance += step.distance;
    into.duration += step.duration;
    into.approachEnd = step.approachEnd;
    into.intersections += step.intersections;
  };
  const collapsed = collapseTurnInstructions(drafts, coordinates, suffixes, absorb, (step, as) => {
    step.road = as.road;
    step.toldRoad = as.toldRoad;
  });
  return suppressShortNameSegments(collapsed, suffixes, absorb);
}

function stepMode(travel: PathSegment['travel'], mode: TravelMode): StepMode {
  if (travel === 'ferry' || travel === 'train') return travel;
  return travel === 'pushing' ? 'pushing bike' : mode;
}

/**
 * The one intersection OSRM lists for a maneuver: the road arrived on (reversed) and the one taken.
 * Here and in osrmStep a field that does not apply is `undefined`, which JSON leaves out: objects of
 * one shape, without the spreads V8 copies slowly.
 */
function intersectionAt(location: [number, number], before: number | undefined, after: number | undefined): OsrmIntersection {
  const arrivedFrom = before === undefined ? undefined : (before + 180) % 360;
  const bearings = [arrivedFrom, after].filter((b): b is number => b !== undefined).sort((a, b) => a - b);
  return {
    location,
    bearings,
    entry: bearings.map(() => true),
    in: arrivedFrom === undefined ? undefined : bearings.indexOf(arrivedFrom),
    out: after === undefined ? undefined : bearings.lastIndexOf(after),
  };
}

function osrmStep(parts: StepParts, options: StepOptions, leg: LegPosition): OsrmStep {
  const location = position(parts.type === 'arrive' ? parts.coordinates.at(-1)! : parts.coordinates[0]!);
  const step: OsrmStep = {
    distance: tenths(parts.distance),
    duration: tenths(parts.duration),
    weight: tenths(parts.duration),
    geometry: encodeGeometry(parts.coordinates, options.geometries),
    // A roundabout step that leaves it carries the exit road's name and ref (OSRM's processRoundaboutExits: AdaptStepSignage).
    name: parts.toldRoad.name,
    ref: parts.toldRoad.ref === '' ? undefined : parts.toldRoad.ref,
    mode: stepMode(parts.road.travel, options.mode),
    driving_side: 'right',
    intersections: [intersectionAt(location, parts.bearingBefore, parts.bearingAfter)],
    maneuver: {
      type: parts.type,
      modifier: parts.modifier,
      exit: parts.exit,
      location,
      bearing_before: parts.bearingBefore ?? 0,
      bearing_after: parts.bearingAfter ?? 0,
      // Told from the step as built so far.
      instruction: '',
    },
  };
  step.maneuver.instruction = instructionOf(options.lang, step, leg);
  return step;
}

/** The steps of leg `legPosition.legIndex` of a route of `legPosition.legCount` legs, `arrive` last. */
export function legSteps(leg: RouteLeg, options: StepOptions, legPosition: LegPosition): OsrmStep[] {
  const coordinates = leg.coordinates;
  const runs = trimShortRuns(runsOf(leg));
  const drafts = draftsOf(leg, runs, NAME_SUFFIXES[options.mode]);
  const steps = drafts.map((draft) =>
    osrmStep(
      {
        type: draft.type,
        modifier: draft.modifier,
        exit: draft.exit,
        road: draft.road,
        toldRoad: draft.toldRoad,
        distance: draft.distance,
        duration: draft.duration,
        coordinates: coordinates.slice(draft.first, draft.last + 1),
        bearingBefore: draft.type === 'depart' ? undefined : bearingInto(coordinates, draft.first),
        bearingAfter: bearingOutOf(coordinates, draft.first),
      },
      options,
      legPosition,
    ),
  );
  const end = coordinates.length - 1;
  // OSRM names the arrival after the road it ends on (after trimming, which runs before any step is suppressed).
  const lastRoad = runs.at(-1)!;
  const arrival = osrmStep(
    {
      type: 'arrive',
      road: lastRoad,
      toldRoad: lastRoad,
      modifier: undefined,
      exit: undefined,
      coordinates: [coordinates[end]!, coordinates[end]!],
      distance: 0,
      duration: 0,
      bearingBefore: bearingInto(coordinates, end),
      bearingAfter: undefined,
    },
    options,
    legPosition,
  );
  return [...steps, arrival];
}
