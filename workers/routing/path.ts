/**
 * What the routing core answers, before it is shaped into an OSRM or GeoJSON body: the path of one
 * leg along the network, and the part of the network reached within a time budget.
 */
import type { TravelKind } from '../../core/routing/network.js';
import type { LonLat } from '../../core/geo/types.js';

/** A run of the path along one road segment (or consecutive segments of one way). */
export interface PathSegment {
  name: string;
  ref: string;
  /** The way's `name:pronunciation`; absent: none. */
  pronunciation?: string;
  roundabout: boolean;
  travel: TravelKind;
  /** GUIDANCE_RAMP, GUIDANCE_MOTORWAY and GUIDANCE_LOW_PRIORITY bits of the run's way (core/routing/network.ts); absent: none. */
  guidance?: number;
  /** Metres and seconds along this run. */
  distance: number;
  duration: number;
  /** Index into the leg's `coordinates` of the run's first and last point (inclusive). */
  first: number;
  last: number;
  /** How many roads meet at the junction where the run starts (absent for the leg's first run, or when unknown). */
  junctionRoads?: number;
  /** There, the first point away from the junction of each road but the one arrived on (the run's own included), [lon, lat]. */
  junctionExits?: [number, number][];
  /** Junctions of three roads or more the run passes through after its start (absent: none). */
  junctionsPassed?: number;
}

/** One leg of a route: from one snapped waypoint to the next. */
export interface RouteLeg {
  /** Metres and seconds of the whole leg. */
  distance: number;
  duration: number;
  /** The leg's polyline, snapped start to snapped end: [lon, lat] pairs (at least 2). */
  coordinates: LonLat[];
  /**
   * The OSM node id of each coordinate (UNKNOWN_NODE_ID where not known), for OSRM's annotation
   * `nodes`: a snapped start or end inside a piece has the id of the piece's end behind or ahead of it.
   */
  nodes: number[];
  /**
   * The way's elevation at each coordinate where it is a bridge or a tunnel (the straight line of
   * its run), NaN on the ground; absent: all on the ground (a leg not built from a graph).
   */
  roadElevations?: number[];
  /** Consecutive runs covering the polyline: segments[0].first = 0, each next `first` = previous `last`. */
  segments: PathSegment[];
  /**
   * Metres and seconds over stretches of the polyline, for OSRM's route annotations, which share
   * each out over the pieces it covers (response/annotation.ts); together they are the leg's
   * distance and duration.
   */
  spans: LegSpan[];
}

/** Metres and seconds travelled from point `first` to point `last` of a leg's polyline. */
export interface LegSpan {
  first: number;
  last: number;
  metres: number;
  seconds: number;
}

/** A point placed on the network. */
export interface SnappedPoint {
  /** The input position and the snapped one, [lon, lat]. */
  input: [number, number];
  location: [number, number];
  /** Metres between them. */
  distance: number;
  /** Name of the road snapped to ('' when none). */
  name: string;
  /** OSRM's hint to place the point again, when the request asks for hints (answer/place.ts). */
  hint?: string;
}

/**
 * A piece of road reached by a bounded search: its polyline with the travel time (seconds from the
 * centre) at each point. Pieces at the frontier are cut where the budget runs out.
 */
export interface ReachedPiece {
  coordinates: LonLat[];
  seconds: number[];
}
