/**
 * The pass of building a leg that makes the material of its steps (as OSRM's
 * engine/guidance/assemble_steps.hpp, over the geometry's segments): runs of consecutive travelled
 * segments of one way (or one name) with their metres and seconds, and at the junction each starts
 * at, the roads that meet there. Roundabout segments each make a run of their own (each one between
 * two junctions is one exit), and so does the segment after a U-turn.
 */
import type { PathSegment } from '../path.js';
import { FLAG_ROUNDABOUT, TRAVEL_KINDS, travelOfNode } from '../../../core/routing/graph-format.js';
import { GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP } from '../../../core/routing/network.js';
import { junctionRoadsOf, roadsLeaving } from './junction-roads.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { LegGeometry } from './leg-geometry.js';

/** The runs of a leg's travelled segments; the last one ends at the polyline's end and takes the trailing seconds. */
export function legRuns(graph: RoutingGraph, { coordinates, travelled, trailingSeconds }: LegGeometry): PathSegment[] {
  const junctionRoads = junctionRoadsOf(graph);
  const runs: PathSegment[] = [];
  let runWay = NaN;
  for (const { node, arrivedFrom, segment, backwards, metres, seconds, first, last } of travelled) {
    const run = runs[runs.length - 1];
    const way = graph.segmentWay[segment]!;
    const flags = graph.segmentFlags[segment]!;
    const name = graph.strings[graph.segmentName[segment]!]!;
    const ref = graph.strings[graph.segmentRef[segment]!]!;
    const pronunciation = graph.strings[graph.segmentPronunciation[segment]!]!;
    const roundabout = (flags & FLAG_ROUNDABOUT) !== 0;
    // In the direction travelled: a cyclist pushes against a oneway and rides along it.
    const travel = TRAVEL_KINDS[travelOfNode(graph.segmentFlags, node)]!;
    const guidance = graph.segmentGuidance[segment]! & (GUIDANCE_RAMP | GUIDANCE_MOTORWAY | GUIDANCE_LOW_PRIORITY);
    // The junction the segment is entered at: its `to` end when travelled backwards.
    const junction = backwards ? graph.segmentTo[segment]! : graph.segmentFrom[segment]!;
    const roadsAtJunction = junctionRoads.first[junction + 1]! - junctionRoads.first[junction]!;
    // Roundabout segments are never merged: the response counts one exit per roundabout run.
    if (
      run &&
      !roundabout &&
      !run.roundabout &&
      run.name === name &&
      run.ref === ref &&
      run.pronunciation === pronunciation &&
      run.travel === travel &&
      run.guidance === guidance &&
      (way === runWay || name !== '') &&
      // A U-turn (onto the other direction of the segment just travelled) is a maneuver of its own.
      (arrivedFrom === undefined || node !== (arrivedFrom ^ 1))
    ) {
      run.distance += metres;
      run.duration += seconds;
      run.last = last;
      if (roadsAtJunction >= 3) run.junctionsPassed = (run.junctionsPassed ?? 0) + 1;
    } else {
      // Every field from the start, so that all runs share one shape (response/runs.ts copies them field by field).
      const started: PathSegment = {
        name,
        ref,
        pronunciation,
        roundabout,
        travel,
        guidance,
        distance: metres,
        duration: seconds,
        first,
        last,
        junctionRoads: undefined,
        junctionExits: undefined,
        junctionsPassed: undefined,
      };
      if (arrivedFrom !== undefined) {
        // The end of the previous segment at this junction: its `to` end when travelled forwards.
        const arrivedEnd = 2 * (arrivedFrom >> 1) + ((arrivedFrom & 1) === 1 ? 0 : 1);
        started.junctionRoads = roadsAtJunction;
        started.junctionExits = roadsLeaving(graph, junctionRoads, junction, arrivedEnd);
      }
      runs.push(started);
    }
    runWay = way;
  }
  const lastRun = runs[runs.length - 1]!;
  lastRun.duration += trailingSeconds;
  lastRun.last = coordinates.length - 1;
  return runs;
}
